import Dispatch
import Foundation
import QuireCore

extension CatalogCache {
    /// Writes a snapshot of `catalog` with each path's stamp: the base segment to
    /// `catalog.bin` unless `baseID` says the file already holds it (the base is the one loaded
    /// from it), then everything else — the segment of recent changes, which base slots are
    /// live, the stamps, the path order and the watcher mark — to the small `catalog.state`. Each file is written
    /// atomically (`SnapshotFile`); the state names the base it belongs to, so a crash between
    /// the two writes leaves a pair that does not match, which is rebuilt. Returns the base's
    /// id. The catalog's columns stay alive during the writes.
    @discardableResult
    static func save(_ catalog: Catalog, stamps: [ExactPath: StoredStamp], to path: String,
                     baseID known: UInt64? = nil, mark: WatchMark? = nil) throws(CacheError) -> UInt64 {
        var live: [Int] = []
        for slot in 0..<catalog.capacity where catalog.isLive(slot) { live.append(slot) }
        let paths = live.map { catalog.path($0) }
        var bySlot = [StoredStamp?](repeating: nil, count: catalog.capacity)
        for (slot, path) in zip(live, paths) { bySlot[slot] = stamps[ExactPath(path)] }
        let order = paths.indices.sorted { PathOrder.precedes(paths[$0], paths[$1]) }.map { UInt32(live[$0]) }
        return try save(catalog, stamp: { bySlot[$0] }, order: order, to: path, baseID: known, mark: mark)
    }

    /// `save(_:stamps:to:baseID:mark:)` with each live slot's stamp given by `stamp` and the
    /// live slots in `PathOrder` given as `order` (worked out from the snapshot loaded when
    /// only a few notes changed since).
    static func save(_ catalog: Catalog, stamp: (Int) -> StoredStamp?, order: [UInt32], to path: String,
                     baseID known: UInt64? = nil, mark: WatchMark? = nil) throws(CacheError) -> UInt64 {
        var baseID = known ?? 0
        var releasing: [DispatchGroup] = []
        defer { for group in releasing { group.wait() } }
        if known == nil {
            baseID = UInt64.random(in: 1...UInt64.max)
            if let group = try SnapshotFile.write(sections(of: catalog.base), kind: .base, id: baseID, to: path) {
                releasing.append(group)
            }
        }
        var chunks = sections(of: catalog.delta)
        chunks.append(.bytes(catalog.baseLive.map { $0 ? 1 : 0 }))
        var stampBytes = BinaryWriter()
        stampBytes.bytes.reserveCapacity(catalog.capacity * CachedStamps.stride)
        for slot in 0..<catalog.capacity {
            let stored = catalog.isLive(slot) ? stamp(slot) : nil
            let stamp = stored?.stamp
            stampBytes.u64(stamp?.size ?? 0)
            stampBytes.u64(UInt64(bitPattern: stamp?.modifiedNanoseconds ?? -1))
            stampBytes.u64(UInt64(bitPattern: stamp?.changedNanoseconds ?? -1))
            stampBytes.u64(stamp?.inode ?? 0)
            stampBytes.u64(stored?.contentHash ?? 0)
        }
        chunks.append(.bytes(stampBytes.bytes))
        var orderBytes = BinaryWriter()
        orderBytes.bytes.reserveCapacity(order.count * 4)
        for slot in order { orderBytes.u32(slot) }
        chunks.append(.bytes(orderBytes.bytes))
        var markBytes = BinaryWriter()
        if let mark {
            markBytes.u64(mark.token.instance)
            markBytes.u64(mark.token.sequence)
            markBytes.u64(mark.rules)
        }
        chunks.append(.bytes(markBytes.bytes))
        if let group = try SnapshotFile.write(chunks, kind: .state, id: baseID, to: statePath(path)) {
            releasing.append(group)
        }
        return baseID
    }
}
