import Foundation

/// What a note's Markdown body says about the note beyond its words, read line by line
/// outside fenced code blocks (```` ``` ```` or `~~~`, as CommonMark opens and closes them).
public enum MarkdownBody {
    /// The text of the first level-one ATX heading (`# Heading`, up to three spaces before the
    /// `#`, an optional closing run of `#` dropped), trimmed; nil when there is none.
    public static func firstHeading(in body: String) -> String? {
        var heading: String?
        forEachLine(of: body) { line in
            heading = headingText(line)
            return heading == nil
        }
        return heading
    }

    /// Calls `visit` with each line outside fenced code blocks (without its line ending) until
    /// `visit` returns false.
    static func forEachLine(of body: String, _ visit: (Substring.UTF8View) -> Bool) {
        var fence: (byte: UInt8, length: Int)?
        for line in body.utf8.split(separator: 0x0A, omittingEmptySubsequences: true) {
            if let opening = fenceRun(line) {
                if let open = fence {
                    if opening.byte == open.byte, opening.length >= open.length, opening.isBare { fence = nil }
                } else {
                    fence = (opening.byte, opening.length)
                }
                continue
            }
            if fence != nil { continue }
            if !visit(line) { return }
        }
    }

    /// A line that opens or closes a fence: up to three spaces, then three or more backticks
    /// or tildes (`isBare`: nothing after them but spaces, as a closing fence must be).
    private static func fenceRun(_ line: Substring.UTF8View) -> (byte: UInt8, length: Int, isBare: Bool)? {
        var index = line.startIndex
        var indent = 0
        while index < line.endIndex, line[index] == 0x20, indent < 4 { indent += 1; index = line.index(after: index) }
        guard indent < 4, index < line.endIndex else { return nil }
        let byte = line[index]
        guard byte == UInt8(ascii: "`") || byte == UInt8(ascii: "~") else { return nil }
        var length = 0
        while index < line.endIndex, line[index] == byte { length += 1; index = line.index(after: index) }
        guard length >= 3 else { return nil }
        let rest = line[index...]
        return (byte, length, rest.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D })
    }

    /// The text of a level-one heading line, nil for any other line.
    private static func headingText(_ line: Substring.UTF8View) -> String? {
        var index = line.startIndex
        var indent = 0
        while index < line.endIndex, line[index] == 0x20, indent < 4 { indent += 1; index = line.index(after: index) }
        guard indent < 4, index < line.endIndex, line[index] == UInt8(ascii: "#") else { return nil }
        index = line.index(after: index)
        guard index < line.endIndex, line[index] == 0x20 || line[index] == 0x09 else { return nil }
        var text = String(decoding: line[index...], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        // A closing sequence: spaces then only `#` to the end.
        if let lastNonHash = text.lastIndex(where: { $0 != "#" }), lastNonHash < text.index(before: text.endIndex),
           text[lastNonHash] == " " || text[lastNonHash] == "\t" {
            text = String(text[...lastNonHash]).trimmingCharacters(in: .whitespaces)
        }
        return text.isEmpty ? nil : text
    }
}

extension Note {
    /// The first `# heading` of a note without a `title` of its own, searchable as a title
    /// beside the file name (Obsidian titles such notes by their file name); nil otherwise.
    public var headingTitle: String? {
        hasTitle ? nil : MarkdownBody.firstHeading(in: body)
    }
}
