import CPrefetch
import Foundation
import QuireCore

/// Assigns ids to terms given as bytes (open addressing, no string per term); ids follow the
/// order of first appearance. A slot is 16 bytes and counts nothing (a slice counts its terms
/// from its forward index once it is complete: `SegmentSlice.sealTerms`): at 10,000 notes a
/// slice's table of 32-byte slots with the counts filled the core's 2 MB cache on its own, and
/// the lookups that missed it were half the time spent on a token.
struct TermTable {
    private(set) var bytes: [UInt8] = []
    private(set) var offsets: [UInt32] = [0]
    /// Per slot (16 bytes, four to a cache line): the term's first eight bytes (zero padded)
    /// and, in `meta`, 0 when empty, else the top 24 bits of its hash, its length (at most 255)
    /// and its id + 1 — a term of up to eight bytes, most words, is found with one memory
    /// access. Full at three quarters.
    private var slots = TermSlots(count: 1 << 12)

    var count: Int { offsets.count - 1 }

    /// The id of `key`, a new one when the table does not hold it yet.
    @inline(__always)
    mutating func id(for key: UnsafeBufferPointer<UInt8>) -> UInt32 {
        makeExclusive()
        let slot = self.exclusiveSlot(for: key)
        return UInt32(truncatingIfNeeded: slots.base[slot].meta & 0xFFFF_FFFF) &- 1
    }

    /// Makes the slots this table's own (copied when a copy of this table shares them, made anew
    /// after `releaseSlots`), so that `exclusiveID` may be called until the table is
    /// next copied.
    mutating func makeExclusive() {
        if !isKnownUniquelyReferenced(&slots) { slots = slots.copy() }
        if slots.count == 0 { rehash() }
    }

    /// `id(for:)` for a table whose slots are its own (`makeExclusive`, no copy made since):
    /// without the check, which costs a call into the runtime per token.
    @inline(__always)
    mutating func exclusiveID(for key: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let slot = exclusiveSlot(for: key)  // first: adding the key may move the slots
        return UInt32(truncatingIfNeeded: slots.base[slot].meta & 0xFFFF_FFFF) &- 1
    }

    /// `exclusiveID(for:)` of each term of `terms` (term `i` ends at `ends[i]`, the first at 0),
    /// in order, into `ids` (as many as `ends`): each term's key made and its slot asked for
    /// first (`prefetchKey`), then each term looked up. A rare word's slot is a cache miss (at
    /// 10,000 notes a slice's slots are megabytes); asked for together, the misses of a batch
    /// overlap instead of each waiting for the one before. A slice makes each key as it reads
    /// the term instead (`SegmentSlice.appendTerm`).
    @inline(__always)
    mutating func exclusiveIDs(of terms: UnsafeBufferPointer<UInt8>, ends: UnsafeBufferPointer<Int>,
                               into ids: UnsafeMutableBufferPointer<UInt32>) {
        guard let start = terms.baseAddress else {
            for index in ends.indices { ids[index] = exclusiveID(for: terms) }
            return
        }
        withUnsafeTemporaryAllocation(of: TermKey.self, capacity: ends.count) { keys in
            var begin = 0
            for index in 0..<ends.count {
                keys[index] = prefetchKey(UnsafeBufferPointer(start: start + begin, count: ends[index] &- begin))
                begin = ends[index]
            }
            exclusiveIDs(of: terms, ends: ends, keys: UnsafeBufferPointer(keys), into: ids)
        }
    }

    /// The head and hash `exclusiveIDs(of:ends:keys:into:)` looks `key` up by, its slot asked
    /// for meanwhile (`quire_prefetch`): called as each term is read, the slots of a batch are
    /// in the cache by the time it is looked up.
    @inline(__always)
    func prefetchKey(_ key: UnsafeBufferPointer<UInt8>) -> TermKey {
        let head = Self.head(key)
        let hash = Self.hash(key, head: head)
        if slots.count > 0 { quire_prefetch(slots.base + (Int(truncatingIfNeeded: hash) & (slots.count - 1))) }
        return TermKey(head: head, hash: hash)
    }

    /// `exclusiveIDs(of:ends:into:)` given each term's head and hash (`prefetchKey`).
    @inline(__always)
    mutating func exclusiveIDs(of terms: UnsafeBufferPointer<UInt8>, ends: UnsafeBufferPointer<Int>,
                               keys: UnsafeBufferPointer<TermKey>, into ids: UnsafeMutableBufferPointer<UInt32>) {
        guard let start = terms.baseAddress else {
            for index in ends.indices { ids[index] = exclusiveID(for: terms) }
            return
        }
        var begin = 0
        for index in 0..<ends.count {
            let key = UnsafeBufferPointer(start: start + begin, count: ends[index] &- begin)
            let slot = exclusiveSlot(for: key, head: keys[index].head, hash: keys[index].hash)
            ids[index] = UInt32(truncatingIfNeeded: slots.base[slot].meta & 0xFFFF_FFFF) &- 1
            begin = ends[index]
        }
    }

    /// Gives up the slots, which are most of the table's memory: it still knows its terms, and
    /// should a term be looked up again, the slots are made anew.
    mutating func releaseSlots() {
        slots = TermSlots(count: 0)
    }

    /// The slot holding `key`, which is added when the table does not hold it yet (the slots
    /// being this table's own: `makeExclusive`).
    @inline(__always)
    private mutating func exclusiveSlot(for key: UnsafeBufferPointer<UInt8>) -> Int {
        let head = Self.head(key)
        return exclusiveSlot(for: key, head: head, hash: Self.hash(key, head: head))
    }

    /// `exclusiveSlot(for:)` given the key's head and hash.
    @inline(__always)
    private mutating func exclusiveSlot(for key: UnsafeBufferPointer<UInt8>, head: UInt64, hash: UInt64) -> Int {
        let expected = Self.meta(hash, key.count)
        let mask = slots.count - 1
        let base = slots.base
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let meta = base[slot].meta
            if meta == 0 { break }
            if meta & ~0xFFFF_FFFF == expected && base[slot].head == head {
                if key.count <= 8 || sameTail(Int(meta & 0xFFFF_FFFF) - 1, key) { return slot }
            }
            slot = (slot + 1) & mask
        }
        return insert(key, head: head, meta: expected, at: slot)
    }

    /// Adds `key` as a new term in the empty `slot` and returns the slot it ends in (out of
    /// line: most lookups find their term, and their path stays short).
    @inline(never)
    private mutating func insert(_ key: UnsafeBufferPointer<UInt8>, head: UInt64, meta: UInt64, at slot: Int) -> Int {
        let id = count
        bytes.append(contentsOf: key)
        offsets.append(UInt32(bytes.count))
        slots.base[slot] = TermSlot(head: head, meta: meta | UInt64(id + 1))
        guard count * 4 > slots.count * 3 else { return slot }
        grow()
        var moved = Int(truncatingIfNeeded: Self.hash(key, head: head)) & (slots.count - 1)
        while slots.base[moved].meta & 0xFFFF_FFFF != UInt64(id + 1) { moved = (moved + 1) & (slots.count - 1) }
        return moved
    }

    /// Whether term `id` and `key` (of the same length, more than eight bytes, same first
    /// eight) agree after their first eight bytes.
    private func sameTail(_ id: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = Int(offsets[id])
        guard Int(offsets[id + 1]) - start == key.count else { return false }
        return bytes.withUnsafeBufferPointer { stored in
            guard let base = stored.baseAddress, let wanted = key.baseAddress else { return false }
            return memcmp(base + start + 8, wanted + 8, key.count - 8) == 0
        }
    }

    /// The first eight bytes of a term, zero padded.
    @inline(__always)
    private static func head(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let base = key.baseAddress else { return 0 }
        return ASCIIChunk.load(UnsafeRawPointer(base), count: min(key.count, 8))
    }

    /// A slot's meta word without the id: hash bits and length.
    @inline(__always)
    private static func meta(_ hash: UInt64, _ length: Int) -> UInt64 {
        (hash & 0xFFFF_FF00_0000_0000) | UInt64(min(length, 255)) << 32
    }

    /// Doubles the slots.
    private mutating func grow() {
        let larger = TermSlots(count: slots.count * 2)
        let mask = larger.count - 1
        for old in 0..<slots.count where slots.base[old].meta != 0 {
            let entry = slots.base[old]
            let hash = withTerm(Int(entry.meta & 0xFFFF_FFFF) - 1) { Self.hash($0, head: entry.head) }
            var position = Int(truncatingIfNeeded: hash) & mask
            while larger.base[position].meta != 0 { position = (position + 1) & mask }
            larger.base[position] = entry
        }
        slots = larger
    }

    /// Makes the slots anew from the terms (after `releaseSlots`).
    @inline(never)
    private mutating func rehash() {
        var size = 1 << 12
        while count * 4 > size * 3 { size *= 2 }
        slots = TermSlots(count: size)
        let mask = size - 1
        for id in 0..<count {
            let (head, hash, length) = withTerm(id) { term in
                let head = Self.head(term)
                return (head, Self.hash(term, head: head), term.count)
            }
            var position = Int(truncatingIfNeeded: hash) & mask
            while slots.base[position].meta != 0 { position = (position + 1) & mask }
            slots.base[position] = TermSlot(head: head, meta: Self.meta(hash, length) | UInt64(id + 1))
        }
    }

    /// A hash of a term's bytes given its `head` (first eight bytes), the rest eight at a time.
    @inline(__always)
    static func hash(_ key: UnsafeBufferPointer<UInt8>, head: UInt64) -> UInt64 {
        var hash = (UInt64(key.count) &* 0x9E37_79B9_7F4A_7C15 ^ head) &* 0xBF58_476D_1CE4_E5B9
        if key.count > 8, let base = key.baseAddress {
            let raw = UnsafeRawPointer(base)
            var index = 8
            while index &+ 8 <= key.count {
                hash ^= hash >> 31
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
                index &+= 8
            }
            if index < key.count {
                hash = (hash ^ ASCIIChunk.load(raw + index, count: key.count &- index)) &* 0x94D0_49BB_1331_11EB
            }
        }
        hash ^= hash >> 29
        return hash &* 0xBF58_476D_1CE4_E5B9
    }

    /// Calls `body` with the bytes of term `id`.
    func withTerm<T>(_ id: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        bytes.withUnsafeBufferPointer { all in
            body(UnsafeBufferPointer(rebasing: all[Int(offsets[id])..<Int(offsets[id + 1])]))
        }
    }

    /// The ids in bytewise order of their terms: compared by their first eight bytes as one
    /// big-endian number (zero padded: the order of the bytes), and only terms whose first
    /// eight bytes agree by all of their bytes.
    func sortedIDs() -> [UInt32] {
        bytes.withUnsafeBufferPointer { all in
            offsets.withUnsafeBufferPointer { offsets in
                guard let base = all.baseAddress else { return Array(0..<UInt32(count)) }
                var keys = [UInt64](repeating: 0, count: count)
                for id in 0..<count {
                    let start = Int(offsets[id])
                    keys[id] = ASCIIChunk.load(UnsafeRawPointer(base + start), count: min(Int(offsets[id + 1]) - start, 8))
                        .byteSwapped
                }
                return keys.withUnsafeBufferPointer { keys in
                    (0..<UInt32(count)).sorted { left, right in
                        let (leftKey, rightKey) = (keys[Int(left)], keys[Int(right)])
                        if leftKey != rightKey { return leftKey < rightKey }
                        let leftStart = Int(offsets[Int(left)])
                        let leftCount = Int(offsets[Int(left) + 1]) - leftStart
                        let rightStart = Int(offsets[Int(right)])
                        let rightCount = Int(offsets[Int(right) + 1]) - rightStart
                        let common = min(leftCount, rightCount)
                        if common > 8 {
                            let order = memcmp(base + leftStart + 8, base + rightStart + 8, common - 8)
                            if order != 0 { return order < 0 }
                        }
                        return leftCount < rightCount
                    }
                }
            }
        }
    }
}

/// What a term is looked up by: its first eight bytes (zero padded) and its hash.
struct TermKey {
    var head: UInt64
    var hash: UInt64
}

/// One slot of a `TermTable`: a term's head and meta word (16 bytes).
struct TermSlot {
    var head: UInt64
    var meta: UInt64
}

/// The slots of a `TermTable`, allocated here aligned to a cache line (a slot never straddles
/// two) and freed in `deinit`; all empty (zero meta) at first.
final class TermSlots {
    let base: UnsafeMutablePointer<TermSlot>
    /// Number of slots, a power of two.
    let count: Int

    init(count: Int) {
        self.count = count
        base = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<TermSlot>.stride, alignment: 64)
            .bindMemory(to: TermSlot.self, capacity: count)
        base.initialize(repeating: TermSlot(head: 0, meta: 0), count: count)
    }

    /// A copy of these slots (a table shared by several values, before one of them changes).
    func copy() -> TermSlots {
        let copy = TermSlots(count: count)
        copy.base.update(from: base, count: count)
        return copy
    }

    deinit {
        base.deallocate()
    }
}
