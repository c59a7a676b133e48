import Foundation
import QuireCore

/// Writing the snapshot, and the compaction that merges the recent changes into a new base
/// written straight into `catalog.bin`.
extension CatalogStore {
    /// Merges the recent changes into a new base written straight into `catalog.bin` as it is
    /// built (`Catalog.compacted(snapshot:)`): the catalog then reads that file, and only the
    /// state file is left to write. When writing fails midway, the catalog is compacted in
    /// memory instead (and the whole snapshot written as usual).
    private mutating func compactIntoSnapshot() {
        catalog.releasePathIndex()
        // What parsing the changed notes freed goes back to the system before the merge
        // allocates (glibc keeps it in its arenas: 200 MB of a sync of 10,000 notes).
        FreedMemory.giveBack()
        do throws(CacheError) {
            var (compacted, written) = try catalog.compacted(snapshot: cachePath)
            compacted.defersCompaction = catalog.defersCompaction
            catalog = compacted
            if let written {
                savedBase = (catalog.base.records, written.id)
                oldBaseRemoval = written.removal
            }
        } catch {
            catalog = catalog.compacted(keepingPolicyOf: catalog)
        }
    }

    /// Writes the snapshot now; a failure is kept in `report.cacheIssue` (searching still works).
    public mutating func writeSnapshot() {
        writes.finish()
        defer {
            oldBaseRemoval?.wait()
            oldBaseRemoval = nil
        }
        progress?.begin(.writing)
        let directory = root + "/.quire/cache"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            if catalog.compactsNow { catalog = catalog.compacted(keepingPolicyOf: catalog) }
            report.cacheIssue = .io(path: directory, message: error.localizedDescription)
            return
        }
        SnapshotFile.removeAbandonedTemporaries(in: directory)
        if catalog.compactsNow { compactIntoSnapshot() }
        do throws(CacheError) {
            let known = savedBase.flatMap { $0.table === catalog.base.records ? $0.id : nil }
            let id: UInt64
            if case .rebuilt(let base, let rebuilt) = stamps, base === catalog.base.records,
               catalog.capacity == rebuilt.stamps.count {
                // Slot by slot, in the order the rebuild worked out.
                id = try CatalogCache.save(catalog, stamp: { rebuilt.stamps[$0] }, order: rebuilt.order, to: cachePath,
                                           baseID: known, mark: watchMark)
            } else if let (cached, changes) = stamps.loaded, cached.base === catalog.base.records {
                if writesBehind, let known {
                    writeStateBehind(cached, changes, baseID: known)
                    return
                }
                let (stamp, order) = Self.patchedSlots(catalog, cached, changes)
                id = try CatalogCache.save(catalog, stamp: stamp, order: order, to: cachePath, baseID: known,
                                           mark: watchMark)
            } else {
                let table = stamps.table
                id = try CatalogCache.save(catalog, stamps: table, to: cachePath, baseID: known, mark: watchMark)
                stamps = .table(table)  // the loaded snapshot's slots no longer match the base
            }
            savedBase = (catalog.base.records, id)
            report.cacheWritten = true
            needsWrite = false
        } catch {
            report.cacheIssue = error
        }
    }

    /// Each live slot's stamp and the live slots in `PathOrder`, worked out from the loaded
    /// snapshot (whose base the catalog still has) and the paths changed since, without a
    /// table of every path: base slots keep their stored stamps (a touched note its new one)
    /// and their order; the few notes of the recent-changes segment are sorted and merged in.
    static func patchedSlots(_ catalog: Catalog, _ cached: CachedStamps,
                             _ changes: [ExactPath: StoredStamp?]) -> ((Int) -> StoredStamp?, [UInt32]) {
        let baseCount = catalog.base.count
        var touched: [Int: StoredStamp] = [:]
        for (path, stamp) in changes {
            if let stamp, let slot = cached.slot(of: path.string), slot < baseCount, catalog.isLive(slot) {
                touched[slot] = stamp
            }
        }
        let stamp: (Int) -> StoredStamp? = { slot in
            if let stamp = touched[slot] { return stamp }
            if slot < baseCount { return cached.stored(slot) }
            let path = catalog.path(slot)
            return changes[ExactPath(path)] ?? cached.lookup(path)
        }
        let recent = (baseCount..<catalog.capacity).map { ($0, catalog.path($0)) }
            .sorted { PathOrder.precedes($0.1, $1.1) }
        var order: [UInt32] = []
        order.reserveCapacity(catalog.count)
        var next = 0
        for slot in cached.order.buffer where Int(slot) < baseCount && catalog.isLive(Int(slot)) {
            while next < recent.count && catalog.withPath(Int(slot), { stored in
                var path = recent[next].1
                return path.withUTF8 { PathOrder.precedes(UnsafeRawBufferPointer($0), stored) }
            }) {
                order.append(UInt32(recent[next].0))
                next += 1
            }
            order.append(slot)
        }
        for (slot, _) in recent[next...] { order.append(UInt32(slot)) }
        return (stamp, order)
    }
}
