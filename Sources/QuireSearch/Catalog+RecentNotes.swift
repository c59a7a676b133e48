import QuireCore

extension Catalog {
    /// How many notes the recent changes hold.
    var recentCount: Int { delta.count }

    /// How many slots of the main segment hold a removed or replaced note (every recent change
    /// is live, so the live base slots are the live notes less the recent ones).
    var deadBaseSlots: Int { base.count - (liveCount - recentCount) }

    /// The path of the recent change at `offset`.
    func recentPath(_ offset: Int) -> String {
        delta.records.path(offset)
    }

    /// The recent change at `offset` as an analyzed note, decoded from its segment (what a
    /// compaction into a segment in memory replays).
    func recentNote(_ offset: Int) -> AnalyzedNote {
        delta.analyzed(offset)
    }

    /// The recent changes but those at `offsets`, then `added`'s documents, as one segment: the
    /// notes kept are copied from the recent changes' segment as they are (`SegmentMerge.build`:
    /// their postings, positions, forward index and records, each term renumbered through the
    /// merged dictionary), never decoded or replayed, and only `added` was built (from its
    /// notes' text, by the caller). So an update costs what it changes and a copy of what stays:
    /// replaying every recent note's tokens into a new build made a one-note edit cost half a
    /// second once 10,000 notes of 100,000 were left unmerged after a pull
    /// (`defersCompaction` leaves up to a quarter of the notes edited so). The segment is the
    /// one a build of the same notes in this order gives, term by term and byte by byte.
    mutating func mergeRecentChanges(except offsets: Set<Int>, adding added: IndexSegment) {
        if offsets.count == delta.count {
            delta = added
            return
        }
        var kept = [Int32](repeating: -1, count: delta.count)
        var order: [(source: Int32, document: Int32)] = []
        order.reserveCapacity(delta.count - offsets.count + added.count)
        for offset in 0..<delta.count where !offsets.contains(offset) {
            kept[offset] = Int32(order.count)
            order.append((0, Int32(offset)))
        }
        var addedDocuments = [Int32](repeating: -1, count: added.count)
        for document in 0..<added.count {
            addedDocuments[document] = Int32(order.count)
            order.append((1, Int32(document)))
        }
        delta = SegmentMerge([SegmentMerge.Source(segment: delta, documents: kept),
                              SegmentMerge.Source(segment: added, documents: addedDocuments)], order: order).build()
    }
}
