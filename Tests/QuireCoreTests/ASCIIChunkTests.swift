import Testing
import QuireCore

/// Eight bytes at a time: partial loads and uppercase tests give what byte loops give.
struct ASCIIChunkTests {
    /// A short load gives the bytes, little-endian and zero padded, for every length.
    @Test func shortLoadsReadExactlyTheirBytes() {
        let bytes: [UInt8] = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99]
        for count in 0...8 {
            var wanted: UInt64 = 0
            for index in 0..<count { wanted |= UInt64(bytes[index]) << (8 * UInt64(index)) }
            let loaded = bytes.withUnsafeBytes { raw in raw.baseAddress.map { ASCIIChunk.load($0, count: count) } ?? 0 }
            #expect(loaded == wanted, "load of \(count) bytes")
        }
    }

    /// Every ASCII byte at every position of words up to 20 bytes.
    @Test func containsUpperFindsExactlyTheUppercaseLetters() {
        for length in 1...20 {
            for position in 0..<length {
                for byte in UInt8(0)..<0x80 {
                    var word = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    word[position] = byte
                    let found = word.withUnsafeBufferPointer { ASCIIChunk.containsUpper($0) }
                    #expect(found == (byte >= 0x41 && byte <= 0x5A), "\(byte) at \(position) of \(length)")
                }
            }
        }
        #expect(!ASCIIChunk.containsUpper(UnsafeBufferPointer(start: nil, count: 0)))
    }

    /// The first of three bytes found eight at a time is the one a byte loop finds: random
    /// buffers of few distinct bytes (the three among them, bytes above 0x7F too), from every
    /// start to every end.
    @Test func firstIndexOfThreeBytesIsTheByteLoops() {
        var random = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x60, 0x5C, 0x5B, 0x5D, 0x61, 0x20, 0x00, 0xFF, 0xE0, 0x80, 0x7F, 0x1B]
        for _ in 0..<300 {
            let bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in
                Int.random(in: 0..<6, using: &random) == 0 ? alphabet[Int.random(in: 0..<3, using: &random)]
                    : alphabet[Int.random(in: 3..<alphabet.count, using: &random)]
            }
            bytes.withUnsafeBufferPointer { buffer in
                for end in 0...buffer.count {
                    for start in 0...end {
                        let wanted = (start..<end).first { [0x60, 0x5C, 0x5B].contains(buffer[$0]) } ?? end
                        let found = ASCIIChunk.firstIndex(of: 0x60, 0x5C, 0x5B, in: buffer, from: start, end: end)
                        #expect(found == wanted, "\(bytes) from \(start) to \(end)")
                    }
                }
            }
        }
    }

    /// Random buffers of every length up to 40 with bytes at and around the bounds: eight at a
    /// time (and the overlapping last eight) gives what a byte loop gives.
    @Test func allInRangeAgreesWithAByteLoop() {
        var generator = SystemRandomNumberGenerator()
        let edges: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x41, 0x7E, 0x7F, 0x80, 0xC3, 0xFF]
        for length in 0...40 {
            for _ in 0..<200 {
                let bytes = (0..<length).map { _ in
                    Int.random(in: 0..<8, using: &generator) == 0 ? edges.randomElement(using: &generator) ?? 0
                        : UInt8.random(in: 0x20...0x7E, using: &generator)
                }
                for (low, high) in [(UInt8(0x20), UInt8(0x7E)), (0, 0x7F), (0x30, 0x39)] {
                    let wanted = bytes.allSatisfy { $0 >= low && $0 <= high }
                    let found = bytes.withUnsafeBytes { ASCIIChunk.allInRange($0, low, high) }
                    #expect(found == wanted, "\(bytes) in \(low)...\(high)")
                }
            }
        }
    }
}
