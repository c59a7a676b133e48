import Foundation

/// What `LinkExtractor` finds in a note file: its links, in file order, and the headings and
/// block ids other notes' links can point at.
public struct LinkScan: Sendable, Equatable {
    /// Every link, front matter first, then the body, in order of appearance.
    public var links: [NoteLink]
    /// The body's headings and block ids.
    public var anchors: NoteAnchors

    /// Creates a scan result.
    public init(links: [NoteLink] = [], anchors: NoteAnchors = NoteAnchors()) {
        self.links = links
        self.anchors = anchors
    }
}

/// Finds the links of a note file, as Obsidian reads them (see Docs/links.md):
///
/// - Body: `[[target]]`, `[[target|label]]` (`\|` inside a table), `[[target#heading]]`,
///   `[[target#^block]]`, `![[embed]]`; Markdown links and images `[label](path)`,
///   `[label](<path with spaces>)`, `[label](path "title")` whose destination is a relative or
///   vault path (URLs with a scheme, `//host` and `mailto:` are not links between files).
///   Nothing inside code spans, fenced or indented code blocks, raw HTML blocks or `%%`
///   comments (the lines and stretches `MarkdownBlocks` sets aside), and nothing escaped with
///   `\`.
/// - Front matter: wikilinks inside string values, e.g. `related: "[[X]]"` or a list of such
///   (quoted, as YAML needs: an unquoted `[[X]]` is a nested list, not a link). YAML comments
///   are not read.
///
/// Never throws or crashes; safe from several threads.
public enum LinkExtractor {
    /// The links and anchors of a whole note file.
    public static func scan(_ data: Data) -> LinkScan {
        data.withUnsafeBytes { raw in scan(raw.bindMemory(to: UInt8.self)) }
    }

    /// The links and anchors of a whole note file given as text.
    public static func scan(text: String) -> LinkScan {
        var text = text
        return text.withUTF8 { scan($0) }
    }

    /// The links of a whole note file, in file order.
    public static func links(in data: Data) -> [NoteLink] {
        scan(data).links
    }

    /// The links and anchors of a whole note file's bytes.
    public static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> LinkScan {
        guard let base = bytes.baseAddress, memchr(base, 0, bytes.count) == nil else { return LinkScan() }
        var walk = Walk(bytes: bytes, layout: FrontMatterLayout.split(bytes))
        if walk.readsBody {
            MarkdownBlocks.forEachLine(of: bytes, from: walk.bodyStart) { walk.read($0); return true }
        }
        return walk.scan
    }

    /// The links and anchors of one note file, its body given line by line: the front matter
    /// is read when the walk is made, then `read` takes each body line `MarkdownBlocks` gives
    /// from `bodyStart` on, so that one pass over a body can feed other readers too
    /// (`NoteParser` counts words and reads tags in the same pass).
    struct Walk {
        private var scanner: Scanner
        /// Whether the body holds a byte that can start a link, an anchor or a setext heading:
        /// when not, `read` learns nothing and a caller may skip the body's lines.
        let readsBody: Bool
        /// Where the body starts.
        let bodyStart: Int
        private let hasBracket: Bool
        private let hasAnchor: Bool

        /// Reads the front matter of `bytes` (a whole file without NUL bytes, split as `layout`).
        init(bytes: UnsafeBufferPointer<UInt8>, layout: FrontMatterLayout) {
            scanner = Scanner(bytes: bytes)
            bodyStart = layout.bodyStart
            if layout.format == .yaml, layout.contentEnd - layout.contentStart <= NoteParser.maxFrontMatterBytes {
                scanner.scanFrontMatter(layout.contentStart..<layout.contentEnd)
            }
            func holds(_ byte: Unicode.Scalar) -> Bool {
                guard let base = bytes.baseAddress else { return false }
                return memchr(base + layout.bodyStart, Int32(byte.value), bytes.count - layout.bodyStart) != nil
            }
            hasBracket = holds("[")
            hasAnchor = holds("#") || holds("^")
            readsBody = hasBracket || hasAnchor || holds("=") || holds("-")
        }

        /// Reads one body line (in order, from `bodyStart`).
        mutating func read(_ block: MarkdownBlocks.Line) {
            guard readsBody else { return }
            if case .setextUnderline(_, let heading) = block.kind {
                scanner.anchors.headings.append(MarkdownBlocks.setextText(scanner.bytes, heading))
            }
            guard block.isRead, !block.range.isEmpty else { return }
            if hasAnchor { scanner.readAnchors(block) }
            if hasBracket { _ = block.forEachVisible { scanner.scanBodyLine($0); return true } }
        }

        /// The links and anchors read so far.
        var scan: LinkScan {
            LinkScan(links: scanner.links, anchors: scanner.anchors)
        }
    }

    /// Reads links out of lines, keeping count of line numbers.
    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var links: [NoteLink] = []
        var anchors = NoteAnchors()
        /// The code spans of the line being read.
        var codeSpans: CodeSpanReader
        /// For each byte that closes a link title (`"`, `'`, `)`), the offset on the line being
        /// read from which no such byte follows (a title opened there is never closed).
        var unclosedTitles: [UInt8: Int] = [:]
        /// The line counted so far and the byte where it starts.
        private var lineNumber = 1
        private var lineStart = 0
        private var counted = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            codeSpans = CodeSpanReader(bytes, line: 0..<0)
        }

        /// The 1-based line and column of `offset` (offsets are asked in increasing order).
        mutating func position(of offset: Int) -> (line: Int, column: Int) {
            guard counted < offset, let base = bytes.baseAddress else { return (lineNumber, offset - lineStart + 1) }
            // Line ends found by `memchr`, not byte by byte: most of a link-heavy note lies between links.
            while let found = memchr(base + counted, 0x0A, offset - counted) {
                lineNumber += 1
                counted = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base + 1
                lineStart = counted
            }
            counted = offset
            return (lineNumber, offset - lineStart + 1)
        }

        func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }

        // MARK: body

        /// The links of one body line (outside code spans; `\` escapes the next byte).
        mutating func scanBodyLine(_ line: Range<Int>) {
            var index = line.lowerBound
            let end = line.upperBound
            codeSpans = CodeSpanReader(bytes, line: line)
            if !unclosedTitles.isEmpty { unclosedTitles.removeAll(keepingCapacity: true) }
            while index < end {
                // Only these three bytes stop the scan: found eight bytes at a time.
                index = ASCIIChunk.firstIndex(of: UInt8(ascii: "`"), UInt8(ascii: "\\"), UInt8(ascii: "["), in: bytes,
                                              from: index, end: end)
                guard index < end else { break }
                let byte = bytes[index]
                if byte == UInt8(ascii: "`") {
                    index = codeSpans.after(index)
                    continue
                }
                if byte == UInt8(ascii: "\\") { index += 2; continue }
                guard byte == UInt8(ascii: "[") else { index += 1; continue }
                let embed = index > line.lowerBound && bytes[index - 1] == UInt8(ascii: "!")
                    && !(index - 1 > line.lowerBound && bytes[index - 2] == UInt8(ascii: "\\"))
                let start = embed ? index - 1 : index
                if index + 1 < end, bytes[index + 1] == UInt8(ascii: "[") {
                    if let after = wikilink(open: index, start: start, embed: embed, end: end, location: .body) {
                        index = after
                    } else {
                        index += 2
                    }
                    continue
                }
                if let after = markdownLink(open: index, start: start, embed: embed, end: end) {
                    index = after
                } else {
                    index += 1
                }
            }
        }

        /// Reads `[[…]]` whose first `[` is at `open`; the index after it, nil when no `]]`
        /// closes it on the line (or it is empty).
        mutating func wikilink(open: Int, start: Int, embed: Bool, end: Int, location: NoteLink.Location) -> Int? {
            let contentStart = open + 2
            var close = contentStart
            // The first `]]` (a `[[` before it: none), looking only at brackets, eight bytes at a time.
            while true {
                close = ASCIIChunk.firstIndex(of: UInt8(ascii: "]"), UInt8(ascii: "["), UInt8(ascii: "["), in: bytes,
                                              from: close, end: end - 1)
                guard close + 1 < end, bytes[close + 1] != bytes[close] else {
                    if close + 1 < end, bytes[close] == UInt8(ascii: "[") { return nil }
                    break
                }
                close += 1
            }
            guard close + 1 < end, close > contentStart else { return nil }
            var targetEnd = close
            var labelRange: Range<Int>?
            if let pipe = (contentStart..<close).first(where: { bytes[$0] == UInt8(ascii: "|") }) {
                targetEnd = pipe > contentStart && bytes[pipe - 1] == UInt8(ascii: "\\") ? pipe - 1 : pipe
                labelRange = (pipe + 1)..<close
            }
            var fragmentRange: Range<Int>?
            if let hash = (contentStart..<targetEnd).first(where: { bytes[$0] == UInt8(ascii: "#") }) {
                fragmentRange = hash..<targetEnd
                targetEnd = hash
            }
            let targetRange = trimmed(contentStart..<targetEnd)
            let target = text(targetRange)
            var heading: String?, blockID: String?
            if let fragment = fragmentRange {
                let after = fragment.lowerBound + 1
                if after < fragment.upperBound, bytes[after] == UInt8(ascii: "^") {
                    blockID = text(trimmed((after + 1)..<fragment.upperBound))
                } else {
                    heading = text(trimmed(after..<fragment.upperBound))
                }
            }
            if target.isEmpty && heading.map({ $0.isEmpty }) ?? true && blockID.map({ $0.isEmpty }) ?? true { return nil }
            let (line, column) = position(of: start)
            links.append(NoteLink(style: .wiki, isEmbed: embed, location: location, rawTarget: target, target: target,
                                  heading: heading.flatMap { $0.isEmpty ? nil : $0 },
                                  blockID: blockID.flatMap { $0.isEmpty ? nil : $0 },
                                  label: labelRange.map { text($0) }, range: start..<(close + 2),
                                  targetRange: targetRange, fragmentRange: fragmentRange, labelRange: labelRange,
                                  line: line, column: column))
            return close + 2
        }

        /// `range` without spaces and tabs at either end.
        func trimmed(_ range: Range<Int>) -> Range<Int> {
            var lower = range.lowerBound, upper = range.upperBound
            while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
            while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
            return lower..<upper
        }
    }
}
