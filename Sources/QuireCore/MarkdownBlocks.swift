import Foundation

/// The block structure of a Markdown body, line by line, as CommonMark reads it, far enough to
/// tell code from text: block quotes (`>`) and list items (`-`, `*`, `+`, `1.`, `1)`) as
/// containers nested in any order, and inside them fenced code blocks (opened and closed at
/// their container's indentation and quote prefix), indented code blocks (four columns past
/// the container's content), paragraphs with their lazy continuation lines, ATX headings,
/// setext underlines, thematic breaks and raw HTML blocks (CommonMark's seven kinds); and
/// Obsidian's comments, `%%…%%` inline or over several lines, outside code
/// (`MarkdownBlocks+Comments`). Tables and reference definitions read as paragraphs.
///
/// The one reader of code blocks, comments and HTML blocks for everything that scans a body
/// (links, anchors, tags, words, unlinked mentions, snippets, the language server, the renderers'
/// comment hiding), so that they all skip the same lines.
struct MarkdownBlocks {
    /// What one line of a body is.
    enum Kind: Equatable {
        /// Only spaces and tabs after the container marks.
        case blank
        /// Read as text: a paragraph line, an ATX heading, a thematic break.
        case text
        /// A fence line or a line of a fenced or indented code block.
        case code
        /// A line wholly inside a `%%` comment (its marks included).
        case comment
        /// A line of a raw HTML block (`<div>`, `<table>`, `<!-- … -->`): no links or tags.
        case html
        /// The underline of a setext heading (`===`: level 1, `---`: level 2); `heading` holds
        /// the content of each line of the paragraph it turns into the heading.
        case setextUnderline(level: Int, heading: [Range<Int>])
    }

    /// One line of a body.
    struct Line: Equatable {
        /// The whole line, without its line ending.
        var range: Range<Int>
        /// The line after its container marks (`>`, a list item's marker or indentation).
        var content: Range<Int>
        var kind: Kind
        /// The stretches of a `.text` line inside `%%` comments (marks included), in order.
        var hidden: [Range<Int>] = []
    }

    /// Calls `visit` with each line from `first` (a body's first byte) to the end of `bytes`,
    /// until it returns false.
    static func forEachLine(of bytes: UnsafeBufferPointer<UInt8>, from first: Int = 0, _ visit: (Line) -> Bool) {
        guard let base = bytes.baseAddress else { return }
        var reader = MarkdownBlocks(bytes: bytes)
        var start = first
        while start < bytes.count {
            let newline = memchr(base + start, 0x0A, bytes.count - start)
            let end = newline.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? bytes.count
            var line = start..<end
            if end > start, bytes[end - 1] == 0x0D { line = start..<(end - 1) }
            start = end + 1
            if !visit(reader.readWithComments(line)) { return }
        }
    }

    private enum Container {
        case quote
        /// A list item whose content starts `width` columns past its parent's content.
        case item(width: Int)
    }

    enum Leaf {
        case none, paragraph, indentedCode
        case fence(byte: UInt8, length: Int)
        /// A raw HTML block and the line that ends it.
        case html(HTMLBlockEnd)
    }

    /// A position in a line: `index` is the first byte not wholly read, which starts at
    /// `byteColumn`; `column` may stand inside a tab (tab stops every four columns).
    private struct Cursor {
        var index: Int
        var column = 0
        var byteColumn = 0
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private var containers: [Container] = []
    var leaf = Leaf.none
    /// Whether the line read last ended inside a `%%` comment.
    var inComment = false
    /// The content of each line of the open paragraph.
    private var paragraph: [Range<Int>] = []

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Reads the next line (comments aside: `readWithComments`).
    mutating func read(_ line: Range<Int>) -> Line {
        let end = line.upperBound
        // Most lines of prose: outside any container and code, starting with a letter (ASCII or
        // not) — no container mark, fence, indentation, underline, break or heading can start
        // so. A paragraph line, read without the machinery below (it ran for every line of every
        // note in a rebuild).
        if containers.isEmpty, line.lowerBound < end, Self.startsProse(bytes[line.lowerBound]) {
            switch leaf {
            case .none:
                leaf = .paragraph
                paragraph.removeAll(keepingCapacity: true)
                fallthrough
            case .paragraph:
                paragraph.append(line)
                return Line(range: line, content: line, kind: .text)
            case .fence, .indentedCode, .html:
                break
            }
        }
        var cursor = Cursor(index: line.lowerBound)
        var matched = 0
        matching: for container in containers {
            let (width, first) = indentation(cursor, end)
            switch container {
            case .quote:
                guard width < 4, first < end, bytes[first] == UInt8(ascii: ">") else { break matching }
                cursor = afterQuoteMark(advanced(cursor, by: width, end: end), end: end)
            case .item(let itemWidth):
                if first < end {
                    guard width >= itemWidth else { break matching }
                    cursor = advanced(cursor, by: itemWidth, end: end)
                }
            }
            matched += 1
        }
        if matched < containers.count {
            if case .paragraph = leaf, isLazyContinuation(cursor, end: end) {
                paragraph.append(indentation(cursor, end).first..<end)
                return Line(range: line, content: cursor.index..<end, kind: .text)
            }
            containers.removeLast(containers.count - matched)
            closeLeaf()
        }
        switch leaf {
        case .fence(let byte, let length):
            if isClosingFence(cursor, byte: byte, length: length, end: end) { leaf = .none }
            return Line(range: line, content: cursor.index..<end, kind: .code)
        case .indentedCode:
            let (width, first) = indentation(cursor, end)
            if first == end || width >= 4 { return Line(range: line, content: cursor.index..<end, kind: .code) }
            leaf = .none
        case .html(let blockEnd):
            if blockEnd == .blankLine, isBlank(cursor.index, end: end) {
                closeLeaf()
                return Line(range: line, content: cursor.index..<end, kind: .blank)
            }
            if blockEnd != .blankLine, Self.ends(blockEnd, bytes, cursor.index..<end) { leaf = .none }
            return Line(range: line, content: cursor.index..<end, kind: .html)
        case .none, .paragraph:
            break
        }
        cursor = openContainers(cursor, end: end)
        return Line(range: line, content: cursor.index..<end, kind: readLeaf(cursor, end: end))
    }

    /// Whether a line starting with `byte` outside containers and code is a paragraph line: an
    /// ASCII letter, or the first byte of a character beyond ASCII.
    @inline(__always)
    private static func startsProse(_ byte: UInt8) -> Bool {
        byte >= 0x80 || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }

    /// Opens the block quotes and list items that start at `cursor`; the cursor after them.
    private mutating func openContainers(_ start: Cursor, end: Int) -> Cursor {
        var cursor = start
        while true {
            let (width, first) = indentation(cursor, end)
            guard width < 4, first < end else { return cursor }
            if bytes[first] == UInt8(ascii: ">") {
                cursor = afterQuoteMark(advanced(cursor, by: width, end: end), end: end)
                containers.append(.quote)
                closeLeaf()
                continue
            }
            let interrupting: Bool
            if case .paragraph = leaf { interrupting = true } else { interrupting = false }
            guard !isThematicBreak(first, end: end), let marker = listMarker(first, end: end, interrupting: interrupting) else {
                return cursor
            }
            cursor = advanced(cursor, by: width, end: end)
            cursor.index += marker
            cursor.byteColumn += marker
            cursor.column = cursor.byteColumn
            let (spaces, content) = indentation(cursor, end)
            let itemWidth: Int
            if content == end || spaces > 4 {
                // An empty first line, or indented code after the marker: content one column on.
                itemWidth = width + marker + 1
                cursor = advanced(cursor, by: min(spaces, 1), end: end)
            } else {
                itemWidth = width + marker + spaces
                cursor = advanced(cursor, by: spaces, end: end)
            }
            containers.append(.item(width: itemWidth))
            closeLeaf()
        }
    }

    /// The kind of the leaf block a line's content starts or continues, leaf state updated.
    private mutating func readLeaf(_ cursor: Cursor, end: Int) -> Kind {
        let (width, first) = indentation(cursor, end)
        if first == end {
            closeLeaf()
            return .blank
        }
        let inParagraph: Bool
        if case .paragraph = leaf { inParagraph = true } else { inParagraph = false }
        if width >= 4 {
            if inParagraph {
                paragraph.append(first..<end)
                return .text
            }
            leaf = .indentedCode
            return .code
        }
        if let fence = fenceOpener(first, end: end) {
            closeLeaf()
            leaf = .fence(byte: fence.byte, length: fence.length)
            return .code
        }
        if bytes[first] == UInt8(ascii: "<"), let blockEnd = Self.htmlBlockStart(bytes, first..<end, interrupting: inParagraph) {
            closeLeaf()
            if blockEnd == .blankLine || !Self.ends(blockEnd, bytes, first..<end) { leaf = .html(blockEnd) }
            return .html
        }
        if inParagraph, let level = setextLevel(first, end: end) {
            let heading = paragraph
            closeLeaf()
            return .setextUnderline(level: level, heading: heading)
        }
        if isThematicBreak(first, end: end) || Self.atxHeading(bytes, first..<end) != nil {
            closeLeaf()
            return .text
        }
        if !inParagraph {
            leaf = .paragraph
            paragraph.removeAll(keepingCapacity: true)
        }
        paragraph.append(first..<end)
        return .text
    }

    mutating func closeLeaf() {
        leaf = .none
        paragraph.removeAll(keepingCapacity: true)
    }

    /// Whether a line whose containers did not all match continues the open paragraph: it
    /// opens no block (a lazy continuation line, CommonMark 5.1).
    private func isLazyContinuation(_ cursor: Cursor, end: Int) -> Bool {
        let (width, first) = indentation(cursor, end)
        guard first < end else { return false }
        if width >= 4 { return true }
        let byte = bytes[first]
        return byte != UInt8(ascii: ">") && listMarker(first, end: end, interrupting: false) == nil
            && fenceOpener(first, end: end) == nil && !isThematicBreak(first, end: end)
            && Self.atxHeading(bytes, first..<end) == nil
    }

    // MARK: the marks of a line

    /// The columns of spaces and tabs from `cursor` and the index of the first other byte.
    private func indentation(_ cursor: Cursor, _ end: Int) -> (width: Int, first: Int) {
        var index = cursor.index, column = cursor.byteColumn
        while index < end {
            if bytes[index] == 0x20 {
                column += 1
            } else if bytes[index] == 0x09 {
                column = column / 4 * 4 + 4
            } else {
                break
            }
            index += 1
        }
        return (column - cursor.column, index)
    }

    /// `cursor` moved on by `columns` columns of spaces and tabs (a tab may be left part read).
    private func advanced(_ start: Cursor, by columns: Int, end: Int) -> Cursor {
        var cursor = start
        let target = cursor.column + columns
        while cursor.column < target, cursor.index < end {
            let next = bytes[cursor.index] == 0x09 ? cursor.byteColumn / 4 * 4 + 4 : cursor.byteColumn + 1
            if next <= target {
                cursor.index += 1
                cursor.byteColumn = next
                cursor.column = next
            } else {
                cursor.column = target
            }
        }
        return cursor
    }

    /// The cursor after the `>` at `cursor` and the one space or tab column that may follow it.
    private func afterQuoteMark(_ start: Cursor, end: Int) -> Cursor {
        var cursor = start
        cursor.index += 1
        cursor.byteColumn = cursor.column + 1
        cursor.column = cursor.byteColumn
        if cursor.index < end, bytes[cursor.index] == 0x20 || bytes[cursor.index] == 0x09 {
            cursor = advanced(cursor, by: 1, end: end)
        }
        return cursor
    }

    /// The length of the list marker at `first` (`-`, `*`, `+`, or up to nine digits and `.`
    /// or `)`), followed by a space, a tab or the end of the line; nil when there is none or,
    /// `interrupting` a paragraph, when the item is empty or numbered other than 1.
    private func listMarker(_ first: Int, end: Int, interrupting: Bool) -> Int? {
        var index = first
        let byte = bytes[index]
        var startsAtOne = true
        if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "+") {
            index += 1
        } else {
            while index < end, index - first < 9, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            guard index > first, index < end, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ")") else {
                return nil
            }
            startsAtOne = index - first == 1 && bytes[first] == UInt8(ascii: "1")
            index += 1
        }
        guard index == end || bytes[index] == 0x20 || bytes[index] == 0x09 else { return nil }
        if interrupting {
            let empty = !bytes[index..<end].contains { $0 != 0x20 && $0 != 0x09 }
            guard startsAtOne, !empty else { return nil }
        }
        return index - first
    }

    /// A fence that opens a code block at `first`: three or more backticks (then an info
    /// string without backticks) or tildes.
    private func fenceOpener(_ first: Int, end: Int) -> (byte: UInt8, length: Int)? {
        let byte = bytes[first]
        guard byte == UInt8(ascii: "`") || byte == UInt8(ascii: "~") else { return nil }
        var index = first
        while index < end, bytes[index] == byte { index += 1 }
        guard index - first >= 3 else { return nil }
        if byte == UInt8(ascii: "`"), bytes[index..<end].contains(byte) { return nil }
        return (byte, index - first)
    }

    /// Whether the line at `cursor` closes a fence of `length` `byte`s: up to three columns in,
    /// at least as many of the same byte, then only spaces and tabs.
    private func isClosingFence(_ cursor: Cursor, byte: UInt8, length: Int, end: Int) -> Bool {
        let (width, first) = indentation(cursor, end)
        guard width < 4 else { return false }
        var index = first
        while index < end, bytes[index] == byte { index += 1 }
        return index - first >= length && isBlank(index, end: end)
    }

    /// Whether the line from `first` is `***`, `---` or `___` (three or more, spaces between).
    private func isThematicBreak(_ first: Int, end: Int) -> Bool {
        let byte = bytes[first]
        guard byte == UInt8(ascii: "-") || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "_") else { return false }
        var count = 0
        for index in first..<end {
            if bytes[index] == byte { count += 1 } else if bytes[index] != 0x20 && bytes[index] != 0x09 { return false }
        }
        return count >= 3
    }

    /// The level of a setext underline from `first` (a run of `=`: 1, of `-`: 2, then only
    /// spaces and tabs), nil for any other line.
    private func setextLevel(_ first: Int, end: Int) -> Int? {
        let byte = bytes[first]
        guard byte == UInt8(ascii: "=") || byte == UInt8(ascii: "-") else { return nil }
        var index = first
        while index < end, bytes[index] == byte { index += 1 }
        guard isBlank(index, end: end) else { return nil }
        return byte == UInt8(ascii: "=") ? 1 : 2
    }

    func isBlank(_ first: Int, end: Int) -> Bool {
        !bytes[first..<end].contains { $0 != 0x20 && $0 != 0x09 }
    }
}
