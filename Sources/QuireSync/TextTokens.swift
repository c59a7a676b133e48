import Foundation

/// A text cut into the tokens a merge inside a line works on (Docs/sync.md, "The body"): runs of
/// letters and digits (a word) — joined through `-`, `_`, `.`, `/`, `:`, `@`, `'`, `’`, `+` and
/// `#` when a letter or digit follows, so that `BETA-A`, `2026-12-06`, `notes/plan.md`, `don't`
/// and an address stay one token and a merge never mixes two of them — runs of spaces and tabs,
/// each line break, and each other character on its own (punctuation, symbols, emoji). Scripts written without spaces between
/// words — Chinese, Japanese, Korean, Thai, Lao, Khmer, Burmese — are cut into characters, so an
/// edit of one word there is an edit of its characters. Combining marks stay with the character
/// they follow. Bytes that are not UTF-8 are tokens of one byte. The tokens cover the text
/// exactly: joined, they give its bytes back.
struct TextTokens {
    /// The text's bytes.
    let bytes: [UInt8]
    /// Each token's byte range, in order, covering `bytes`.
    let ranges: [Range<Int>]

    private enum Kind: Equatable { case word, space, lineBreak, single, mark }

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var ranges: [Range<Int>] = []
        var index = 0
        var current: (start: Int, kind: Kind)?
        func close(at end: Int) {
            if let open = current { ranges.append(open.start..<end) }
            current = nil
        }
        while index < bytes.count {
            let (scalar, length) = Self.scalar(in: bytes, at: index)
            var kind = scalar.map(Self.kind) ?? .single
            if kind == .single, current?.kind == .word, let scalar, Self.connectors.contains(scalar.value),
               index + length < bytes.count, let next = Self.scalar(in: bytes, at: index + length).0, Self.kind(next) == .word {
                kind = .word
            }
            switch kind {
            case .word, .space:
                if current?.kind != kind { close(at: index); current = (index, kind) }
            case .mark:
                // A combining mark extends the token before it (or stands alone at the start).
                if current == nil { current = (index, .single) }
            case .lineBreak:
                close(at: index)
                // `\r\n` is one line break.
                let end = bytes[index] == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A ? index + 2 : index + length
                ranges.append(index..<end)
                index = end
                continue
            case .single:
                close(at: index)
                current = (index, .single)
            }
            index += length
        }
        close(at: bytes.count)
        self.ranges = ranges
    }

    /// The token at `index` as bytes.
    subscript(index: Int) -> ArraySlice<UInt8> { bytes[ranges[index]] }

    /// Whether token `index` is a line break.
    func isLineBreak(_ index: Int) -> Bool {
        let first = bytes[ranges[index].lowerBound]
        return first == 0x0A || (first == 0x0D && ranges[index].count <= 2)
    }

    /// Whether token `index` holds a letter or a digit (not only spaces, breaks and punctuation).
    func isWord(_ index: Int) -> Bool {
        let first = bytes[ranges[index].lowerBound]
        if first < 0x80 { return (0x30...0x39).contains(first) || (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first) }
        let (scalar, _) = Self.scalar(in: bytes, at: ranges[index].lowerBound)
        guard let scalar else { return false }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    /// Characters that join two words into one token (`-`, `_`, `.`, `/`, `:`, `@`, `'`, `’`, `+`, `#`).
    private static let connectors: Set<UInt32> = [0x2D, 0x5F, 0x2E, 0x2F, 0x3A, 0x40, 0x27, 0x2019, 0x2B, 0x23]

    private static func kind(_ scalar: Unicode.Scalar) -> Kind {
        switch scalar.value {
        case 0x0A, 0x0D: return .lineBreak
        case 0x20, 0x09: return .space
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F: return .word  // ASCII letters, digits, `_`
        case 0x00...0x7F: return .single  // other ASCII: punctuation, symbols, controls
        default: break
        }
        let properties = scalar.properties
        if properties.generalCategory == .nonspacingMark || properties.generalCategory == .spacingMark
            || properties.generalCategory == .enclosingMark || scalar.value == 0x200D || (0xFE00...0xFE0F).contains(scalar.value) {
            return .mark
        }
        if properties.isWhitespace { return .space }
        if isUnspacedScript(scalar.value) { return .single }
        if properties.isAlphabetic || properties.numericType != nil || scalar == "_" { return .word }
        return .single
    }

    /// Scripts written without spaces between words: each character is a token.
    private static func isUnspacedScript(_ value: UInt32) -> Bool {
        switch value {
        case 0x0E00...0x0EFF,  // Thai, Lao
             0x1000...0x109F,  // Myanmar
             0x1780...0x17FF,  // Khmer
             0x1100...0x11FF, 0xAC00...0xD7AF,  // Hangul
             0x2E80...0x2FFF, 0x3000...0x30FF, 0x3100...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xF900...0xFAFF, 0xFF00...0xFFEF, 0x20000...0x3FFFF:  // CJK, kana, full-width forms
            return true
        default:
            return false
        }
    }

    /// The Unicode scalar starting at `index` and its length in bytes; nil (length 1) where the
    /// bytes are not UTF-8.
    private static func scalar(in bytes: [UInt8], at index: Int) -> (Unicode.Scalar?, Int) {
        let lead = bytes[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int, initial: UInt32
        switch lead {
        case 0xC2...0xDF: (length, initial) = (2, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, initial) = (3, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, initial) = (4, UInt32(lead & 0x07))
        default: return (nil, 1)
        }
        guard index + length <= bytes.count else { return (nil, 1) }
        var value = initial
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return (nil, 1) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return (nil, 1) }
        return (scalar, length)
    }
}
