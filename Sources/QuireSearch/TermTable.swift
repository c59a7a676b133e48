/// Assigns ids to terms given as bytes (open addressing, no string per term); ids follow the
/// order of first appearance.
struct TermTable {
    private(set) var bytes: [UInt8] = []
    private(set) var offsets: [UInt32] = [0]
    private var hashes: [UInt64] = []
    private var slots: [Int32] = [Int32](repeating: -1, count: 1 << 12)

    var count: Int { hashes.count }

    func term(_ id: Int) -> ArraySlice<UInt8> {
        bytes[Int(offsets[id])..<Int(offsets[id + 1])]
    }

    mutating func id(for key: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in key { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        var mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash ^ (hash >> 32)) & mask
        while true {
            let found = slots[slot]
            if found < 0 { break }
            if hashes[Int(found)] == hash && equal(Int(found), key) { return UInt32(found) }
            slot = (slot + 1) & mask
        }
        let id = Int32(hashes.count)
        hashes.append(hash)
        bytes.append(contentsOf: key)
        offsets.append(UInt32(bytes.count))
        slots[slot] = id
        if hashes.count * 2 > slots.count {
            slots = [Int32](repeating: -1, count: slots.count * 2)
            mask = slots.count - 1
            for (index, stored) in hashes.enumerated() {
                var position = Int(truncatingIfNeeded: stored ^ (stored >> 32)) & mask
                while slots[position] >= 0 { position = (position + 1) & mask }
                slots[position] = Int32(index)
            }
        }
        return UInt32(id)
    }

    private func equal(_ id: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = Int(offsets[id])
        guard Int(offsets[id + 1]) - start == key.count else { return false }
        for index in 0..<key.count where bytes[start + index] != key[index] { return false }
        return true
    }
}
