import Foundation

extension LinkExtractor.Scanner {
    /// Reads `[label](destination "title")` whose `[` is at `open`; the index after it, nil
    /// when it is no inline link to a file (a URL with a scheme is none).
    ///
    /// Brackets in the label and parentheses in the destination nest at most
    /// `maximumNesting` deep (cmark-gfm's bound on parentheses), and a title that a line cannot
    /// close is searched for once: a long line of unclosed `[a](` is read in linear time.
    mutating func markdownLink(open: Int, start: Int, embed: Bool, end: Int) -> Int? {
        // The label: brackets nest, `\` escapes, a code span is skipped whole.
        var index = open + 1
        var depth = 1
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") { index += 2; continue }
            if byte == UInt8(ascii: "`") { index = codeSpans.after(index); continue }
            if byte == UInt8(ascii: "[") {
                depth += 1
                if depth > Self.maximumNesting { return nil }
            }
            if byte == UInt8(ascii: "]") { depth -= 1; if depth == 0 { break } }
            index += 1
        }
        guard index < end, depth == 0, index + 1 < end, bytes[index + 1] == UInt8(ascii: "(") else { return nil }
        let labelRange = (open + 1)..<index
        index += 2
        while index < end, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        guard index < end else { return nil }
        var destination: Range<Int>
        var angle = false
        if bytes[index] == UInt8(ascii: "<") {
            let first = index + 1
            var close = first
            while close < end, bytes[close] != UInt8(ascii: ">") {
                if bytes[close] == UInt8(ascii: "<") { return nil }
                if bytes[close] == UInt8(ascii: "\\") { close += 1 }
                close += 1
            }
            guard close < end else { return nil }
            destination = first..<close
            angle = true
            index = close + 1
        } else {
            let first = index
            var parens = 0
            while index < end {
                let byte = bytes[index]
                if byte == 0x20 || byte == 0x09 || byte < 0x20 { break }
                if byte == UInt8(ascii: "\\") { index += 2; continue }
                if byte == UInt8(ascii: "(") {
                    parens += 1
                    if parens > Self.maximumNesting { return nil }
                }
                if byte == UInt8(ascii: ")") { if parens == 0 { break }; parens -= 1 }
                index += 1
            }
            destination = first..<min(index, end)
        }
        // An optional title, then `)`.
        while index < end, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        var title: String?
        if index < end, let closing = titleCloser(bytes[index]) {
            let first = index + 1
            if let unclosed = unclosedTitles[closing], unclosed <= first { return nil }
            var close = first
            while close < end, bytes[close] != closing {
                // A title in parentheses holds no unescaped `(` (CommonMark 6.3).
                if closing == UInt8(ascii: ")"), bytes[close] == UInt8(ascii: "(") { return nil }
                if bytes[close] == UInt8(ascii: "\\") { close += 1 }
                close += 1
            }
            guard close < end else {
                unclosedTitles[closing] = first
                return nil
            }
            title = unescaped(text(first..<min(close, end)))
            index = close + 1
            while index < end, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        }
        guard index < end, bytes[index] == UInt8(ascii: ")") else { return nil }
        let after = index + 1
        guard !destination.isEmpty || angle, !isExternal(destination) else { return after }
        var fragmentRange: Range<Int>?
        if let hash = destination.first(where: { bytes[$0] == UInt8(ascii: "#") }) {
            fragmentRange = hash..<destination.upperBound
            destination = destination.lowerBound..<hash
        }
        if destination.isEmpty && (fragmentRange?.count ?? 0) <= 1 { return after }
        let rawTarget = text(destination)
        var heading: String?, blockID: String?
        if let fragment = fragmentRange, fragment.count > 1 {
            let decoded = Self.decoded(text((fragment.lowerBound + 1)..<fragment.upperBound))
            if decoded.hasPrefix("^") { blockID = String(decoded.dropFirst()) } else { heading = decoded }
        }
        let (line, column) = position(of: start)
        links.append(NoteLink(style: .markdown, isEmbed: embed, location: .body, rawTarget: rawTarget,
                              target: Self.decoded(unescaped(rawTarget)), heading: heading, blockID: blockID,
                              label: text(labelRange), title: title, isAngleBracketed: angle,
                              range: start..<after, targetRange: destination, fragmentRange: fragmentRange,
                              labelRange: labelRange, line: line, column: column))
        return after
    }

    /// How deep brackets in a label and parentheses in a destination may nest.
    static let maximumNesting = 32

    private func titleCloser(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "\""): return UInt8(ascii: "\"")
        case UInt8(ascii: "'"): return UInt8(ascii: "'")
        case UInt8(ascii: "("): return UInt8(ascii: ")")
        default: return nil
        }
    }

    /// Whether a destination is a URL (`scheme:` of two or more letters: `https:`, `mailto:`,
    /// `obsidian:`) or starts with `//`; a Windows drive letter (`C:`) is no scheme.
    private func isExternal(_ destination: Range<Int>) -> Bool {
        if destination.count >= 2, bytes[destination.lowerBound] == UInt8(ascii: "/"),
           bytes[destination.lowerBound + 1] == UInt8(ascii: "/") { return true }
        var index = destination.lowerBound
        while index < destination.upperBound {
            let byte = bytes[index]
            let isLetter = (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
            let isSchemeByte = isLetter || (index > destination.lowerBound
                && ((byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".")))
            if byte == UInt8(ascii: ":") { return index - destination.lowerBound >= 2 }
            guard isSchemeByte else { return false }
            index += 1
        }
        return false
    }

    /// Backslash escapes of ASCII punctuation removed (`\(` → `(`).
    private func unescaped(_ text: String) -> String {
        // Byte by byte: `contains` of a string is Foundation's search, tens of times slower.
        guard text.utf8.contains(UInt8(ascii: "\\")) else { return text }
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                if !(character.isASCII && character.isPunctuation || character.isASCII && character.isSymbol) { result.append("\\") }
                result.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        if escaping { result.append("\\") }
        return result
    }

    /// Percent-encoding decoded (`My%20Note.md` → `My Note.md`); text that does not decode to
    /// UTF-8 stays as written.
    static func decoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        return text.removingPercentEncoding ?? text
    }

    // MARK: anchors

    /// Records the heading (`#` to `######`, its text up to a `%%` comment) or block id (`^id`
    /// ending the line's last stretch outside comments) of a line.
    mutating func readAnchors(_ block: MarkdownBlocks.Line) {
        let line = block.beforeComments
        let start = line.lowerBound + MarkdownBody.indent(UnsafeBufferPointer(rebasing: bytes[line]))
        if start - line.lowerBound < 4, let heading = MarkdownBlocks.atxHeading(bytes, start..<line.upperBound) {
            if !heading.text.isEmpty { anchors.headings.append(text(heading.text)) }
            return
        }
        var last = block.range
        _ = block.forEachVisible { stretch in
            if !trimmed(stretch).isEmpty { last = stretch }
            return true
        }
        // `… ^block-id` at the end of the line (or alone on it), after a space or right after
        // an embed or link (`![[x.png]]^block-id`, `![x](x.png)^id`), as Obsidian accepts it.
        let content = trimmed(last)
        var caret = content.upperBound
        while caret > content.lowerBound, isBlockIDByte(bytes[caret - 1]) { caret -= 1 }
        guard caret > content.lowerBound, caret < content.upperBound, bytes[caret - 1] == UInt8(ascii: "^") else { return }
        let before = caret - 1 == content.lowerBound ? nil : bytes[caret - 2]
        guard before == nil || before == 0x20 || before == 0x09 || before == UInt8(ascii: "]") || before == UInt8(ascii: ")") else {
            return
        }
        anchors.blockIDs.append(text(caret..<content.upperBound))
    }

    private func isBlockIDByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) || byte == UInt8(ascii: "-")
    }
}
