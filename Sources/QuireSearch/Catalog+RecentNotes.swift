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
}
