import Foundation

/// What a note's Markdown body says about the note beyond its words, read line by line
/// outside fenced code blocks (```` ``` ```` or `~~~`, as CommonMark opens and closes them).
public enum MarkdownBody {
    /// The text of the first level-one ATX heading (`# Heading`, up to three spaces before the
    /// `#`, an optional closing run of `#` dropped), trimmed; nil when there is none.
    public static func firstHeading(in body: String) -> String? {
        var body = body
        return body.withUTF8 { bytes in
            var heading: String?
            forEachLine(of: bytes) { line in
                heading = headingText(UnsafeBufferPointer(rebasing: bytes[line]))
                return heading == nil
            }
            return heading
        }
    }

    /// The inline tags of a body, as Obsidian reads them: `#` at the start of a line or after a
    /// space or tab, then letters, digits, `_`, `-` and `/` (not only digits: `#123` is no tag;
    /// a trailing `/` is dropped). Not inside code spans or fenced code blocks, and never a
    /// heading's `#` (a space follows it), a URL's (`/#x`, `page#x`: no space before it) or
    /// one inside an HTML tag (`<span style="color: #ccc">`, over several lines too).
    /// In order of appearance, without `#`, duplicates (ignoring case) dropped.
    public static func inlineTags(in body: String) -> [String] {
        var body = body
        return body.withUTF8 { bytes in
            guard let base = bytes.baseAddress, memchr(base, Int32(UInt8(ascii: "#")), bytes.count) != nil else { return [] }
            var tags: [String] = []
            var seen = Set<String>()
            var inHTMLTag = false
            var previousEnd = 0
            forEachLine(of: bytes) { line in
                // A blank line (or a code block) ends an HTML tag left open, as it ends an HTML block.
                if inHTMLTag, bytes[previousEnd..<line.lowerBound].lazy.filter({ $0 == 0x0A }).count > 1 { inHTMLTag = false }
                previousEnd = line.upperBound
                guard inHTMLTag || memchr(base + line.lowerBound, Int32(UInt8(ascii: "#")), line.count) != nil
                        || memchr(base + line.lowerBound, Int32(UInt8(ascii: "<")), line.count) != nil else { return true }
                for tag in tagsOfLine(bytes, line, inHTMLTag: &inHTMLTag) where seen.insert(tag.lowercased()).inserted {
                    tags.append(tag)
                }
                return true
            }
            return tags
        }
    }

    /// Calls `visit` with the byte range of each line outside fenced code blocks (without its
    /// line ending) until `visit` returns false. With `skipsIndentedCode`, lines of indented
    /// code blocks are skipped too: four spaces (or a tab) after a blank line, outside a list
    /// (an indented line that follows a list item is the item's content), up to the next line
    /// indented less; `start` is where the lines begin (`bytes` before it are not read).
    static func forEachLine(of bytes: UnsafeBufferPointer<UInt8>, from first: Int = 0, skipsIndentedCode: Bool = false,
                            _ visit: (Range<Int>) -> Bool) {
        var fence: (byte: UInt8, length: Int)?
        var start = first
        var previousBlank = true, inIndentedCode = false, inList = false
        guard let base = bytes.baseAddress else { return }
        while start < bytes.count {
            let newline = memchr(base + start, 0x0A, bytes.count - start)
            let end = newline.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? bytes.count
            var line = start..<end
            if end > start, bytes[end - 1] == 0x0D { line = start..<(end - 1) }
            start = end + 1
            if let run = fenceRun(UnsafeBufferPointer(rebasing: bytes[line])) {
                if let open = fence {
                    if run.byte == open.byte, run.length >= open.length, run.isBare { fence = nil }
                } else {
                    fence = (run.byte, run.length)
                }
                previousBlank = false
                inIndentedCode = false
                continue
            }
            if fence != nil { continue }
            if skipsIndentedCode {
                let text = UnsafeBufferPointer(rebasing: bytes[line])
                let blank = text.allSatisfy { $0 == 0x20 || $0 == 0x09 }
                defer { previousBlank = blank }
                if blank { continue }
                let indented = indent(text) == 4 || text.first == 0x09 || (text.count > indent(text) && text[indent(text)] == 0x09)
                if indented && (inIndentedCode || (previousBlank && !inList)) {
                    inIndentedCode = true
                    continue
                }
                inIndentedCode = false
                if !indented { inList = isListItem(text) }
            }
            if line.isEmpty { continue }
            if !visit(line) { return }
        }
    }

    /// Whether a line opens a list item (`-`, `*`, `+` or `1.`/`1)` then a space, up to three
    /// spaces in).
    private static func isListItem(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = indent(line)
        guard index < line.count else { return false }
        let byte = line[index]
        if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "+") {
            return index + 1 == line.count || line[index + 1] == 0x20 || line[index + 1] == 0x09
        }
        let digits = index
        while index < line.count, line[index] >= 0x30, line[index] <= 0x39 { index += 1 }
        guard index > digits, index < line.count, line[index] == UInt8(ascii: ".") || line[index] == UInt8(ascii: ")") else { return false }
        return index + 1 == line.count || line[index + 1] == 0x20 || line[index + 1] == 0x09
    }

    /// Calls `visit` with the byte range of each line a reader reads as text, from `start` (a
    /// body's first byte): outside fenced and indented code blocks, as `LinkExtractor` reads
    /// them; until `visit` returns false.
    public static func forEachReadableLine(of bytes: UnsafeBufferPointer<UInt8>, from start: Int,
                                           _ visit: (Range<Int>) -> Bool) {
        forEachLine(of: bytes, from: start, skipsIndentedCode: true, visit)
    }

    /// The byte ranges of the code spans of one line (`` `code` ``, as `LinkExtractor` and
    /// `inlineTags` skip them), in order.
    public static func codeSpans(in bytes: UnsafeBufferPointer<UInt8>, line: Range<Int>) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        var index = line.lowerBound
        while index < line.upperBound {
            guard bytes[index] == UInt8(ascii: "`") else { index += 1; continue }
            let end = afterCodeSpan(bytes, from: index, end: line.upperBound)
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

    /// A line that opens or closes a fence: up to three spaces, then three or more backticks
    /// or tildes (`isBare`: nothing after them but spaces, as a closing fence must be).
    private static func fenceRun(_ line: UnsafeBufferPointer<UInt8>) -> (byte: UInt8, length: Int, isBare: Bool)? {
        var index = indent(line)
        guard index < 4, index < line.count else { return nil }
        let byte = line[index]
        guard byte == UInt8(ascii: "`") || byte == UInt8(ascii: "~") else { return nil }
        let first = index
        while index < line.count, line[index] == byte { index += 1 }
        guard index - first >= 3 else { return nil }
        return (byte, index - first, line[index...].allSatisfy { $0 == 0x20 || $0 == 0x09 })
    }

    /// The text of a level-one heading line, nil for any other line.
    private static func headingText(_ line: UnsafeBufferPointer<UInt8>) -> String? {
        let start = indent(line)
        guard start < 4, start + 1 < line.count, line[start] == UInt8(ascii: "#"),
              line[start + 1] == 0x20 || line[start + 1] == 0x09 else { return nil }
        var text = String(decoding: UnsafeBufferPointer(rebasing: line[(start + 1)...]), as: UTF8.self)
            .trimmingCharacters(in: .whitespaces)
        // A closing sequence: a space, then only `#` to the end.
        if let lastNonHash = text.lastIndex(where: { $0 != "#" }), lastNonHash < text.index(before: text.endIndex),
           text[lastNonHash] == " " || text[lastNonHash] == "\t" {
            text = String(text[...lastNonHash]).trimmingCharacters(in: .whitespaces)
        }
        return text.isEmpty ? nil : text
    }

    /// The tags of one line (outside code spans and HTML tags; `inHTMLTag`: the line starts
    /// inside an HTML tag that an earlier line opened, and whether the next one does).
    private static func tagsOfLine(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, inHTMLTag: inout Bool) -> [String] {
        var tags: [String] = []
        var index = line.lowerBound
        if inHTMLTag {
            guard let close = UnsafeBufferPointer(rebasing: bytes[line]).firstIndex(of: UInt8(ascii: ">")) else { return [] }
            index += close + 1
            inHTMLTag = false
        }
        while index < line.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: "`") {
                index = afterCodeSpan(bytes, from: index, end: line.upperBound)
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

    /// The index after the code span that opens at `start` (a run of backticks closed by a run
    /// of the same length on the line), or after the run itself when nothing closes it.
    static func afterCodeSpan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> Int {
        var index = start
        while index < end, bytes[index] == UInt8(ascii: "`") { index += 1 }
        let length = index - start
        var search = index
        while search < end {
            guard bytes[search] == UInt8(ascii: "`") else { search += 1; continue }
            let runStart = search
            while search < end, bytes[search] == UInt8(ascii: "`") { search += 1 }
            if search - runStart == length { return search }
        }
        return index
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
