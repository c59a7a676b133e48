import Foundation

/// Assigns ids to terms given as bytes (open addressing, no string per term); ids follow the
/// order of first appearance.
struct TermTable {
    private(set) var bytes: [UInt8] = []
    private(set) var offsets: [UInt32] = [0]
    /// Per slot: 0 when empty, else the upper half of the term's hash and its id + 1.
    private var slots = [UInt64](repeating: 0, count: 1 << 12)

    var count: Int { offsets.count - 1 }

    /// The id of `key`, a new one when the table does not hold it yet.
    mutating func id(for key: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let hash = Self.hash(key)
        let tag = hash & 0xFFFF_FFFF_0000_0000
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        let found: Int = slots.withUnsafeBufferPointer { slots in
            bytes.withUnsafeBufferPointer { bytes in
                offsets.withUnsafeBufferPointer { offsets in
                    while true {
                        let entry = slots[slot]
                        if entry == 0 { return -1 }
                        if entry & 0xFFFF_FFFF_0000_0000 == tag {
                            let id = Int(entry & 0xFFFF_FFFF) - 1
                            let start = Int(offsets[id])
                            let length = Int(offsets[id + 1]) - start
                            if length == key.count {
                                guard length > 0, let stored = bytes.baseAddress, let wanted = key.baseAddress else { return id }
                                if memcmp(stored + start, wanted, length) == 0 { return id }
                            }
                        }
                        slot = (slot + 1) & mask
                    }
                }
            }
        }
        if found >= 0 { return UInt32(found) }
        let id = count
        bytes.append(contentsOf: key)
        offsets.append(UInt32(bytes.count))
        slots[slot] = tag | UInt64(id + 1)
        if count * 2 > slots.count { grow() }
        return UInt32(id)
    }

    /// Doubles the slots (each term's hash is computed again from its bytes).
    private mutating func grow() {
        var larger = [UInt64](repeating: 0, count: slots.count * 2)
        let mask = larger.count - 1
        for id in 0..<count {
            let hash = withTerm(id) { Self.hash($0) }
            var position = Int(truncatingIfNeeded: hash) & mask
            while larger[position] != 0 { position = (position + 1) & mask }
            larger[position] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(id + 1)
        }
        slots = larger
    }

    /// A hash of a term's bytes, eight at a time.
    @inline(__always)
    static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = UInt64(key.count) &* 0x9E37_79B9_7F4A_7C15
        guard let base = key.baseAddress else { return hash }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= key.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            index += 8
        }
        if index < key.count {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while index < key.count {
                tail |= UInt64(base[index]) << shift
                shift += 8
                index += 1
            }
            hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
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
