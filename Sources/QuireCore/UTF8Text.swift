/// Strings from UTF-8 bytes that are mostly ASCII, validated faster than in one piece: the
/// standard library checks a whole buffer eight bytes at a time only when all of it is ASCII,
/// and byte by byte otherwise — a note body with one "é" costs eight instructions a byte.
/// Here long ASCII stretches become pieces of their own (checked eight bytes at a time) and
/// the bytes between them are validated as usual; the pieces are joined. Cutting only next to
/// ASCII bytes never splits a UTF-8 sequence, so the text is valid exactly when every piece is.
enum UTF8Text {
    /// ASCII stretches shorter than this stay inside their neighbours' piece (a piece costs an
    /// allocation and a second copy).
    static let minimumStretch = 128

    /// `String(validating: bytes, as: UTF8.self)`: the same string, or nil for invalid UTF-8.
    static func string(validating bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let base = bytes.baseAddress, bytes.count >= 2 * minimumStretch else {
            return String(validating: bytes, as: UTF8.self)
        }
        var result = ""
        var pieceStart = 0
        var stretchStart = -1
        var index = 0
        /// Appends the piece before the ASCII stretch `stretchStart..<end` and the stretch.
        func cut(before end: Int) -> Bool {
            defer { pieceStart = end }
            if pieceStart == 0 { result.reserveCapacity(bytes.count) }
            for range in [pieceStart..<stretchStart, stretchStart..<end] where !range.isEmpty {
                guard let piece = String(validating: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) else {
                    return false
                }
                result.append(piece)
            }
            return true
        }
        while index + 8 <= bytes.count {
            if ASCIIChunk.isASCII(ASCIIChunk.load(base + index)) {
                if stretchStart < 0 { stretchStart = index }
            } else {
                if stretchStart >= 0 && index - stretchStart >= minimumStretch {
                    guard cut(before: index) else { return nil }
                }
                stretchStart = -1
            }
            index += 8
        }
        if stretchStart >= 0 && index - stretchStart >= minimumStretch {
            guard cut(before: index) else { return nil }
        }
        if pieceStart == 0 { return String(validating: bytes, as: UTF8.self) }
        if pieceStart < bytes.count {
            guard let piece = String(validating: UnsafeBufferPointer(rebasing: bytes[pieceStart...]), as: UTF8.self) else {
                return nil
            }
            result.append(piece)
        }
        return result
    }
}

/// A file name's bytes as text for messages: as it is when it is valid UTF-8, else with each
/// byte that is not part of a valid sequence written `\xE9` (no name is ever shown as `�`).
public enum FileNameText {
    /// Whether `bytes` are valid UTF-8 (an all-ASCII name is checked without decoding).
    public static func isValid<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        if bytes.allSatisfy({ $0 < 0x80 }) { return true }
        return String(validating: Array(bytes), as: UTF8.self) != nil
    }

    /// `bytes` shown as text, invalid bytes escaped.
    public static func shown<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let array = Array(bytes)
        if let text = String(validating: array, as: UTF8.self) { return text }
        var result = ""
        var index = 0
        while index < array.count {
            // The longest valid sequence starting here (UTF-8 sequences are 1 to 4 bytes).
            var taken = 0
            for length in stride(from: min(4, array.count - index), through: 1, by: -1) {
                if let piece = String(validating: array[index..<(index + length)], as: UTF8.self) {
                    result += piece
                    taken = length
                    break
                }
            }
            if taken == 0 {
                result += "\\x" + String(array[index], radix: 16, uppercase: true)
                taken = 1
            }
            index += taken
        }
        return result
    }
}
