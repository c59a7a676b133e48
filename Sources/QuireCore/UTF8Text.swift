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
