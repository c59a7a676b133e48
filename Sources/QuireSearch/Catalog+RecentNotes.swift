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

    /// Reads the recent changes of a loaded catalog into `deltaNotes`, once, before an update
    /// changes them: a catalog that is only read (a warm search right after a large pull left
    /// many notes unmerged) never decodes them.
    mutating func loadRecentNotes() {
        guard deltaNotesPending else { return }
        deltaNotes = (0..<delta.count).map { delta.analyzed($0) }
        deltaNotesPending = false
    }
}
