import Foundation

/// Counts words in UTF-8 text without building a `String`: a word is a run of letters or
/// digits (combining marks stay inside the run); each CJK ideograph, hiragana or katakana
/// character counts as one word on its own. Hangul, written with spaces, counts by runs.
public enum WordCounter {
    /// The number of words in `text`.
    public static func count(_ text: String) -> Int {
        var copy = text
        return copy.withUTF8 { count(utf8: $0) }
    }

    /// The number of words in UTF-8 bytes (invalid bytes separate words).
    public static func count(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var words = 0
        var inWord = false
        var index = 0
        let end = bytes.count
        while index < end {
            let byte = bytes[index]
            if byte < 0x80 {
                let isWordByte = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
                    || (byte >= 0x30 && byte <= 0x39)
                if isWordByte, !inWord { words += 1 }
                inWord = isWordByte
                index += 1
                continue
            }
            let (scalarValue, length) = decode(bytes, at: index)
            index += length
            guard let value = scalarValue, let scalar = Unicode.Scalar(value) else {
                inWord = false
                continue
            }
            if isCJK(value) {
                words += 1
                inWord = false
            } else if isWordCharacter(scalar) {
                if !inWord { words += 1 }
                inWord = true
            } else if inWord, scalar.properties.generalCategory == .nonspacingMark {
                continue
            } else {
                inWord = false
            }
        }
        return words
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
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32?, Int) {
        let lead = bytes[index]
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(lead & 0x07)
        default: return (nil, 1)
        }
        guard index + length <= bytes.count else { return (nil, 1) }
        for offset in 1..<length {
            let next = bytes[index + offset]
            guard next & 0xC0 == 0x80 else { return (nil, 1) }
            value = value << 6 | UInt32(next & 0x3F)
        }
        return (value, length)
    }
}
