import Foundation

/// Obsidian's comments: `%%` opens one and the next `%%` closes it, on the same line (inline)
/// or lines later (a block); outside code spans and code blocks. What they hold is no link,
/// tag, heading or block id for quire, and the renderers leave it out.
extension MarkdownBlocks {
    /// Reads the next line with its comments: a line wholly inside one is `.comment`, and the
    /// commented stretches of a text line are its `hidden` ranges (a text line that holds
    /// nothing else becomes `.comment` too and ends the paragraph before it).
    mutating func readWithComments(_ line: Range<Int>) -> Line {
        var hidden: [Range<Int>] = []
        var from = line.lowerBound
        if inComment {
            guard let close = Self.commentMark(bytes, from: line.lowerBound, end: line.upperBound) else {
                return Line(range: line, content: line, kind: .comment)
            }
            inComment = false
            hidden.append(line.lowerBound..<(close + 2))
            from = close + 2
        }
        var read = read(line)
        guard read.kind == .text else { return read }
        if let base = bytes.baseAddress, from < line.upperBound,
           memchr(base + from, Int32(UInt8(ascii: "%")), line.upperBound - from) != nil {
            hideComments(from: from, line: line, into: &hidden)
        }
        guard !hidden.isEmpty else { return read }
        read.hidden = hidden
        // Nothing but container marks (`>`, a list item's indentation) outside the comments.
        let content = read.content.lowerBound
        if read.forEachVisible({ $0.upperBound <= content || isBlank(max($0.lowerBound, content), end: $0.upperBound) }) {
            read.kind = .comment
            closeLeaf()
        }
        return read
    }

    /// Adds the comments of a text line from `from` on to `hidden` (code spans skipped); one
    /// left open hides the rest of the line and the lines after it.
    private mutating func hideComments(from: Int, line: Range<Int>, into hidden: inout [Range<Int>]) {
        var spans = CodeSpanReader(bytes, line: line)
        var index = from
        var open: Int?
        while index + 1 < line.upperBound {
            let byte = bytes[index]
            if open == nil, byte == UInt8(ascii: "`") {
                index = spans.after(index)
                continue
            }
            if byte == UInt8(ascii: "%"), bytes[index + 1] == UInt8(ascii: "%") {
                if let start = open {
                    hidden.append(start..<(index + 2))
                    open = nil
                } else {
                    open = index
                }
                index += 2
                continue
            }
            index += 1
        }
        if let start = open {
            hidden.append(start..<line.upperBound)
            inComment = true
        }
    }

    /// The index of the first `%%` from `from` before `end`, nil when there is none.
    private static func commentMark(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int? {
        var index = from
        while index + 1 < end {
            if bytes[index] == UInt8(ascii: "%"), bytes[index + 1] == UInt8(ascii: "%") { return index }
            index += 1
        }
        return nil
    }

    /// The byte ranges of a body's comments, in order and not overlapping: each line wholly
    /// inside a block comment with its line ending, and each inline stretch `%%…%%`. What the
    /// renderers leave out (`MarkdownBody.commentRanges`).
    static func commentRanges(_ bytes: UnsafeBufferPointer<UInt8>, from first: Int) -> [Range<Int>] {
        guard let base = bytes.baseAddress, first < bytes.count,
              memchr(base + first, Int32(UInt8(ascii: "%")), bytes.count - first) != nil else { return [] }
        var ranges: [Range<Int>] = []
        func add(_ range: Range<Int>) {
            if let last = ranges.last, last.upperBound >= range.lowerBound {
                ranges[ranges.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                ranges.append(range)
            }
        }
        forEachLine(of: bytes, from: first) { line in
            if line.kind == .comment {
                var end = line.range.upperBound
                while end < bytes.count, bytes[end] == 0x0D || bytes[end] == 0x0A {
                    end += 1
                    if bytes[end - 1] == 0x0A { break }
                }
                add(line.range.lowerBound..<end)
            } else {
                for stretch in line.hidden { add(stretch) }
            }
            return true
        }
        return ranges
    }
}

extension MarkdownBlocks.Line {
    /// Whether the line is read for links, anchors and tags (text or a setext underline).
    var isRead: Bool {
        switch kind {
        case .text, .setextUnderline: return true
        case .blank, .code, .comment, .html: return false
        }
    }

    /// The line up to its first comment: where a heading's marks and text are read.
    var beforeComments: Range<Int> {
        range.lowerBound..<(hidden.first?.lowerBound ?? range.upperBound)
    }

    /// Calls `visit` with each stretch of the line outside comments (the whole line when it
    /// has none; none empty), until it returns false; whether it never did.
    func forEachVisible(_ visit: (Range<Int>) -> Bool) -> Bool {
        guard !hidden.isEmpty else { return range.isEmpty || visit(range) }
        var start = range.lowerBound
        for stretch in hidden {
            if stretch.lowerBound > start, !visit(start..<stretch.lowerBound) { return false }
            start = stretch.upperBound
        }
        return start >= range.upperBound || visit(start..<range.upperBound)
    }
}
