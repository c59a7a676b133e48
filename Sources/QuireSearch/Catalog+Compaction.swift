import QuireCore

extension Catalog {
    /// The same notes in one segment without removed slots (what a snapshot should hold once
    /// the recent changes grow large), built in memory (see `compactionSlices`).
    func compacted() -> Catalog {
        var slices = compactionSlices()
        return Catalog(segment: SegmentBuilder.build(slices: &slices))
    }

    /// `compacted()` written straight into a new base snapshot at `path`: the main segment
    /// (read in place, its pages given back as it goes) and the recent changes merged term by
    /// term and document by document (`SegmentMerge`), in chunks of at most `chunkLimit`
    /// values, so that neither the compacted index nor the notes of the vault are ever held
    /// whole in memory; the catalog returned reads the file. When the file cannot be made, the
    /// segment is built in memory and nothing is written (no `WrittenBase`); throws when
    /// writing fails midway (this catalog is still whole: the caller compacts in memory).
    /// `inPlace`: the chunks are built in the file's mapping where it has one (else in a buffer).
    func compacted(snapshot path: String, chunkLimit: Int = Self.compactionChunkLimit, inPlace: Bool = true)
        throws(CacheError) -> (Catalog, SegmentBuilder.WrittenBase?) {
        let recent = delta
        var baseDocuments = [Int32](repeating: -1, count: base.count)
        var recentDocuments = [Int32](repeating: -1, count: recent.count)
        var order: [(source: Int32, document: Int32)] = []
        for slot in compactionOrder() {
            if slot < base.count {
                baseDocuments[slot] = Int32(order.count)
                order.append((0, Int32(slot)))
            } else {
                recentDocuments[slot - base.count] = Int32(order.count)
                order.append((1, Int32(slot - base.count)))
            }
        }
        let merge = SegmentMerge([SegmentMerge.Source(segment: base, documents: baseDocuments),
                                  SegmentMerge.Source(segment: recent, documents: recentDocuments)], order: order)
        // What planning the merge counted and freed goes back before the chunks are filled.
        FreedMemory.giveBack()
        guard let (segment, written) = try merge.write(to: path, chunkLimit: chunkLimit, inPlace: inPlace) else { return (compacted(), nil) }
        return (Catalog(segment: segment), written)
    }

    /// Lets go of the table of every path (an update builds it again; a compaction makes a
    /// catalog without it): 10 to 15 MB at 100,000 notes, not held while the catalog is merged.
    mutating func releasePathIndex() {
        pathIndex = nil
    }

    /// The most values a chunk of the compacted snapshot's columns holds (2 M: 8 MB of buffer,
    /// a few dozen chunks at 100,000 notes, each filled on every core, instead of a buffer of
    /// 32 MB or 120 MB in a dozen or two passes).
    static let compactionChunkLimit = 1 << 21

    /// How many notes a slice replays between two `releaseReadPages` of the old base.
    private static let releaseInterval = 2048

    /// The live notes in path order folded into slices: each note's tokens are replayed from its
    /// segment straight into a slice and dropped, so the notes of the whole vault are never held
    /// at once, only the slices being built (a compaction at 100,000 notes held every note's
    /// record and tokens).
    private func compactionSlices() -> [SegmentSlice] {
        let order = compactionOrder()
        let count = SegmentBuilder.sliceCount(documents: order.count, minimumSize: 256)
        let size = max((order.count + count - 1) / count, 1)
        // No slice is made for no notes (as `SegmentBuilder.build(notes:)`).
        var slices = order.isEmpty ? [] : [SegmentSlice](repeating: SegmentSlice(), count: (order.count + size - 1) / size)
        slices.withUnsafeMutableBufferPointer { buffer in
            let slots = buffer
            ParallelMap.perform(iterations: slots.count) { slice in
                for position in slice * size..<min(slice * size + size, order.count) {
                    // The old base's pages read so far given back now and then (a hint, safe
                    // while other slices read: a page is read again from the page cache).
                    if position % Self.releaseInterval == Self.releaseInterval - 1 { base.releaseReadPages() }
                    let document = order[position]
                    if document < base.count {
                        slots[slice].add(base.analyzed(document, keepingRecord: false))
                    } else {
                        slots[slice].add(recentNote(document - base.count))
                    }
                }
                slots[slice].sealTerms()
            }
        }
        return slices
    }

    /// The live base slots and the recent changes (as slots past the base) in path order; of
    /// two notes with one path, the later slot only (a recent change replaces the base's note).
    private func compactionOrder() -> [Int] {
        var documents: [(path: String, slot: Int)] = []
        documents.reserveCapacity(liveCount)
        for document in 0..<base.count where baseLive[document] { documents.append((base.records.path(document), document)) }
        for offset in 0..<recentCount { documents.append((recentPath(offset), base.count + offset)) }
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
        let dead = deadBaseSlots
        return (recentCount > 256 || dead > 256) && (recentCount + dead) * 8 > base.count
    }
}
