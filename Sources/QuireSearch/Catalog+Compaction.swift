import QuireCore

extension Catalog {
    /// The same notes in one segment without removed slots (what a snapshot should hold once
    /// the recent changes grow large). Each note's tokens are replayed from its segment straight
    /// into a slice and dropped: the notes of the whole vault are never held at once, only the
    /// slices being built (a compaction at 100,000 notes held every note's record and tokens).
    func compacted() -> Catalog {
        let order = compactionOrder()
        let count = SegmentBuilder.sliceCount(documents: order.count, minimumSize: 256)
        let size = max((order.count + count - 1) / count, 1)
        // No slice is made for no notes (as `SegmentBuilder.build(notes:)`).
        var slices = order.isEmpty ? [] : [SegmentSlice](repeating: SegmentSlice(), count: (order.count + size - 1) / size)
        slices.withUnsafeMutableBufferPointer { buffer in
            let slots = buffer
            ParallelMap.perform(iterations: slots.count) { slice in
                for position in slice * size..<min(slice * size + size, order.count) {
                    let document = order[position]
                    if document < base.count {
                        slots[slice].add(base.analyzed(document))
                    } else {
                        slots[slice].add(deltaNotes[document - base.count])
                    }
                }
                slots[slice].sealTerms()
            }
        }
        return Catalog(segment: SegmentBuilder.build(slices: &slices))
    }

    /// The live base slots and the recent changes (as slots past the base) in path order; of
    /// two notes with one path, the later slot only (a recent change replaces the base's note).
    private func compactionOrder() -> [Int] {
        var documents: [(path: String, slot: Int)] = []
        documents.reserveCapacity(liveCount)
        for document in 0..<base.count where baseLive[document] { documents.append((base.records.path(document), document)) }
        for (offset, note) in deltaNotes.enumerated() { documents.append((note.record.path, base.count + offset)) }
        documents.sort { ExactPath.precedes($0.path, $1.path) || (ExactPath.same($0.path, $1.path) && $0.slot < $1.slot) }
        var order: [Int] = []
        order.reserveCapacity(documents.count)
        for (index, document) in documents.enumerated()
        where index + 1 == documents.count || !ExactPath.same(document.path, documents[index + 1].path) {
            order.append(document.slot)
        }
        return order
    }

    /// Whether the recent changes are large enough to be merged into the main segment.
    var needsCompaction: Bool {
        let dead = baseLive.count - baseLive.lazy.filter { $0 }.count
        return (deltaNotes.count > 256 || dead > 256) && (deltaNotes.count + dead) * 8 > base.count
    }
}
