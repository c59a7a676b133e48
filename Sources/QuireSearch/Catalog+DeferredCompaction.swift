extension Catalog {
    /// Whether an update, or a snapshot written now, merges the recent changes into the main
    /// segment. Normally once they and the removed slots reach an eighth of it
    /// (`needsCompaction`); when compaction is deferred (a command opening the catalog right
    /// after a pull: merging the whole vault would stall its answer), only at half of it — a
    /// sync's refresh of the catalog merges at the usual point, off a command's path.
    var compactsNow: Bool {
        guard needsCompaction else { return false }
        guard defersCompaction else { return true }
        return (recentCount + deadBaseSlots) * 2 > base.count
    }

    /// `compacted()`, keeping `catalog`'s compaction policy.
    func compacted(keepingPolicyOf catalog: Catalog) -> Catalog {
        var merged = compacted()
        merged.defersCompaction = catalog.defersCompaction
        return merged
    }
}
