import Foundation

/// The headings and block ids of a note body, for resolving `#heading` and `#^block`: the one
/// rule by which `check`, links and backlinks, the language server and the site export decide
/// which heading a link names (see Docs/links.md).
public struct NoteAnchors: Sendable, Equatable, Hashable {
    /// The text of each heading (ATX `#` to `######`, and setext), in order, trimmed.
    public var headings: [String]
    /// Each block id (`^id` ending a block, also right after an embed), in order, without `^`.
    public var blockIDs: [String]

    /// Creates anchors.
    public init(headings: [String] = [], blockIDs: [String] = []) {
        self.headings = headings
        self.blockIDs = blockIDs
    }

    /// Whether `heading` names a heading here (`headingIndex`).
    public func hasHeading(_ heading: String) -> Bool {
        headingIndex(of: heading) != nil
    }

    /// The index in `headings` of the heading a link's `#heading` names, nil when none does.
    /// `A#B` names `B` (the last part). Compared in this order, case-insensitively:
    /// 1. as Obsidian writes the heading in a link (`linkText`: `:` `?` `#` `|` `^` `[` `]`
    ///    `%%` and `\` made spaces; spaces, `-` and `_` not told apart): `Part 1 Basics` names
    ///    `Part 1: Basics`;
    /// 2. with every other punctuation mark and symbol dropped too (backticks, `&`, `*`):
    ///    `The quire command` names ``The `quire` command``;
    /// 3. as GitHub and Hugo write anchors (`HeadingAnchor.slug`, `-1`, `-2` after a repeated one).
    public func headingIndex(of heading: String) -> Int? {
        let last = heading.split(separator: "#").last.map(String.init) ?? heading
        let wanted = Self.headingKey(last)
        if let index = headings.firstIndex(where: { Self.headingKey($0) == wanted }) { return index }
        let loose = Self.looseKey(last)
        if !loose.isEmpty, let index = headings.firstIndex(where: { Self.looseKey($0) == loose }) { return index }
        let slug = last.lowercased()
        var maker = HeadingAnchor()
        for (index, text) in headings.enumerated() where maker.next(text) == slug { return index }
        return nil
    }

    /// Whether `blockID` is a block id here (case-insensitive).
    public func hasBlock(_ blockID: String) -> Bool {
        let wanted = blockID.lowercased()
        return blockIDs.contains { $0.lowercased() == wanted }
    }

    /// A heading as Obsidian writes it in a link (what its link suggester inserts after
    /// `[[Note#`): `:` `?` `#` `|` `^` `[` `]` `\` and `%%` made spaces, runs of white space one
    /// space, trimmed (`Part 1: Basics` → `Part 1 Basics`).
    public static func linkText(_ heading: String) -> String {
        var text = ""
        var pendingSpace = false
        var scalars = Array(heading.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            var dropped = droppedInLinks.contains(scalar)
            if scalar == "%", scalars.first == "%" {
                scalars.removeFirst()
                dropped = true
            }
            if dropped || scalar.properties.isWhitespace {
                pendingSpace = !text.isEmpty
                continue
            }
            if pendingSpace { text.unicodeScalars.append(" ") }
            pendingSpace = false
            text.unicodeScalars.append(scalar)
        }
        return text
    }

    /// The characters Obsidian cannot hold in a heading link (`%%` is checked apart).
    private static let droppedInLinks: Set<Unicode.Scalar> = [":", "?", "#", "|", "^", "[", "]", "\\"]

    /// A heading as compared: `linkText`, lowercased, runs of spaces, `-` and `_` made one
    /// space.
    public static func headingKey(_ text: String) -> String {
        var key = ""
        var pendingSpace = false
        for character in linkText(text).lowercased() {
            if character == " " || character == "-" || character == "_" {
                pendingSpace = !key.isEmpty
            } else {
                if pendingSpace { key.append(" ") }
                pendingSpace = false
                key.append(character)
            }
        }
        return key
    }

    /// `headingKey` with every punctuation mark and symbol dropped (letters, digits and marks
    /// of every script kept, spaces between words one).
    static func looseKey(_ text: String) -> String {
        var key = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in headingKey(text).unicodeScalars {
            let properties = scalar.properties
            if properties.isAlphabetic || properties.numericType != nil || properties.generalCategory == .nonspacingMark {
                if pendingSpace { key.append(" ") }
                pendingSpace = false
                key.append(scalar)
            } else if scalar == " " {
                pendingSpace = !key.isEmpty
            }
        }
        return String(key)
    }
}
