/// Stretches of a Markdown source set aside before cmark-gfm parses it (wikilinks, which
/// CommonMark does not know): each becomes a placeholder — U+E000, its index, U+E001 — that
/// cmark keeps as text, and is found again in the parsed text afterwards.
struct SourcePlaceholders {
    static let start: Unicode.Scalar = "\u{E000}"
    static let end: Unicode.Scalar = "\u{E001}"

    /// The Markdown with the placeholders in it.
    let source: String
    /// For each placeholder, the index of its range in the caller's list and the original text.
    let used: [(index: Int, original: String)]

    /// A piece of a text with placeholders: text, or the placeholder of entry `used[n]`.
    enum Piece: Equatable { case text(String), placeholder(Int) }

    /// Sets aside `ranges` (UTF-8 byte offsets into `markdown`); ranges that overlap an earlier
    /// one, are empty or lie outside the text are left alone.
    init(_ markdown: String, ranges: [Range<Int>]) {
        let bytes = Array(markdown.utf8)
        var used: [(Int, String)] = []
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var position = 0
        for (index, range) in ranges.enumerated().sorted(by: { $0.element.lowerBound < $1.element.lowerBound }) {
            guard range.lowerBound >= position, range.upperBound <= bytes.count, !range.isEmpty else { continue }
            output += bytes[position..<range.lowerBound]
            output += Array("\(Self.start)\(used.count)\(Self.end)".utf8)
            used.append((index, String(decoding: bytes[range], as: UTF8.self)))
            position = range.upperBound
        }
        output += bytes[position...]
        source = String(decoding: output, as: UTF8.self)
        self.used = used
    }

    /// Whether a parsed literal holds a placeholder.
    static func occur(in literal: String) -> Bool { literal.unicodeScalars.contains(start) }

    /// `literal` split at its placeholders (an index past `used` reads as text).
    func pieces(_ literal: String) -> [Piece] {
        var pieces: [Piece] = []
        var text = String.UnicodeScalarView()
        var scalars = literal.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == Self.start else {
                text.append(scalar)
                continue
            }
            var digits = ""
            var closed = false
            while let next = scalars.next() {
                if next == Self.end { closed = true; break }
                digits.unicodeScalars.append(next)
            }
            if closed, let index = Int(digits), index >= 0, index < used.count {
                if !text.isEmpty { pieces.append(.text(String(text))) }
                text = String.UnicodeScalarView()
                pieces.append(.placeholder(index))
            } else {
                text.append(scalar)
                text.append(contentsOf: digits.unicodeScalars)
                if closed { text.append(Self.end) }
            }
        }
        if !text.isEmpty { pieces.append(.text(String(text))) }
        return pieces
    }

    /// `literal` with the original source back in place of its placeholders (code, raw HTML).
    func restored(_ literal: String) -> String {
        pieces(literal).map { piece -> String in
            switch piece {
            case .text(let text): return text
            case .placeholder(let index): return used[index].original
            }
        }.joined()
    }
}
