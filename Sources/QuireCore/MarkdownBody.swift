import Foundation

/// What a note's Markdown body says about the note beyond its words, read line by line
/// outside fenced and indented code blocks, at the top level and inside block quotes and list
/// items (as CommonMark opens and closes them: `MarkdownBlocks`).
public enum MarkdownBody {
    /// The text of the first level-one heading (`# Heading`, up to three spaces before the
    /// `#`, an optional closing run of `#` dropped; or a paragraph underlined with `===`),
    /// trimmed; nil when there is none.
    public static func firstHeading(in body: String) -> String? {
        var body = body
        return body.withUTF8 { bytes in
            var heading: String?
            forEachHeading(of: bytes, from: 0) { level, text, _ in
                if level == 1, !text.isEmpty { heading = text }
                return heading == nil
            }
            return heading
        }
    }

    /// Calls `visit` with each heading of a body from `first` (a body's first byte), outside
    /// code blocks: ATX (`## Heading`) and setext (a paragraph underlined with `===` or `---`);
    /// its level (1–6), its text (trimmed, a closing run of `#` dropped; maybe empty) and the
    /// offset of its first line; until `visit` returns false.
    public static func forEachHeading(of bytes: UnsafeBufferPointer<UInt8>, from first: Int,
                                      _ visit: (_ level: Int, _ text: String, _ lineStart: Int) -> Bool) {
        MarkdownBlocks.forEachLine(of: bytes, from: first) { block in
            if case .setextUnderline(let level, let heading) = block.kind, let first = heading.first {
                return visit(level, MarkdownBlocks.setextText(bytes, heading), first.lowerBound)
            }
            let line = block.beforeComments
            guard block.kind == .text else { return true }
            let start = line.lowerBound + indent(UnsafeBufferPointer(rebasing: bytes[line]))
            guard start - line.lowerBound < 4, let heading = MarkdownBlocks.atxHeading(bytes, start..<line.upperBound) else {
                return true
            }
            return visit(heading.level, String(decoding: UnsafeBufferPointer(rebasing: bytes[heading.text]), as: UTF8.self),
                         line.lowerBound)
        }
    }

    /// The inline tags of a body, as Obsidian reads them: `#` at the start of a line or after a
    /// space or tab, then letters, digits, `_`, `-` and `/` (not only digits: `#123` is no tag;
    /// a trailing `/` is dropped). Not inside code spans or code blocks (fenced or indented, in
    /// lists and quotes too), and never a heading's `#` (a space follows it), a URL's (`/#x`,
    /// `page#x`: no space before it) or one inside an HTML tag (`<span style="color: #ccc">`, over several lines too).
    /// In order of appearance, without `#`, duplicates (ignoring case) dropped.
    public static func inlineTags(in body: String) -> [String] {
        var body = body
        return body.withUTF8 { bytes in
            guard let base = bytes.baseAddress, memchr(base, Int32(UInt8(ascii: "#")), bytes.count) != nil else { return [] }
            var reader = TagReader(from: 0)
            forEachLine(of: bytes) { line in
                reader.read(bytes, line)
                return true
            }
            return reader.tags
        }
    }

    /// Calls `visit` with the byte range of each line a reader reads as text (without its line
    /// ending), from `first` (a body's first byte), until `visit` returns false: every line but
    /// the empty ones and those of fenced and indented code blocks, `%%` comments and (unless
    /// `html`) raw HTML blocks, in block quotes and list items too (`MarkdownBlocks`); a line
    /// with an inline comment comes as its stretches outside it.
    static func forEachLine(of bytes: UnsafeBufferPointer<UInt8>, from first: Int = 0, html: Bool = false,
                            _ visit: (Range<Int>) -> Bool) {
        MarkdownBlocks.forEachLine(of: bytes, from: first) { line in
            guard line.isRead || html && line.kind == .html else { return true }
            return line.forEachVisible(visit)
        }
    }

    /// Calls `visit` with the byte range of each line a reader reads as text, from `start` (a
    /// body's first byte): outside fenced and indented code blocks, raw HTML blocks and `%%`
    /// comments (a line's stretches outside an inline one), as `LinkExtractor` reads them;
    /// until `visit` returns false.
    public static func forEachReadableLine(of bytes: UnsafeBufferPointer<UInt8>, from start: Int,
                                           _ visit: (Range<Int>) -> Bool) {
        forEachLine(of: bytes, from: start, visit)
    }

    /// The byte ranges of a body's `%%` comments, as the renderers leave them out: each line
    /// wholly inside a block comment with its line ending, and each inline `%%…%%`; in order.
    public static func commentRanges(in body: String) -> [Range<Int>] {
        var body = body
        return body.withUTF8 { MarkdownBlocks.commentRanges($0, from: 0) }
    }

    /// `body` without its `%%` comments (`commentRanges`), as search snippets show it.
    public static func withoutComments(_ body: String) -> String {
        let ranges = commentRanges(in: body)
        guard !ranges.isEmpty else { return body }
        var bytes = Array(body.utf8)
        for range in ranges.reversed() { bytes.removeSubrange(range) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The byte ranges of the code spans of one line (`` `code` ``, as `LinkExtractor` and
    /// `inlineTags` skip them), in order.
    public static func codeSpans(in bytes: UnsafeBufferPointer<UInt8>, line: Range<Int>) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        var reader = CodeSpanReader(bytes, line: line)
        var index = line.lowerBound
        while index < line.upperBound {
            guard bytes[index] == UInt8(ascii: "`") else { index += 1; continue }
            let end = reader.after(index)
            var run = index
            while run < line.upperBound, bytes[run] == UInt8(ascii: "`") { run += 1 }
            if end > run { spans.append(index..<end) }
            index = end
        }
        return spans
    }

    /// The number of spaces a line starts with, at most four.
    static func indent(_ line: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        while count < line.count, count < 4, line[count] == 0x20 { count += 1 }
        return count
    }

    /// The tags of one line (outside code spans and HTML tags; `inHTMLTag`: the line starts
    /// inside an HTML tag that an earlier line opened, and whether the next one does).
    static func tagsOfLine(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, inHTMLTag: inout Bool) -> [String] {
        var tags: [String] = []
        var codeSpans = CodeSpanReader(bytes, line: line)
        var index = line.lowerBound
        if inHTMLTag {
            guard let close = UnsafeBufferPointer(rebasing: bytes[line]).firstIndex(of: UInt8(ascii: ">")) else { return [] }
            index += close + 1
            inHTMLTag = false
        }
        while index < line.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: "`") {
                index = codeSpans.after(index)
                continue
            }
            // An HTML tag or an autolink (`<a style="color: #ccc">`, `<https://x/#y>`).
            if byte == UInt8(ascii: "<"), index + 1 < line.upperBound,
               (0x61...0x7A).contains(bytes[index + 1] | 0x20) || bytes[index + 1] == UInt8(ascii: "/")
                   || bytes[index + 1] == UInt8(ascii: "!"),
               let close = UnsafeBufferPointer(rebasing: bytes[index..<line.upperBound]).firstIndex(of: UInt8(ascii: ">")) {
                index += close + 1
                continue
            }
            // An HTML tag whose attributes go on over the next lines.
            if byte == UInt8(ascii: "<"), index + 1 < line.upperBound, (0x61...0x7A).contains(bytes[index + 1] | 0x20) {
                inHTMLTag = true
                return tags
            }
            let isTagStart = byte == UInt8(ascii: "#")
                && (index == line.lowerBound || bytes[index - 1] == 0x20 || bytes[index - 1] == 0x09)
            guard isTagStart else { index += 1; continue }
            let start = index + 1
            var end = start
            while end < line.upperBound {
                let next = bytes[end]
                if next < 0x80 {
                    let isDigit = next >= 0x30 && next <= 0x39
                    let isLetter = (next | 0x20) >= 0x61 && (next | 0x20) <= 0x7A
                    guard isDigit || isLetter || next == UInt8(ascii: "_") || next == UInt8(ascii: "-")
                            || next == UInt8(ascii: "/") else { break }
                    end += 1
                } else {
                    guard let length = letterLength(bytes, at: end, end: line.upperBound) else { break }
                    end += length
                }
            }
            var last = end
            while last > start, bytes[last - 1] == UInt8(ascii: "/") { last -= 1 }
            let digitsOnly = !UnsafeBufferPointer(rebasing: bytes[start..<last]).contains {
                !($0 >= 0x30 && $0 <= 0x39) && $0 != UInt8(ascii: "/")
            }
            if last > start, !digitsOnly {
                tags.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<last]), as: UTF8.self))
            }
            index = max(end, index + 1)
        }
        return tags
    }

    /// The length of the UTF-8 sequence at `index` when it is a letter, digit, mark or symbol
    /// (emoji) that a tag may hold; nil for punctuation, spaces and invalid bytes.
    private static func letterLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> Int? {
        let lead = bytes[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
        guard length > 0, index + length <= end,
              let text = String(validating: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]), as: UTF8.self),
              let scalar = text.unicodeScalars.first else { return nil }
        let properties = scalar.properties
        if properties.isAlphabetic || properties.isEmoji && scalar.value > 0xFF { return length }
        switch properties.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark,
             .otherSymbol:
            return length
        default:
            return nil
        }
    }
}

extension Note {
    /// The first `# heading` of a note without a `title` of its own, searchable as a title
    /// beside the file name (Obsidian titles such notes by their file name); nil otherwise.
    public var headingTitle: String? {
        hasTitle ? nil : MarkdownBody.firstHeading(in: body)
    }
}
