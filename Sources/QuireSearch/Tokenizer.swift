import Foundation
import QuireCore

/// One searchable token of a text: its folded term and where it stands in the source.
public struct Token: Equatable, Sendable {
    /// The folded term: lowercased, without diacritics ("Café" → "cafe").
    public var term: String
    /// The token's position in the source, as UTF-8 byte offsets.
    public var utf8Range: Range<Int>
    /// Whether this token is a single CJK character or symbol (an emoji, `€`, `→`), kept as
    /// it is written.
    public var isCJK: Bool

    /// Creates a token.
    public init(term: String, utf8Range: Range<Int>, isCJK: Bool) {
        self.term = term
        self.utf8Range = utf8Range
        self.isCJK = isCJK
    }
}

/// Splits text into searchable tokens: runs of letters and digits (combining marks stay with
/// their letter), folded to lowercase without diacritics; each CJK character (Han, kana,
/// Hangul) and each symbol outside ASCII (an emoji, `€`, `→`, `©`) is a token of its own, so
/// any run of them is findable as a phrase. A word ending in an ASCII letter keeps a `+`,
/// `++` or `#` right after it when a space or punctuation follows (`C++`, `C#`, `F#`), and a
/// word starting with an ASCII letter keeps a `.` right before it when that dot begins a word
/// (`.NET`, `.gitignore`, `~/.config`; not `file.md` nor `end.Next`): the token `.net`.
/// An emoji variation selector (U+FE0F) starts no token, and a zero-width joiner ends one, so
/// "❤️" is the token "❤" and "👨‍👩‍👧" three tokens. Thai, Lao, Khmer and Burmese, written
/// without spaces between words, are split into words by ICU's dictionary word breaks.
public enum Tokenizer {
    /// The tokens of `text`, in order, with their UTF-8 ranges.
    public static func tokens(in text: String) -> [Token] {
        var result: [Token] = []
        var folded: [UInt8] = []
        scan(text) { bytes, range, isASCII, isCJK in
            folded.removeAll(keepingCapacity: true)
            appendFolded(bytes, isASCII: isASCII, isCJK: isCJK, to: &folded)
            result.append(Token(term: String(decoding: folded, as: UTF8.self), utf8Range: range, isCJK: isCJK))
        }
        return result
    }

    /// The folded terms of `text`, in order (no positions).
    public static func terms(in text: String) -> [String] {
        tokens(in: text).map(\.term)
    }

    /// The folded tokens of `text` joined by single spaces ("Toy Story 5!" → "toy story 5"):
    /// how a title or an alias is compared with the words of a query.
    public static func foldedPhrase(_ text: String) -> String {
        var folded: [UInt8] = []
        scan(text) { bytes, _, isASCII, isCJK in
            if !folded.isEmpty { folded.append(0x20) }
            appendFolded(bytes, isASCII: isASCII, isCJK: isCJK, to: &folded)
        }
        return String(decoding: folded, as: UTF8.self)
    }

    /// Folds one word the way tokens are folded: lowercase, no diacritics.
    public static func fold(_ word: String) -> String {
        if word.utf8.allSatisfy({ $0 < 0x80 }) { return word.lowercased() }
        return word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// Appends the folded UTF-8 bytes of one token: ASCII lowercased in place, CJK characters
    /// and symbols as they are, anything else lowercased without diacritics.
    @inline(__always)
    static func appendFolded(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool, isCJK: Bool,
                             to output: inout [UInt8]) {
        if isASCII {
            for byte in bytes { output.append((byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte) }
        } else if isCJK {
            output.append(contentsOf: bytes)
        } else if !LatinFolding.appendFolded(bytes, to: &output) {
            let word = String(decoding: bytes, as: UTF8.self)
            output.append(contentsOf: word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).utf8)
        }
    }

    /// Calls `emit` for every token of `text` with its bytes, UTF-8 range, whether it is pure
    /// ASCII and whether it is a CJK character or symbol. `eightAtATime`: runs of eight ASCII
    /// bytes are scanned at once (the same tokens; tests compare both ways).
    static func scan(_ text: String, eightAtATime: Bool = true,
                     _ emit: (UnsafeBufferPointer<UInt8>, Range<Int>, Bool, Bool) -> Void) {
        var text = text
        text.withUTF8 { buffer in
            let count = buffer.count
            var index = 0
            var start = -1
            var ascii = true
            // A word ends at `end`; it takes a `C++` / `C#` suffix along (bytes the scan skips
            // anyway: `+` and `#` start no word). Inlined where a word ends: a call fewer a word.
            @inline(__always)
            func emitWord(_ first: Int, _ end: Int, _ ascii: Bool) {
                let last = suffixEnd(buffer, word: first..<end)
                let begin = dotPrefixStart(buffer, word: first)
                emit(UnsafeBufferPointer(rebasing: buffer[begin..<last]), begin..<last, ascii, false)
            }
            while index < count {
                if eightAtATime && index &+ 8 <= count, let base = buffer.baseAddress {
                    let chunk = ASCIIChunk.load(base + index)
                    // All eight bytes ASCII, else those before the first other one (which the
                    // byte loop then reads).
                    let asciiCount = ASCIIChunk.isASCII(chunk) ? 8 : ASCIIChunk.asciiPrefix(chunk)
                    if asciiCount > 0 {
                        scanASCII(asciiCount == 8 ? chunk : ASCIIChunk.prefix(chunk, asciiCount), bytes: asciiCount,
                                  at: index, start: &start, ascii: &ascii, emitWord)
                        index &+= asciiCount
                        if asciiCount == 8 { continue }
                    }
                }
                let byte = buffer[index]
                if byte < 0x80 {
                    if isASCIIWordByte(byte) {
                        if start < 0 { start = index; ascii = true }
                    } else if start >= 0 {
                        emitWord(start, index, ascii)
                        start = -1
                    }
                    index += 1
                    continue
                }
                let (scalar, length) = decode(buffer, at: index)
                if isUnspacedScript(scalar.value) {
                    // Thai, Lao, Khmer, Burmese: words are found by ICU's dictionary breaks.
                    if start >= 0 {
                        emitWord(start, index, ascii)
                        start = -1
                    }
                    let runEnd = unspacedRunEnd(buffer, from: index)
                    wordBreaks(buffer, run: index..<runEnd) { emit(UnsafeBufferPointer(rebasing: buffer[$0]), $0, false, false) }
                    index = runEnd
                    continue
                }
                let end = min(index + length, count)
                switch classify(scalar) {
                case .single:
                    if start >= 0 {
                        emitWord(start, index, ascii)
                        start = -1
                    }
                    emit(UnsafeBufferPointer(rebasing: buffer[index..<end]), index..<end, false, true)
                case .word:
                    if start < 0 { start = index }
                    ascii = false
                case .joining:
                    // Part of the word it follows; starts none.
                    if start >= 0 { ascii = false }
                case .separator:
                    if start >= 0 {
                        emitWord(start, index, ascii)
                        start = -1
                    }
                }
                index = end
            }
            if start >= 0 {
                emitWord(start, count, ascii)
            }
        }
    }

    /// Scans the first `bytes` (1 to 8) ASCII bytes of `chunk`, at `index`, as the byte loop
    /// would: a word starts at a letter or digit when none is open (`start` < 0) and ends,
    /// emitted, at any other byte.
    @inline(__always)
    private static func scanASCII(_ chunk: UInt64, bytes: Int, at index: Int, start: inout Int, ascii: inout Bool,
                                  _ emit: (Int, Int, Bool) -> Void) {
        let word = ASCIIChunk.wordBytes(chunk)
        var rest = bytes == 8 ? ~0 : ASCIIChunk.prefix(~0, bytes)  // the bytes not looked at yet
        while true {
            if start < 0 {
                let next = word & rest
                if next == 0 { return }
                let offset = next.trailingZeroBitCount >> 3
                start = index &+ offset
                ascii = true
                rest &= ~0 &<< UInt64(offset &* 8)  // from `offset` on (that byte is settled)
            } else {
                let next = ~word & ASCIIChunk.highBits & rest
                if next == 0 { return }
                let offset = next.trailingZeroBitCount >> 3
                emit(start, index &+ offset, ascii)
                start = -1
                rest &= ~0 &<< UInt64(offset &* 8)  // from `offset` on (that byte is settled)
            }
        }
    }

    /// The end of a word at `word` with its `+`, `++` or `#` suffix, if it has one: the word
    /// ends in an ASCII letter, and the end of the text, white space or punctuation that ends
    /// a word in prose (`.,;:!?)]}>'"/*_`|-`) follows the suffix.
    @inline(__always)
    private static func suffixEnd(_ buffer: UnsafeBufferPointer<UInt8>, word: Range<Int>) -> Int {
        let end = word.upperBound
        guard end < buffer.count, buffer[end] == 0x2B || buffer[end] == 0x23 else { return end }
        let lastLetter = buffer[end - 1] | 0x20
        guard lastLetter >= 0x61 && lastLetter <= 0x7A else { return end }
        var last = end + 1
        if buffer[end] == 0x2B, last < buffer.count, buffer[last] == 0x2B { last += 1 }
        guard last < buffer.count else { return last }
        switch buffer[last] {
        case 0x20, 0x09, 0x0A, 0x0D, 0x2E, 0x2C, 0x3B, 0x3A, 0x21, 0x3F, 0x29, 0x5D, 0x7D, 0x3E, 0x27, 0x22,
             0x2F, 0x2A, 0x5F, 0x60, 0x7C, 0x2D:
            return last
        default:
            return end
        }
    }

    /// Where a word at `word` starts with its leading dot, if it has one: the word starts with an
    /// ASCII letter, a `.` is right before it, and before that dot is the start of the text,
    /// white space or punctuation that opens a word in prose or a path (`([{"'*_/`<~`).
    @inline(__always)
    private static func dotPrefixStart(_ buffer: UnsafeBufferPointer<UInt8>, word first: Int) -> Int {
        guard first >= 1, buffer[first - 1] == 0x2E else { return first }
        let letter = buffer[first] | 0x20
        guard letter >= 0x61 && letter <= 0x7A else { return first }
        guard first >= 2 else { return first - 1 }
        switch buffer[first - 2] {
        case 0x20, 0x09, 0x0A, 0x0D, 0x28, 0x5B, 0x7B, 0x22, 0x27, 0x2A, 0x5F, 0x2F, 0x60, 0x3C, 0x7E:
            return first - 1
        default:
            return first
        }
    }

    @inline(__always)
    private static func isASCIIWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// Decodes the scalar starting at `index` of valid UTF-8 and returns it with its length.
    private static func decode(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int) {
        let lead = UInt32(buffer[index])
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard index + length <= buffer.count, length > 1 else { return (Unicode.Scalar(0xFFFD) ?? "?", 1) }
        var value = lead & (0xFF >> (length + 1))
        for offset in 1..<length {
            value = (value << 6) | (UInt32(buffer[index + offset]) & 0x3F)
        }
        return (Unicode.Scalar(value) ?? "?", length)
    }

    /// How the scan treats a non-ASCII scalar.
    enum ScalarClass {
        /// A letter, number or mark: part of a word.
        case word
        /// A CJK character or a symbol: a token of its own.
        case single
        /// An emoji variation selector: part of the word it follows, else of no token.
        case joining
        /// Anything else (punctuation, spaces, joiners): ends a word.
        case separator
    }

    static func classify(_ scalar: Unicode.Scalar) -> ScalarClass {
        if isCJK(scalar) { return .single }
        switch scalar.value {
        case 0xFE00...0xFE0F, 0xE0100...0xE01EF: return .joining
        default: break
        }
        switch scalar.properties.generalCategory {
        case .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol: return .single
        default: return isWordScalar(scalar) ? .word : .separator
        }
    }

    /// Whether a non-ASCII scalar belongs to a word: a letter, a digit/number or a mark.
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber,
             .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    /// Whether a scalar is a CJK character that forms a token of its own.
    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x2E80 { return false }
        switch value {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0xAC00...0xD7AF, 0x3130...0x318F:
            return true
        default:
            return scalar.properties.isIdeographic
        }
    }
}
