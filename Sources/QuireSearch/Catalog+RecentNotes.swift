import QuireCore

extension Catalog {
    /// How many notes the recent changes hold.
    var recentCount: Int { deltaNotesPending ? delta.count : deltaNotes.count }

    /// How many slots of the main segment hold a removed or replaced note (every recent change
    /// is live, so the live base slots are the live notes less the recent ones).
    var deadBaseSlots: Int { base.count - (liveCount - recentCount) }

    /// The path of the recent change at `offset` (read from the loaded segment while its notes
    /// are not decoded).
    func recentPath(_ offset: Int) -> String {
        deltaNotesPending ? delta.records.path(offset) : deltaNotes[offset].record.path
    }

    /// The recent change at `offset` as an analyzed note (decoded from the loaded segment while
    /// `deltaNotesPending`; what a compaction replays).
    func recentNote(_ offset: Int) -> AnalyzedNote {
        deltaNotesPending ? delta.analyzed(offset) : deltaNotes[offset]
    }

    /// Drops the recent changes at `offsets` (an update removes or replaces them) and keeps the
    /// rest in `deltaNotes`, reading them from the loaded segment the first time an update
    /// needs them: a catalog that is only read (a warm search right after a large pull left
    /// many notes unmerged) never decodes them, and a replaced note is never decoded. They are
    /// decoded on every core (the record table locks its own decoding).
    mutating func keepRecentNotes(except offsets: Set<Int>) {
        if deltaNotesPending {
            let segment = delta
            deltaNotes = ParallelMap.map((0..<delta.count).filter { !offsets.contains($0) }) { segment.analyzed($0) }
            deltaNotesPending = false
        } else if !offsets.isEmpty {
            deltaNotes = deltaNotes.indices.filter { !offsets.contains($0) }.map { deltaNotes[$0] }
        }
    }

    /// Whether an update that keeps `kept` of the recent changes merges them with its notes
    /// (`mergeRecentChanges`) instead of building their segment anew from every recent note:
    /// when they are many (`recentMergeMinimum`) and their segment is theirs.
    func mergesRecentChanges(keeping kept: Int) -> Bool {
        kept >= max(recentMergeMinimum, 1) && (deltaNotesPending || delta.count == deltaNotes.count)
    }

    /// The recent changes but those at `offsets`, then `upserts`, as one segment: the notes
    /// kept are copied from the recent changes' segment (`SegmentMerge.build`: their postings,
    /// positions, forward index and records as they are) and only `upserts` are built. So an
    /// update costs what it changes and a copy of what stays, where replaying every recent
    /// note's tokens into a new build made a one-note edit cost half a second once 10,000
    /// notes of 100,000 were left unmerged after a pull (`defersCompaction` leaves up to half
    /// of the main segment so). The segment is the one that build would give, term by term and
    /// byte by byte; the notes are read from it when an update needs them (`deltaNotesPending`).
    mutating func mergeRecentChanges(except offsets: Set<Int>, adding upserts: [AnalyzedNote]) {
        let added = SegmentBuilder.build(notes: upserts)
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
        deltaNotes = []
        deltaNotesPending = true
    }
}
