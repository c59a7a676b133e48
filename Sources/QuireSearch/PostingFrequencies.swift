/// How a segment keeps its postings' occurrences (`IndexSegment.postingFrequencies` and
/// `postingOverflow`): a byte per posting, `title << 6 | other` for up to 3 occurrences in the
/// title and 63 elsewhere (at 100,000 notes all but 3,281 of 20 million postings; 83 % occur once), else
/// `escape`, the occurrences then kept in the overflow table as (slot, `title << 24 | other`
/// capped at 255 and 0xFFFFFF, number of positions) triples, slots ascending.
///
/// A reader of a term's postings walks them in order and keeps its place in the overflow table
/// (`Cursor`), so that an escaped posting costs a step, not a search.
struct PostingFrequencies: @unchecked Sendable {
    /// The byte of a posting whose occurrences are in the overflow table.
    static let escape: UInt8 = 255
    /// u32 values per entry of the overflow table.
    static let entrySize = 3

    /// The byte of `title` and `other` occurrences, or nil when they need the overflow table.
    @inline(__always)
    static func byte(title: UInt32, other: UInt32) -> UInt8? {
        guard title < 4, other < 64 else { return nil }
        let byte = UInt8(truncatingIfNeeded: title << 6 | other)
        return byte == escape ? nil : byte
    }

    /// `title << 24 | other` occurrences, each capped (255 in the title, 0xFFFFFF elsewhere).
    @inline(__always)
    static func packed(title: UInt32, other: UInt32) -> UInt32 {
        min(title, 255) << 24 | min(other, 0xFF_FFFF)
    }

    let bytes: UnsafePointer<UInt8>
    let count: Int
    let overflow: UnsafePointer<UInt32>
    /// Entries (triples) of the overflow table.
    let overflowCount: Int

    /// A walk over postings in ascending slots: the first overflow entry not below the last slot read.
    struct Cursor {
        var entry: Int
    }

    /// A cursor for a walk from `slot` on.
    func cursor(from slot: Int) -> Cursor {
        var (low, high) = (0, overflowCount)
        while low < high {
            let middle = (low + high) / 2
            if Int(overflow[middle * 3]) < slot { low = middle + 1 } else { high = middle }
        }
        return Cursor(entry: low)
    }

    /// The occurrences of the posting at `slot` (`title << 24 | other`, capped) and its number
    /// of positions, the slots read through `cursor` ascending. A slot out of range or an
    /// escape with no entry (a damaged file) reads as no occurrence.
    @inline(__always)
    func read(_ slot: Int, _ cursor: inout Cursor) -> (packed: UInt32, positions: Int) {
        guard slot >= 0, slot < count else { return (0, 0) }
        let byte = bytes[slot]
        if byte != Self.escape {
            let (title, other) = (UInt32(byte >> 6), UInt32(byte & 63))
            return (title << 24 | other, Int(title + other))
        }
        return escaped(slot, &cursor)
    }

    /// `read` of an escaped posting.
    @inline(never)
    private func escaped(_ slot: Int, _ cursor: inout Cursor) -> (packed: UInt32, positions: Int) {
        while cursor.entry < overflowCount && Int(overflow[cursor.entry * 3]) < slot { cursor.entry += 1 }
        guard cursor.entry < overflowCount, Int(overflow[cursor.entry * 3]) == slot else { return (0, 0) }
        return (overflow[cursor.entry * 3 + 1], Int(overflow[cursor.entry * 3 + 2]))
    }

    /// `read` of one posting, in any order.
    func read(_ slot: Int) -> (packed: UInt32, positions: Int) {
        var cursor = cursor(from: slot)
        return read(slot, &cursor)
    }

    /// `overflow` (flat triples, in any order) sorted by slot.
    static func sortedOverflow(_ flat: [UInt32]) -> [UInt32] {
        let order = stride(from: 0, to: flat.count, by: 3).sorted { flat[$0] < flat[$1] }
        return order.flatMap { flat[$0..<$0 + 3] }
    }
}
