import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

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
        let blocks = self.blocks(sections)
        var hashes = [UInt64](repeating: 0, count: blocks.count)
        hashes.withUnsafeMutableBufferPointer { buffer in
            let results = buffer
            let hashBlock = { (index: Int) in
                let (section, start, count) = blocks[index]
                results[index] = block(base + sections[section].offset + start, count: count,
                                       seed: UInt64(start / blockSize))
            }
            if blocks.count < 4 {
                for index in blocks.indices { hashBlock(index) }
            } else {
                ParallelMap.perform(iterations: blocks.count, hashBlock)
            }
        }
        return combine(sections, blocks, hashes)
    }

    /// The checksum of each of `sections` (byte ranges of the open file `descriptor`), read
    /// with `pread` a block at a time on every core — so that checking a file does not bring
    /// all of it into the process's memory, as hashing a mapping of it would. Nil when reading
    /// fails (the `errno` is then in `failure`).
    static func sums(descriptor: Int32, sections: [(offset: Int, length: Int)]) -> (sums: [UInt64]?, failure: Int32) {
        let blocks = self.blocks(sections)
        var hashes = [UInt64](repeating: 0, count: blocks.count)
        let workers = min(blocks.count, 2 * ProcessInfo.processInfo.activeProcessorCount)
        var failures = [Int32](repeating: 0, count: max(workers, 1))
        hashes.withUnsafeMutableBufferPointer { hashBuffer in
            failures.withUnsafeMutableBufferPointer { failureBuffer in
                let (results, errors) = (hashBuffer, failureBuffer)
                ParallelMap.perform(iterations: workers) { worker in
                    let buffer = UnsafeMutableRawPointer.allocate(byteCount: blockSize, alignment: 16)
                    defer { buffer.deallocate() }
                    for index in stride(from: worker, to: blocks.count, by: workers) {
                        let (section, start, count) = blocks[index]
                        let failure = read(descriptor, into: buffer, count: count, at: sections[section].offset + start)
                        guard failure == 0 else {
                            errors[worker] = failure
                            return
                        }
                        results[index] = block(UnsafeRawPointer(buffer), count: count, seed: UInt64(start / blockSize))
                    }
                }
            }
        }
        if let failure = failures.first(where: { $0 != 0 }) { return (nil, failure) }
        return (combine(sections, blocks, hashes), 0)
    }

    /// Every block of every section: (section, start within it, bytes).
    private static func blocks(_ sections: [(offset: Int, length: Int)]) -> [(section: Int, start: Int, count: Int)] {
        var blocks: [(section: Int, start: Int, count: Int)] = []
        for (index, section) in sections.enumerated() {
            for start in stride(from: 0, to: section.length, by: blockSize) {
                blocks.append((index, start, min(blockSize, section.length - start)))
            }
        }
        return blocks
    }

    /// Each section's checksum from its blocks' hashes.
    private static func combine(_ sections: [(offset: Int, length: Int)], _ blocks: [(section: Int, start: Int, count: Int)],
                                _ hashes: [UInt64]) -> [UInt64] {
        var sums = sections.map { mix(prime5 &+ UInt64($0.length)) }
        for (index, block) in blocks.enumerated() {
            sums[block.section] = mix(round(sums[block.section], hashes[index]))
        }
        return sums
    }

    /// Reads `count` bytes at `offset` of a file; returns 0 or the `errno` of the failure (EIO
    /// for a file that ends early).
    private static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int) -> Int32 {
        SnapshotFile.transfer(count, shortResult: EIO) { done in
            pread(descriptor, buffer + done, count - done, off_t(offset + done))
        }
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
