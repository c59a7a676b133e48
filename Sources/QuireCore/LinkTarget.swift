import Foundation

/// Small rules about link targets shared by extraction, resolution and rewriting.
public enum LinkTarget {
    /// The extension of a target that names an attachment (`png` for `image.png`), nil for a
    /// note (`.md`, or no extension). An extension is 1–5 ASCII letters or digits with at least
    /// one letter after the last `.` of the file name, so `[[v1.2 notes]]` or `[[Mr. Smith]]`
    /// stay notes.
    public static func attachmentExtension(of target: String) -> String? {
        let name = target.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? target
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...]
        guard (1...5).contains(ext.count), ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
              ext.contains(where: { $0.isLetter }) else { return nil }
        return ext.lowercased() == "md" ? nil : ext.lowercased()
    }

    /// The key of the name a target ends with: its last path part, `.md` dropped, as
    /// `LinkResolver.key` makes keys (`../a/My Note.md` → `my note`); nil for an empty target.
    /// Every note a target can resolve to has this key as its file name, title or an alias,
    /// which is how an index finds a note's backlinks without resolving every link.
    public static func nameKey(of target: String) -> String? {
        var target = target
        if let key = target.withUTF8(asciiNameKey) { return key.isEmpty ? nil : key }
        return characterNameKey(of: target)
    }

    /// `nameKey(of:)` read character by character (any target).
    static func characterNameKey(of target: String) -> String? {
        guard let last = target.split(separator: "/").last, !last.isEmpty else { return nil }
        let name = last.lowercased().hasSuffix(".md") ? String(last.dropLast(3)) : String(last)
        return name.isEmpty ? nil : LinkResolver.key(name)
    }

    /// `nameKey(of:)` of an ASCII target, byte by byte (`""` for none; nil for any other
    /// target): a rebuild asks once for every link of every note, and splitting the path and
    /// lowercasing it as characters cost several times what the link's extraction did.
    private static func asciiNameKey(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let slash = UInt8(ascii: "/")
        var end = bytes.count
        while end > 0 && bytes[end - 1] == slash { end -= 1 }
        var start = end
        while start > 0 && bytes[start - 1] != slash { start -= 1 }
        if end - start >= 3 && bytes[end - 3] == UInt8(ascii: ".") && bytes[end - 2] | 0x20 == UInt8(ascii: "m")
            && bytes[end - 1] | 0x20 == UInt8(ascii: "d") {
            end -= 3
        }
        return String(unsafeUninitializedCapacity: end - start) { key in
            for offset in 0..<(end - start) {
                let byte = bytes[start + offset]
                key[offset] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            }
            return end - start
        }
    }

    /// A `/`-separated path with `.` and empty parts dropped and `..` applied; nil when `..`
    /// climbs above the vault root.
    public static func normalized(_ path: String) -> String? {
        if isNormal(path) { return path }
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
                continue
            }
            parts.append(part)
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }

    /// Whether `path` is its own `normalized` form (most targets and folders): it has parts, none
    /// empty and none of dots only (`.`, `..`). Checked on the bytes, without splitting.
    static func isNormal(_ path: String) -> Bool {
        var partLength = 0, onlyDots = true
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if partLength == 0 || onlyDots { return false }
                partLength = 0
                onlyDots = true
            } else {
                partLength += 1
                if byte != UInt8(ascii: ".") { onlyDots = false }
            }
        }
        return partLength > 0 && !onlyDots
    }

    /// The path of `target` relative to the folder `from` (`""` = the vault root), as a
    /// Markdown link written in a note of that folder spells it (`../b/c.md`).
    public static func relativePath(to target: String, from folder: String) -> String {
        let targetParts = target.split(separator: "/").map(String.init)
        let folderParts = folder.split(separator: "/").map(String.init)
        var common = 0
        while common < min(targetParts.count - 1, folderParts.count), targetParts[common] == folderParts[common] { common += 1 }
        let ups = Array(repeating: "..", count: folderParts.count - common)
        return (ups + targetParts[common...]).joined(separator: "/")
    }
}

/// An in-memory `LinkTargetIndex` over a list of notes (path, title, aliases) and attachment
/// paths: what a resolver needs when there is no catalog, and in tests.
public struct LinkTargetTable: LinkTargetIndex, Sendable {
    private var byPath: [String: Paths] = [:]
    private var byName: [String: Paths] = [:]
    private var byTitle: [String: Paths] = [:]
    private var byAlias: [String: Paths] = [:]

    /// The paths filed under one key: most keys have one, kept without an array (a table of
    /// 100,000 notes is four dictionaries of about as many keys, made and freed per command).
    private enum Paths: Sendable {
        case one(String)
        case many([String])

        var all: [String] {
            switch self {
            case .one(let path): return [path]
            case .many(let paths): return paths
            }
        }

        static func adding(_ path: String, to paths: Paths?) -> Paths {
            switch paths {
            case nil: return .one(path)
            case .one(let first)?: return .many([first, path])
            case .many(var all)?:
                all.append(path)
                return .many(all)
            }
        }
    }

    /// A note as the table needs it.
    public struct Entry: Sendable, Equatable {
        /// Vault path (`a/b.md`).
        public var path: String
        /// Title (front matter, else the file name).
        public var title: String
        /// Aliases.
        public var aliases: [String]

        /// Creates an entry.
        public init(path: String, title: String, aliases: [String] = []) {
            self.path = path
            self.title = title
            self.aliases = aliases
        }
    }

    /// A table of `notes` and `attachments` (vault paths of files that are not notes).
    public init(notes: [Entry], attachments: [String] = []) {
        // Sized once: growing four dictionaries of 100,000 keys rehashes each several times.
        byPath.reserveCapacity(notes.count + attachments.count)
        byName.reserveCapacity(notes.count + attachments.count)
        byTitle.reserveCapacity(notes.count)
        for note in notes {
            add(path: note.path)
            if !note.title.isEmpty { Self.file(note.path, under: LinkResolver.key(note.title), in: &byTitle) }
            var seen = Set<String>()
            for alias in note.aliases where !alias.isEmpty && seen.insert(LinkResolver.key(alias)).inserted {
                Self.file(note.path, under: LinkResolver.key(alias), in: &byAlias)
            }
        }
        for attachment in attachments { add(path: attachment) }
    }

    private mutating func add(path: String) {
        Self.file(path, under: LinkResolver.key(path), in: &byPath)
        // The name's key as a link target's (cut from an ASCII path's bytes: no split, no
        // `String` per part); the same key for any path that has a name.
        let nameKey = LinkTarget.nameKey(of: path) ?? {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return LinkResolver.key(name.lowercased().hasSuffix(".md") ? String(name.dropLast(3)) : name)
        }()
        Self.file(path, under: nameKey, in: &byName)
    }

    private static func file(_ path: String, under key: String, in table: inout [String: Paths]) {
        table[key] = Paths.adding(path, to: table.removeValue(forKey: key))
    }

    /// See `LinkTargetIndex`.
    public func files(atPathKey key: String) -> [String] { byPath[key]?.all ?? [] }
    /// See `LinkTargetIndex`.
    public func files(withNameKey key: String) -> [String] { byName[key]?.all ?? [] }
    /// See `LinkTargetIndex`.
    public func notes(withTitleKey key: String) -> [String] { byTitle[key]?.all ?? [] }
    /// See `LinkTargetIndex`.
    public func notes(withAliasKey key: String) -> [String] { byAlias[key]?.all ?? [] }
}
