import Testing
@testable import QuireCrypto

/// `PackSeal`: secretstream packs padded to size buckets; every change refused.
@Suite struct PackSealTests {
    static func bytes(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    @Test(arguments: [0, 1, 255, 256, 64 * 1024 - 1, 64 * 1024, 64 * 1024 + 1, 1024 * 1024 + 1])
    func roundTripsAtBucketEdges(size: Int) throws {
        let plain = Self.bytes(size)
        let (sealed, key) = try PackSeal.seal(plain)
        #expect(sealed.count == PackSeal.sealedSize(forPlainLength: size))
        #expect(key.count == 32)
        #expect(try PackSeal.open(sealed, key: key) == plain)
    }

    @Test func bucketsArePowersOfTwoThenEighths() {
        #expect(PackSeal.bucket(for: 1) == 256)
        #expect(PackSeal.bucket(for: 257) == 512)
        #expect(PackSeal.bucket(for: 65_536) == 65_536)
        #expect(PackSeal.bucket(for: 65_537) == 65_536 + 8_192)
        #expect(PackSeal.bucket(for: 1_048_577) == 1_048_576 + 131_072)
        for length in stride(from: 65_537, to: 5_000_000, by: 9_973) {
            let bucket = PackSeal.bucket(for: length)
            #expect(bucket >= length)
            #expect(Double(bucket - length) <= Double(length) * 0.125, "padding of \(length) is \(bucket - length)")
        }
    }

    @Test func sizesInOneBucketSealToOneLength() throws {
        let small = try PackSeal.seal(Self.bytes(300)).sealed
        let large = try PackSeal.seal(Self.bytes(510)).sealed
        #expect(small.count == large.count)
        #expect(small != large)
    }

    @Test func everyFlippedByteIsRefused() throws {
        let (sealed, key) = try PackSeal.seal(Array("a small pack".utf8))
        for index in sealed.indices {
            var changed = sealed
            changed[index] ^= 0x01
            #expect(throws: CryptoError.self, "byte \(index)") { try PackSeal.open(changed, key: key) }
        }
    }

    @Test func truncationAndTrailingBytesAreRefused() throws {
        let (sealed, key) = try PackSeal.seal(Self.bytes(100_000))
        let firstChunkEnd = 24 + PackSeal.chunkSize + 17
        #expect(throws: CryptoError.truncated(what: "pack")) { try PackSeal.open(Array(sealed[..<firstChunkEnd]), key: key) }
        #expect(throws: CryptoError.self) { try PackSeal.open(Array(sealed.dropLast()), key: key) }
        #expect(throws: CryptoError.truncated(what: "pack")) { try PackSeal.open(Array(sealed[..<24]), key: key) }
        #expect(throws: CryptoError.self) { try PackSeal.open(sealed + [0], key: key) }
        #expect(throws: CryptoError.self) { try PackSeal.open(sealed + sealed[24...], key: key) }
    }

    @Test func aWrongKeyIsRefused() throws {
        let (sealed, _) = try PackSeal.seal(Self.bytes(1000))
        let other = try PackSeal.seal([]).key
        #expect(throws: CryptoError.tampered(what: "pack")) { try PackSeal.open(sealed, key: other) }
    }

    @Test func eachPackHasItsOwnKey() throws {
        let plain = Self.bytes(100)
        let first = try PackSeal.seal(plain)
        let second = try PackSeal.seal(plain)
        #expect(first.key != second.key)
        #expect(first.sealed != second.sealed)
    }
}
