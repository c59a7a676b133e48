import Dispatch
import QuireCore
import Synchronization

/// The state file written behind a command's answer (`CatalogStore.writesBehind`).
extension CatalogStore {
    /// Waits for every snapshot write this process left running (`writesBehind`): a command
    /// calls it before it ends, so that no write is cut off halfway (which would leave the
    /// snapshot behind and the next command reading the changed notes again). Every snapshot
    /// write waits for them first, so writes land in the order they were made.
    public static func finishWrites() {
        let running = writesRunning.withLock { running in
            defer { running = [] }
            return running
        }
        for group in running { group.wait() }
    }

    /// How many writes behind this process has started and not yet waited for (tests).
    static var writesBehindPending: Int { writesRunning.withLock { $0.count } }

    /// Writes the state file of a snapshot whose base `catalog.bin` already holds (`baseID`)
    /// on a thread of its own: the slots' stamps and order are worked out there as well
    /// (`patchedSlots`), from a copy of the catalog, which is never changed in place (its
    /// records decode under a lock), so the caller may go on reading it.
    mutating func writeStateBehind(_ cached: CachedStamps, _ changes: [ExactPath: StoredStamp?], baseID: UInt64) {
        let catalog = self.catalog, path = cachePath, mark = watchMark
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            let (stamp, order) = Self.patchedSlots(catalog, cached, changes)
            _ = try? CatalogCache.save(catalog, stamp: stamp, order: order, to: path, baseID: baseID, mark: mark)
            group.leave()
        }
        writesRunning.withLock { $0.append(group) }
        report.cacheWritten = true
        needsWrite = false
    }
}

/// The snapshot writes this process has running (`CatalogStore.writeStateBehind`).
private let writesRunning = Mutex<[DispatchGroup]>([])
