import Foundation

extension LinkExtractor.Scanner {
    /// Reads the wikilinks of front-matter string values: inside quotes (`related: "[[X]]"`,
    /// `- "[[Y]]"`, `["[[A]]", "[[B]]"]`), or inside a plain scalar that does not start with
    /// `[` (`see: the [[X]] note`); never in a comment. Each link names the top-level key whose
    /// value holds it. Front matter without `[[` holds no link and is not read line by line
    /// (`skipsWithoutLinks`; most front matter has a `[` or two, `tags: [a, b]`, and no `[[`).
    mutating func scanFrontMatter(_ content: Range<Int>, skipsWithoutLinks: Bool = true) {
        guard let base = bytes.baseAddress,
              memchr(base + content.lowerBound, Int32(UInt8(ascii: "[")), content.count) != nil else { return }
        if skipsWithoutLinks && !holdsDoubleBracket(content) { return }
        var key: String?
        var start = content.lowerBound
        while start < content.upperBound {
            var end = start
            while end < content.upperBound, bytes[end] != 0x0A { end += 1 }
            var line = start..<end
            if end > start, bytes[end - 1] == 0x0D { line = start..<(end - 1) }
            start = end + 1
            guard !line.isEmpty else { continue }
            let first = bytes[line.lowerBound]
            if first != 0x20, first != 0x09, first != UInt8(ascii: "-"), first != UInt8(ascii: "#"),
               let colon = keyColon(line) {
                key = unquoted(text(trimmed(line.lowerBound..<colon)))
                scanValue(of: line, from: colon + 1, key: key)
            } else if let key {
                scanValue(of: line, from: line.lowerBound, key: key)
            }
        }
    }

    /// Whether `[[` stands somewhere in `content`: every link of front matter starts with one.
    private func holdsDoubleBracket(_ content: Range<Int>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var from = content.lowerBound
        while from < content.upperBound - 1,
              let found = memchr(base + from, Int32(UInt8(ascii: "[")), content.upperBound - 1 - from) {
            let at = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
            if bytes[at + 1] == UInt8(ascii: "[") { return true }
            from = at + 1
        }
        return false
    }

    /// The `:` that ends a top-level key (followed by a space or the line's end), outside quotes.
    private func keyColon(_ line: Range<Int>) -> Int? {
        var quote: UInt8?
        for index in line {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
                continue
            }
            if index == line.lowerBound, byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { quote = byte; continue }
            if byte == UInt8(ascii: ":"), index + 1 == line.upperBound || bytes[index + 1] == 0x20 || bytes[index + 1] == 0x09 {
                return index
            }
        }
        return nil
    }

    private func unquoted(_ key: String) -> String {
        guard key.count >= 2, let first = key.first, first == "\"" || first == "'", key.last == first else { return key }
        return String(key.dropFirst().dropLast())
    }

    /// The wikilinks in the rest of a front-matter line, tracking quotes and stopping at a
    /// comment (` #` outside quotes).
    private mutating func scanValue(of line: Range<Int>, from start: Int, key: String?) {
        guard let key else { return }
        var quote: UInt8?
        var index = start
        // Where the current plain scalar began (nil: none yet on this line).
        var plainStart: Int?
        while index < line.upperBound {
            let byte = bytes[index]
            if let open = quote {
                if byte == UInt8(ascii: "\\"), open == UInt8(ascii: "\"") { index += 2; continue }
                if byte == open { quote = nil; index += 1; continue }
                if byte == UInt8(ascii: "["), index + 1 < line.upperBound, bytes[index + 1] == UInt8(ascii: "["),
                   let after = wikilinkInString(at: index, end: line.upperBound, closing: open, key: key) {
                    index = after
                    continue
                }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                if plainStart == nil { quote = byte }
            case UInt8(ascii: "#"):
                if index == line.lowerBound || bytes[index - 1] == 0x20 || bytes[index - 1] == 0x09 { return }
            case 0x20, 0x09, UInt8(ascii: "-"), UInt8(ascii: ","):
                break
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if let plain = plainStart, index + 1 < line.upperBound, bytes[index + 1] == UInt8(ascii: "["), plain < index,
                   let after = wikilinkInString(at: index, end: line.upperBound, closing: nil, key: key) {
                    index = after
                    continue
                }
            default:
                if plainStart == nil { plainStart = index }
            }
            index += 1
        }
    }

    /// A wikilink at `open` inside a string that `closing` ends (nil: a plain scalar).
    private mutating func wikilinkInString(at open: Int, end: Int, closing: UInt8?, key: String) -> Int? {
        var limit = end
        if let closing, let close = (open..<end).first(where: { bytes[$0] == closing }) { limit = close }
        return wikilink(open: open, start: open, embed: false, end: limit, location: .frontMatter(key: key))
    }
}
