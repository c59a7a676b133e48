#if canImport(Glibc)
import Glibc
#endif

/// The file names of one tracked folder, found by their bytes without building a Swift value
/// per name: an open-addressing table of positions (FNV-1a hashes, compared with `memcmp`), for
/// a scan that looks up each name `readdir` returns. The names are borrowed (index entry
/// paths): they must outlive the table.
struct TrackedNames {
    private let names: [UnsafePointer<CChar>]
    private let lengths: [Int]
    /// Position + 1 of the name in each slot (0: empty); a power of two long.
    private var slots: [Int32]

    /// A table of `names` (each NUL-terminated); a name given twice keeps its first position.
    init(_ names: [UnsafePointer<CChar>]) {
        self.names = names
        lengths = names.map { strlen($0) }
        var capacity = 16
        while capacity < names.count * 2 { capacity <<= 1 }
        slots = [Int32](repeating: 0, count: capacity)
        for position in names.indices where self.position(of: names[position], length: lengths[position]) == nil {
            var slot = Self.hash(names[position], length: lengths[position]) & (capacity - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Int32(position + 1)
        }
    }

    /// How many names the table holds.
    var count: Int { names.count }

    /// The position of the name of `length` bytes at `name`, or nil when the folder tracks none.
    func position(of name: UnsafePointer<CChar>, length: Int) -> Int? {
        let mask = slots.count - 1
        var slot = Self.hash(name, length: length) & mask
        while slots[slot] != 0 {
            let position = Int(slots[slot]) - 1
            if lengths[position] == length && memcmp(names[position], name, length) == 0 { return position }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// The name at `position` (NUL-terminated) and its length in bytes.
    func name(at position: Int) -> (bytes: UnsafePointer<CChar>, length: Int) {
        (names[position], lengths[position])
    }

    private static func hash(_ name: UnsafePointer<CChar>, length: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for offset in 0..<length {
            hash = (hash ^ UInt64(UInt8(bitPattern: name[offset]))) &* 0x0000_0100_0000_01b3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}
