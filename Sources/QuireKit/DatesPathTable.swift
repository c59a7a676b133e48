import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// The vault paths a read of the dates file looks for (`HistoryDatesFile.read(_:only:)`), found
/// by a line's bytes without building a value per line: their UTF-8 bytes kept end to end, an
/// open-addressing table of their positions by hash (`ContentHash`), compared with `memcmp`.
struct DatesPathTable {
    /// The paths, as given.
    let paths: [String]
    /// Every path's bytes, one after the other.
    private let bytes: [UInt8]
    /// Where each path's bytes start in `bytes`; one more, the end.
    private let starts: [Int]
    /// Position + 1 of the path in each slot (0: empty); a power of two long.
    private let slots: [Int32]

    init(_ paths: Set<String>) {
        let list = Array(paths)
        var bytes: [UInt8] = []
        var starts = [0]
        for path in list {
            bytes += path.utf8
            starts.append(bytes.count)
        }
        var capacity = 16
        while capacity < list.count * 2 { capacity <<= 1 }
        var slots = [Int32](repeating: 0, count: capacity)
        bytes.withUnsafeBufferPointer { buffer in
            for position in list.indices {
                let start = starts[position]
                var slot = Self.hash(UnsafeBufferPointer(rebasing: buffer[start..<starts[position + 1]])) & (capacity - 1)
                while slots[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
                slots[slot] = Int32(position + 1)
            }
        }
        self.paths = list
        self.bytes = bytes
        self.starts = starts
        self.slots = slots
    }

    /// The position in `paths` of the path whose bytes are `name`, nil when it is none of them.
    func position(of name: UnsafeBufferPointer<UInt8>) -> Int? {
        let mask = slots.count - 1
        var slot = Self.hash(name) & mask
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            while slots[slot] != 0 {
                let position = Int(slots[slot]) - 1
                let start = starts[position]
                if starts[position + 1] - start == name.count {
                    guard let ours = buffer.baseAddress, let theirs = name.baseAddress else { return position }
                    if memcmp(ours + start, theirs, name.count) == 0 { return position }
                }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }

    /// Eight bytes at a time (`ContentHash`): every line of the dates file is hashed.
    private static func hash(_ name: UnsafeBufferPointer<UInt8>) -> Int {
        Int(truncatingIfNeeded: ContentHash.hash(UnsafeRawBufferPointer(name)))
    }
}
