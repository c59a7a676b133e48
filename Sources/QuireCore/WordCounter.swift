import Foundation

/// Counts words in UTF-8 text without building a `String`: a word is a run of letters or
/// digits (combining marks stay inside the run); each CJK ideograph, hiragana or katakana
/// character counts as one word on its own. Hangul, written with spaces, counts by runs.
/// `countReadable` counts a Markdown body as a person reads it (no code, URLs or data).
public enum WordCounter {
    /// The number of words in `text`.
    public static func count(_ text: String) -> Int {
        var copy = text
        return copy.withUTF8 { count(utf8: $0) }
    }

    /// The number of words in UTF-8 bytes (invalid bytes separate words).
    public static func count(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int {
        count(utf8: bytes, eightAtATime: true)
    }

    /// The words a person reads in a Markdown body: `count(utf8:)` without code blocks and `%%`
    /// comments (`MarkdownBody`),
    /// link and image targets (`](…)`), autolinks (`<https://…>`) and data URLs
    /// (`data:image/png;base64,…`), which no one reads word by word. (Front matter is never
    /// part of a body.)
    public static func countReadable(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var words = 0
        MarkdownBody.forEachLine(of: bytes, html: true) { line in
            words += countReadable(bytes, line: line)
            return true
        }
        return words
    }

    /// The words a person reads in one stretch of a line that `countReadable` reads (no link
    /// targets, autolinks or data URLs). `byColon`: a data URL is looked for at each `:`, four
    /// bytes back, instead of at each `d` of the text (prose is full of them; the same count:
    /// tests compare both ways).
    static func countReadable(_ bytes: UnsafeBufferPointer<UInt8>, line: Range<Int>, byColon: Bool = true) -> Int {
        var words = 0
        var segmentStart = line.lowerBound
        var index = line.lowerBound
        func countSegment(upTo end: Int) {
            if end > segmentStart { words += count(utf8: UnsafeBufferPointer(rebasing: bytes[segmentStart..<end])) }
        }
        while index < line.upperBound {
            index = nextRunStart(bytes, from: index, end: line.upperBound, colon: byColon)
            guard index < line.upperBound else { break }
            var start = index
            if byColon && bytes[index] | 0x20 == UInt8(ascii: ":") {
                // A data URL's `data:` (every byte of it not read yet) or nothing; as
                // `skippedRun` compares with 0x20 set, 0x1A reads as `:` there and here.
                start = index - 4
                guard start >= segmentStart, bytes[start] | 0x20 == UInt8(ascii: "d") else {
                    index += 1
                    continue
                }
            }
            if let skipEnd = skippedRun(bytes, at: start, line: line) {
                countSegment(upTo: start)
                index = skipEnd
                segmentStart = skipEnd
            } else {
                index += 1
            }
        }
        countSegment(upTo: line.upperBound)
        return words
    }

    /// The first byte from `start` on (before `end`) that may begin or, for a data URL, end
    /// the name of a run no one reads — `]`, `<`, and `:` when `colon`, else `d` or `D` (and a
    /// few others that `countReadable` and `skippedRun` turn down) — eight bytes at a time;
    /// `end` when there is none.
    @inline(__always)
    private static func nextRunStart(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int, colon: Bool) -> Int {
        guard let base = bytes.baseAddress else { return end }
        // With 0x20 set in every byte: `]` reads as 0x7D, `<` as 0x3C, `:` as 0x3A, `D` as `d` (0x64).
        let third: UInt8 = colon ? 0x3A : 0x64
        var index = start
        while index &+ 8 <= end {
            let lowered = ASCIIChunk.load(base + index) | 0x2020_2020_2020_2020
            let found = ASCIIChunk.bytes(lowered, equalTo: 0x7D) | ASCIIChunk.bytes(lowered, equalTo: 0x3C)
                | ASCIIChunk.bytes(lowered, equalTo: third)
            if found != 0 { return index &+ found.trailingZeroBitCount / 8 }
            index &+= 8
        }
        while index < end {
            let lowered = base[index] | 0x20
            if lowered == 0x7D || lowered == 0x3C || lowered == third { return index }
            index &+= 1
        }
        return end
    }

    /// The end of a run no one reads that starts at `index`: a link target from `](` to its
    /// `)`, an autolink to its `>`, a data URL to the next space, quote, `)` or `>`.
    private static func skippedRun(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, line: Range<Int>) -> Int? {
        func starts(with text: StaticString, at position: Int) -> Bool {
            let count = text.utf8CodeUnitCount
            guard position + count <= line.upperBound else { return false }
            return (0..<count).allSatisfy { bytes[position + $0] | 0x20 == text.utf8Start[$0] | 0x20 }
        }
        let byte = bytes[index]
        if byte == UInt8(ascii: "]"), index + 1 < line.upperBound, bytes[index + 1] == UInt8(ascii: "(") {
            var depth = 0
            var end = index + 1
            while end < line.upperBound {
                if bytes[end] == UInt8(ascii: "(") { depth += 1 }
                if bytes[end] == UInt8(ascii: ")") { depth -= 1; if depth == 0 { return end + 1 } }
                end += 1
            }
            return line.upperBound
        }
        if byte == UInt8(ascii: "<"), starts(with: "<http", at: index) || starts(with: "<mailto:", at: index) {
            var end = index
            while end < line.upperBound, bytes[end] != UInt8(ascii: ">") { end += 1 }
            return min(end + 1, line.upperBound)
        }
        if byte | 0x20 == UInt8(ascii: "d"), starts(with: "data:", at: index),
           index == line.lowerBound || asciiClasses[Int(bytes[index - 1])] != 1 {
            var end = index
            let stops: [UInt8] = [0x20, 0x09, UInt8(ascii: ")"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: ">")]
            while end < line.upperBound, !stops.contains(bytes[end]) { end += 1 }
            return end
        }
        return nil
    }

    /// `count(utf8:)`; `eightAtATime`: runs of eight ASCII bytes are counted at once (the
    /// same count; tests compare both ways).
    static func count(utf8 bytes: UnsafeBufferPointer<UInt8>, eightAtATime: Bool) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        return asciiClasses.withUnsafeBufferPointer { classes -> Int in
            var words = 0
            var inWord = false
            var index = 0
            let end = bytes.count
            while index < end {
                if eightAtATime && index &+ 8 <= end {
                    let chunk = ASCIIChunk.load(base + index)
                    if ASCIIChunk.isASCII(chunk) {
                        // A word starts at a word byte whose previous byte is none.
                        let word = ASCIIChunk.wordBytes(chunk)
                        let starts = word & ~(word << 8 | (inWord ? 0x80 : 0))
                        words &+= ASCIIChunk.count(starts)
                        inWord = word >> 63 != 0
                        index &+= 8
                        continue
                    }
                    // The ASCII bytes before the first other one (which the byte loop then reads).
                    let ascii = ASCIIChunk.asciiPrefix(chunk)
                    if ascii > 0 {
                        let word = ASCIIChunk.wordBytes(ASCIIChunk.prefix(chunk, ascii))
                        let starts = word & ~(word << 8 | (inWord ? 0x80 : 0))
                        words &+= ASCIIChunk.count(starts)
                        inWord = word &>> UInt64(ascii &* 8 &- 1) & 1 != 0
                        index &+= ascii
                    }
                }
                let byteClass = classes[Int(base[index])]
                if byteClass == 1 {
                    words &+= inWord ? 0 : 1
                    inWord = true
                    index &+= 1
                    continue
                }
                if byteClass == 0 {
                    inWord = false
                    index &+= 1
                    continue
                }
                let (value, length) = decode(base, end: end, at: index)
                index &+= length
                switch classify(value) {
                case .ideograph:
                    words &+= 1
                    inWord = false
                case .letter:
                    words &+= inWord ? 0 : 1
                    inWord = true
                case .mark:
                    break
                case .separator:
                    inWord = false
                }
            }
            return words
        }
    }

    /// For each byte: 1 for an ASCII letter or digit, 0 for other ASCII, 2 for a non-ASCII byte.
    private static let asciiClasses: [UInt8] = (0..<256).map { byte in
        if byte >= 0x80 { return 2 }
        let isDigit = byte >= 0x30 && byte <= 0x39
        let isLetter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        return isDigit || isLetter ? 1 : 0
    }

    private enum Kind { case ideograph, letter, mark, separator }

    private static func classify(_ value: UInt32?) -> Kind {
        guard let value else { return .separator }
        if value < 0x250 {
            if value < 0xC0 { return value == 0xAA || value == 0xB5 || value == 0xBA ? .letter : .separator }
            return value == 0xD7 || value == 0xF7 ? .separator : .letter
        }
        if isCJK(value) { return .ideograph }
        if (0x2000...0x2BFF).contains(value) || (0x3000...0x303F).contains(value) { return .separator }
        guard let scalar = Unicode.Scalar(value) else { return .separator }
        if isWordCharacter(scalar) { return .letter }
        return scalar.properties.generalCategory == .nonspacingMark ? .mark : .separator
    }

    private static func isCJK(_ value: UInt32) -> Bool {
        (0x4E00...0x9FFF).contains(value) || (0x3400...0x4DBF).contains(value)
            || (0x3040...0x30FF).contains(value) || (0xF900...0xFAFF).contains(value)
            || (0x20000...0x3134F).contains(value) || (0x31F0...0x31FF).contains(value)
    }

    private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isAlphabetic { return true }
        switch properties.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber, .spacingMark: return true
        default: return false
        }
    }

    /// Decodes one UTF-8 sequence; nil value (length 1) for an invalid byte.
    private static func decode(_ base: UnsafePointer<UInt8>, end: Int, at index: Int) -> (UInt32?, Int) {
        let lead = base[index]
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(lead & 0x07)
        default: return (nil, 1)
        }
        guard index + length <= end else { return (nil, 1) }
        for offset in 1..<length {
            let next = base[index + offset]
            guard next & 0xC0 == 0x80 else { return (nil, 1) }
            value = value << 6 | UInt32(next & 0x3F)
        }
        return (value, length)
    }
}
