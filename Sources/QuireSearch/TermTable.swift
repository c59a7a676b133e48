import Foundation
import QuireCore

/// Assigns ids to terms given as bytes (open addressing, no string per term); ids follow the
/// order of first appearance.
struct TermTable {
    private(set) var bytes: [UInt8] = []
    private(set) var offsets: [UInt32] = [0]
    /// Per slot: the term's first eight bytes (zero padded) and, in `meta`, 0 when empty, else
    /// the top 24 bits of its hash, its length (at most 255) and its id + 1: a term of up to
    /// eight bytes — most words — is found with one memory access.
    private var slots = [Slot](repeating: Slot(head: 0, meta: 0), count: 1 << 12)

    private struct Slot {
        var head: UInt64
        var meta: UInt64
    }

    var count: Int { offsets.count - 1 }

    /// The id of `key`, a new one when the table does not hold it yet.
    @inline(__always)
    mutating func id(for key: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let head = Self.head(key)
        let hash = Self.hash(key, head: head)
        let expected = Self.meta(hash, key.count)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        let found: Int = slots.withUnsafeBufferPointer { slots in
            while true {
                let entry = slots[slot]
                if entry.meta == 0 { return -1 }
                if entry.meta & ~0xFFFF_FFFF == expected && entry.head == head {
                    let id = Int(entry.meta & 0xFFFF_FFFF) - 1
                    if key.count <= 8 || sameTail(id, key) { return id }
                }
                slot = (slot + 1) & mask
            }
        }
        if found >= 0 { return UInt32(found) }
        return insert(key, head: head, meta: expected, at: slot)
    }

    /// Adds `key` as a new term in the empty `slot` (out of line: most lookups find their
    /// term, and their path stays short).
    @inline(never)
    private mutating func insert(_ key: UnsafeBufferPointer<UInt8>, head: UInt64, meta: UInt64, at slot: Int) -> UInt32 {
        let id = count
        bytes.append(contentsOf: key)
        offsets.append(UInt32(bytes.count))
        slots[slot] = Slot(head: head, meta: meta | UInt64(id + 1))
        if count * 2 > slots.count { grow() }
        return UInt32(id)
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
        var larger = [Slot](repeating: Slot(head: 0, meta: 0), count: slots.count * 2)
        let mask = larger.count - 1
        for id in 0..<count {
            let (hash, head, length) = withTerm(id) { term in
                let head = Self.head(term)
                return (Self.hash(term, head: head), head, term.count)
            }
            var position = Int(truncatingIfNeeded: hash) & mask
            while larger[position].meta != 0 { position = (position + 1) & mask }
            larger[position] = Slot(head: head, meta: Self.meta(hash, length) | UInt64(id + 1))
        }
        slots = larger
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

    /// The ids in bytewise order of their terms.
    func sortedIDs() -> [UInt32] {
        bytes.withUnsafeBufferPointer { all in
            offsets.withUnsafeBufferPointer { offsets in
                let base = all.baseAddress
                return (0..<UInt32(count)).sorted { left, right in
                    let leftStart = Int(offsets[Int(left)])
                    let leftCount = Int(offsets[Int(left) + 1]) - leftStart
                    let rightStart = Int(offsets[Int(right)])
                    let rightCount = Int(offsets[Int(right) + 1]) - rightStart
                    let common = min(leftCount, rightCount)
                    if common > 0, let base {
                        let order = memcmp(base + leftStart, base + rightStart, common)
                        if order != 0 { return order < 0 }
                    }
                    return leftCount < rightCount
                }
            }
        }
    }

    /// The terms as a dictionary, in `order` (term `order[n]` gets id n).
    func dictionary(order: [UInt32]) -> TermDictionary {
        var sortedBytes: [UInt8] = []
        sortedBytes.reserveCapacity(bytes.count)
        var sortedOffsets: [UInt32] = [0]
        sortedOffsets.reserveCapacity(order.count + 1)
        for id in order {
            sortedBytes.append(contentsOf: bytes[Int(offsets[Int(id)])..<Int(offsets[Int(id) + 1])])
            sortedOffsets.append(UInt32(sortedBytes.count))
        }
        return TermDictionary(bytes: ByteColumn(sortedBytes), offsets: Column(sortedOffsets))
    }
}
