import QuireCore

/// The state file written behind a command's answer (`CatalogStore.writesBehind`).
extension CatalogStore {
    /// Writes the state file of a snapshot whose base `catalog.bin` already holds (`baseID`)
    /// behind the caller's answer (`WritesBehind`): the slots' stamps and order are worked out
    /// there as well (`patchedSlots`), from a copy of the catalog, which is never changed in
    /// place (its records decode under a lock), so the caller may go on reading it.
    mutating func writeStateBehind(_ cached: CachedStamps, _ changes: [ExactPath: StoredStamp?], baseID: UInt64) {
        let catalog = self.catalog, path = cachePath, mark = watchMark
        writes.start {
            let (stamp, order) = Self.patchedSlots(catalog, cached, changes)
            _ = try? CatalogCache.save(catalog, stamp: stamp, order: order, to: path, baseID: baseID, mark: mark)
        }
        report.cacheWritten = true
        needsWrite = false
    }
}
