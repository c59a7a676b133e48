import Foundation

/// File names every file system takes (Linux, macOS, Windows, and the sync between them), and
/// the one length rule: at most `maxBytes` bytes of UTF-8, cut at a character boundary.
///
/// A title becomes a file name (`fileNames: title`, Obsidian's habit) by these rules:
/// - NFC (macOS would store it decomposed otherwise, and two devices would see two names);
/// - `/ \ : * ? " < > |` (refused by Windows or a path separator), control characters, and
///   `# ^ [ ]` (they would cut a `[[wikilink]]` to the note short) become a space;
/// - runs of white space become one space; leading spaces and dots (a hidden file is no note)
///   and trailing spaces and dots (Windows drops them) go;
/// - a Windows device name (`CON`, `PRN`, `AUX`, `NUL`, `COM1`–`COM9`, `LPT1`–`LPT9`, in any case
///   and with any extension after it) gets a `_`;
/// - at most `maxBytes` bytes with `.md`; an empty result is `Untitled`.
///
/// "Q: what now?" → `Q what now.md`; "Woody's last ride" → `Woody's last ride.md`.
public enum SafeFileName {
    /// The longest file name, in UTF-8 bytes (ext4, APFS and NTFS allow 255).
    public static let maxBytes = 255

    /// Characters a file name never holds.
    public static let forbidden: Set<Character> = ["/", "\\", ":", "*", "?", "\"", "<", ">", "|", "#", "^", "[", "]"]

    /// Windows' device names (without extension).
    public static let reservedNames: Set<String> = Set(["CON", "PRN", "AUX", "NUL"]
        + (1...9).map { "COM\($0)" } + (1...9).map { "LPT\($0)" })

    /// The file name (without `.md`) for `title`.
    public static func stem(forTitle title: String, extension ext: String = ".md") -> String {
        var text = ""
        var pendingSpace = false
        for character in title.precomposedStringWithCanonicalMapping {
            let isBreak = forbidden.contains(character) || character.isWhitespace
                || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
            if isBreak {
                pendingSpace = true
                continue
            }
            if pendingSpace, !text.isEmpty { text.append(" ") }
            pendingSpace = false
            text.append(character)
        }
        while text.first == "." || text.first == " " { text.removeFirst() }
        if isReserved(text) { text += "_" }
        text = prefix(text, bytes: maxBytes - ext.utf8.count)
        while text.last == "." || text.last == " " { text.removeLast() }
        return text.isEmpty ? "Untitled" : text
    }

    /// `stem(forTitle:)` + `.md`.
    public static func fileName(forTitle title: String) -> String {
        stem(forTitle: title) + ".md"
    }

    /// Whether `name` (the part before its first dot) is a Windows device name.
    public static func isReserved(_ name: String) -> Bool {
        let base = name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? name
        return reservedNames.contains(base.trimmingCharacters(in: .whitespaces).uppercased())
    }

    /// The longest prefix of `text`, in whole characters, of at most `limit` UTF-8 bytes.
    public static func prefix(_ text: String, bytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var kept = ""
        var used = 0
        for character in text {
            let size = String(character).utf8.count
            guard used + size <= limit else { break }
            kept.append(character)
            used += size
        }
        return kept
    }
}

/// How `quire new` and `quire rename` name a note's file (`fileNames:` in `.quire/config.yml`).
public enum FileNameStyle: String, Sendable, CaseIterable {
    /// `woodys-last-ride.md` (`Slug`): lowercase, ASCII punctuation gone. The default.
    case slug
    /// `Woody's last ride.md` (`SafeFileName`): the title itself, made safe for every OS, as
    /// Obsidian names its files. `quire init` writes it when it finds `.obsidian/`.
    case title

    /// The file name stem (no `.md`) this style gives `title`.
    public func stem(forTitle title: String) -> String {
        switch self {
        case .slug: return Slug.slug(forTitle: title)
        case .title: return SafeFileName.stem(forTitle: title)
        }
    }

    /// The file name this style gives `title`.
    public func fileName(forTitle title: String) -> String {
        stem(forTitle: title) + ".md"
    }

    /// Whether a file name already is what this style gives `title`, or that name with a
    /// collision's `-2`, `-3`, … (renaming it again would only churn).
    public func fits(_ fileName: String, title: String) -> Bool {
        let stem = self.stem(forTitle: title)
        guard fileName.hasSuffix(".md") else { return false }
        let name = String(fileName.dropLast(3))
        guard name != stem else { return true }
        guard name.hasPrefix(stem + "-") else { return false }
        let counter = name.dropFirst(stem.count + 1)
        return !counter.isEmpty && counter.allSatisfy(\.isASCII) && Int(counter).map { $0 >= 2 } == true
    }
}
