import Testing
@testable import QuireCore

/// Validating in pieces gives `String(validating:)`'s answer: the same string or nil.
struct UTF8TextTests {
    static func expectSame(_ bytes: [UInt8]) {
        let (pieces, whole) = bytes.withUnsafeBufferPointer {
            (UTF8Text.string(validating: $0), String(validating: $0, as: UTF8.self))
        }
        #expect((pieces == nil) == (whole == nil), "validity differs for \(bytes.count) bytes")
        #expect(pieces.map { Array($0.utf8) } == whole.map { Array($0.utf8) }, "text differs for \(bytes.count) bytes")
    }

    /// Long ASCII stretches between valid and invalid sequences of every kind (overlong,
    /// surrogate, too large, truncated, lone continuation), at every offset of a chunk.
    @Test func piecesAgreeWithTheWholeOnRandomText() {
        let sequences: [[UInt8]] = [Array("é".utf8), Array("日本".utf8), Array("😀".utf8), Array("\u{301}".utf8),
                                    [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
                                    [0xF5, 0x80], [0xE6, 0x97], [0x80], [0xBF, 0x41], [0xFF], [0xC3]]
        var random = SystemRandomNumberGenerator()
        var split = 0
        for round in 0..<1500 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...8, using: &random) {
                let stretch = Int.random(in: 0...(round % 3 == 0 ? 40 : 400), using: &random)
                bytes += (0..<stretch).map { _ in UInt8.random(in: 0x20...0x7E, using: &random) }
                // Mostly valid sequences, so that many texts are valid and get cut.
                let pick = round % 2 == 0 ? Int.random(in: 0..<4, using: &random) : Int.random(in: 0..<sequences.count, using: &random)
                bytes += sequences[pick]
            }
            bytes += (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0x20...0x7E, using: &random) }
            Self.expectSame(bytes)
            if bytes.count >= 2 * UTF8Text.minimumStretch, String(validating: bytes, as: UTF8.self) != nil { split += 1 }
        }
        #expect(split > 300, "only \(split) long valid texts")
        Self.expectSame(Array(repeating: 0x61, count: 1000))
        Self.expectSame(Array(repeating: 0x61, count: 300) + [0xC3] + Array(repeating: 0x61, count: 300))
        Self.expectSame(Array(repeating: 0x61, count: 300) + Array("é".utf8) + Array(repeating: 0x61, count: 300))
    }
}
