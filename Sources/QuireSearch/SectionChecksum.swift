import QuireCore

/// The checksum of one section of a snapshot file (`SnapshotFile`): a 64-bit hash of the
/// section's blocks of `blockSize` bytes (the xxHash64 round on four lanes of eight bytes, each
/// block seeded with its number), folded together with the section's length. Blocks are hashed
/// independently, so a large section is checked on every core; any changed, missing or moved
/// byte changes the sum.
enum SectionChecksum {
    /// Bytes hashed as one block.
    static let blockSize = 1 << 20

    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// The checksum of each of `sections` (byte ranges of the memory at `base`), its blocks
    /// hashed on every core when there are several.
    static func sums(_ base: UnsafeRawPointer, sections: [(offset: Int, length: Int)]) -> [UInt64] {
        // Every block of every section, as (section, block number).
        var blocks: [(section: Int, block: Int)] = []
        for (index, section) in sections.enumerated() {
            for block in 0..<(section.length + blockSize - 1) / blockSize { blocks.append((index, block)) }
        }
        var hashes = [UInt64](repeating: 0, count: blocks.count)
        let hashBlock = { (index: Int) -> UInt64 in
            let (section, block) = blocks[index]
            let start = block * blockSize
            return Self.block(base + sections[section].offset + start,
                              count: min(blockSize, sections[section].length - start), seed: UInt64(block))
        }
        hashes.withUnsafeMutableBufferPointer { buffer in
            let results = buffer
            if blocks.count < 4 {
                for index in blocks.indices { results[index] = hashBlock(index) }
            } else {
                ParallelMap.perform(iterations: blocks.count) { results[$0] = hashBlock($0) }
            }
        }
        var sums = sections.map { mix(prime5 &+ UInt64($0.length)) }
        for (index, block) in blocks.enumerated() {
            sums[block.section] = mix(round(sums[block.section], hashes[index]))
        }
        return sums
    }

    /// The checksum of a single byte range (a file's header).
    static func sum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        guard let base = bytes.baseAddress else { return mix(prime5) }
        return sums(base, sections: [(0, bytes.count)])[0]
    }

    /// The hash of `count` bytes at `start` (at most `blockSize`).
    static func block(_ start: UnsafeRawPointer, count: Int, seed: UInt64) -> UInt64 {
        var offset = 0
        var hash: UInt64
        if count >= 32 {
            var lanes = (seed &+ prime1 &+ prime2, seed &+ prime2, seed, seed &- prime1)
            while offset + 32 <= count {
                lanes.0 = round(lanes.0, word(start, offset))
                lanes.1 = round(lanes.1, word(start, offset + 8))
                lanes.2 = round(lanes.2, word(start, offset + 16))
                lanes.3 = round(lanes.3, word(start, offset + 24))
                offset += 32
            }
            hash = lanes.0.rotated(1) &+ lanes.1.rotated(7) &+ lanes.2.rotated(12) &+ lanes.3.rotated(18)
            hash = merge(hash, lanes.0)
            hash = merge(hash, lanes.1)
            hash = merge(hash, lanes.2)
            hash = merge(hash, lanes.3)
        } else {
            hash = seed &+ prime5
        }
        hash &+= UInt64(count)
        while offset + 8 <= count {
            hash ^= round(0, word(start, offset))
            hash = hash.rotated(27) &* prime1 &+ prime4
            offset += 8
        }
        while offset < count {
            hash ^= UInt64(start.load(fromByteOffset: offset, as: UInt8.self)) &* prime5
            hash = hash.rotated(11) &* prime1
            offset += 1
        }
        return mix(hash)
    }

    @inline(__always)
    private static func word(_ start: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: start.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        (accumulator &+ input &* prime2).rotated(31) &* prime1
    }

    @inline(__always)
    private static func merge(_ hash: UInt64, _ lane: UInt64) -> UInt64 {
        (hash ^ round(0, lane)) &* prime1 &+ prime4
    }

    /// The final avalanche: every bit of the input moves about half the output bits.
    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var hash = value
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }
}

extension UInt64 {
    /// The bits rotated left by `count`.
    @inline(__always)
    fileprivate func rotated(_ count: UInt64) -> UInt64 {
        (self << count) | (self >> (64 - count))
    }
}
