import Foundation

/// Where each of a list of documents comes when their paths are sorted by their UTF-8 bytes
/// (the order ties are broken in): a rank per document, so that sorting by path, or breaking a
/// tie by it, is an integer comparison.
///
/// The snapshot keeps the live slots in `PathOrder` (a folder tree's order, `/` before every
/// byte), which is the byte order except where a folder's name is followed by a byte below `/`
/// in a sibling's (`Projects/a.md` and `Projects.md`, `Journal 2/`, `Journal-old.md`). The
/// documents are put in that order first (an integer walk of the stored order), then their
/// paths, read in place, are checked pairwise and only a list that is not yet in byte order is
/// sorted — a stable merge sort that finds the runs, so it costs little more than the check.
/// A document the stored order does not hold (a note changed since the snapshot, a catalog
/// built in memory) joins at the end and is sorted in the same way.
struct PathRanks {
    /// Per position in the documents given, its rank among them (0 first).
    let ranks: [UInt32]
    /// The positions of the documents in path order (`ranks` inverted).
    let ordered: [Int]

    init(_ catalog: Catalog, _ documents: [Int]) {
        var paths: [UnsafeRawBufferPointer] = []
        paths.reserveCapacity(documents.count)
        for document in documents { paths.append(catalog.pathBytes(document)) }
        var order = Self.storedOrder(catalog, documents)
        let sorted = order.indices.dropFirst().allSatisfy { !Self.precedes(paths[order[$0]], paths[order[$0 - 1]]) }
        if !sorted {
            paths.withUnsafeBufferPointer { paths in
                order.sort { Self.precedes(paths[$0], paths[$1]) }
            }
        }
        var ranks = [UInt32](repeating: 0, count: documents.count)
        for (rank, position) in order.enumerated() { ranks[position] = UInt32(rank) }
        self.ranks = ranks
        ordered = order
    }

    /// The positions of `documents` in the order the loaded snapshot stores their slots
    /// (`Catalog.loadedOrder`), those it does not hold after them; the positions as given
    /// when there is no stored order.
    private static func storedOrder(_ catalog: Catalog, _ documents: [Int]) -> [Int] {
        guard let stored = catalog.loadedOrder, documents.count > 1 else { return Array(documents.indices) }
        // Position + 1 of each document by slot (0: not among them, or placed already).
        var positionOf = [Int32](repeating: 0, count: catalog.capacity)
        for (position, document) in documents.enumerated() { positionOf[document] = Int32(position + 1) }
        var order: [Int] = []
        order.reserveCapacity(documents.count)
        positionOf.withUnsafeMutableBufferPointer { positionOf in
            for slot in stored.buffer where Int(slot) < positionOf.count {
                let position = positionOf[Int(slot)]
                guard position > 0 else { continue }
                order.append(Int(position) - 1)
                positionOf[Int(slot)] = 0
            }
            // The slots the stored order does not hold (renumbered or added since it was
            // written), in the order given.
            if order.count < documents.count {
                for (position, document) in documents.enumerated() where positionOf[document] > 0 {
                    order.append(position)
                }
            }
        }
        return order
    }

    /// Whether the bytes `left` come before `right` (shorter first when one starts the other).
    @inline(__always)
    static func precedes(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        let common = min(left.count, right.count)
        if common > 0, let x = left.baseAddress, let y = right.baseAddress {
            let order = memcmp(x, y, common)
            if order != 0 { return order < 0 }
        }
        return left.count < right.count
    }
}
