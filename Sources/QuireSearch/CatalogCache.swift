import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// The catalog snapshot in `<vault>/.quire/cache/`: `catalog.bin` holds the large base segment,
/// `catalog.state` the rest (the segment of recent changes, which base slots are live, each
/// slot's stamp, the live slots in `PathOrder`, the watcher mark) and the id of the base it
/// belongs to, so that a few edited notes rewrite a few megabytes, not the whole index. The
/// files' format — header, sections, checksums — is `SnapshotFile`'s; this is what the sections
/// mean. Loading maps both files and uses everything in place: no record is decoded until it is
/// needed; the mappings are released when the last user goes.
enum CatalogCache {
    typealias Section = SnapshotFile.Section

    /// The state file that goes with the base file at `path`.
    static func statePath(_ path: String) -> String {
        (path.hasSuffix(".bin") ? String(path.dropLast(4)) : path) + ".state"
    }

    /// What a snapshot file holds besides the catalog and the stamps.
    struct Extras {
        /// The base file's id.
        var baseID: UInt64
        /// The watcher position the snapshot is up to date with, if any.
        var mark: WatchMark?
    }

    /// Loads a snapshot: the catalog, the stored stamps and the extras. Throws when either file
    /// is missing, of another version, damaged (a checksum, a size that does not fit) or when
    /// the state belongs to another base.
    static func load(_ path: String) throws(CacheError) -> (Catalog, CachedStamps, Extras) {
        let baseFile = try SnapshotFile.read(path, kind: .base)
        let state = try SnapshotFile.read(statePath(path), kind: .state)
        guard state.id == baseFile.id else { throw .corrupt("the state belongs to another base") }
        let base = try segment(baseFile.memory, baseFile.sections)
        let delta = try segment(state.memory, state.sections)
        let memory = state.memory
        let live = state[.live]
        let stamps = state[.stamps]
        let order = state[.order]
        let slots = base.count + delta.count
        guard live.length == base.count, stamps.length == slots * CachedStamps.stride, order.length % 4 == 0 else {
            throw .corrupt("bad stamp sections")
        }
        let liveBytes = UnsafeBufferPointer(start: (memory.base + live.offset).assumingMemoryBound(to: UInt8.self),
                                            count: live.length)
        var catalog = Catalog(segment: base, live: liveBytes.map { $0 != 0 })
        catalog.adopt(delta: delta)
        let pathOrder = FlatColumn<UInt32>(memory: memory, byteOffset: order.offset, count: order.length / 4)
        guard pathOrder.count == catalog.count,
              pathOrder.buffer.allSatisfy({ Int($0) < slots && catalog.isLive(Int($0)) }) else {
            throw .corrupt("bad path order")
        }
        catalog.loadedOrder = pathOrder
        let cached = CachedStamps(memory: memory, offset: stamps.offset, order: pathOrder, base: base.records,
                                  delta: delta.records)
        let markPlace = state[.mark]
        var mark: WatchMark?
        if markPlace.length == 24 {
            let words = (memory.base + markPlace.offset).assumingMemoryBound(to: UInt64.self)
            mark = WatchMark(token: WatchToken(instance: UInt64(littleEndian: words[0]),
                                               sequence: UInt64(littleEndian: words[1])),
                             rules: UInt64(littleEndian: words[2]))
        } else if markPlace.length != 0 {
            throw .corrupt("bad watch mark")
        }
        return (catalog, cached, Extras(baseID: baseFile.id, mark: mark))
    }

    /// The segment whose sections (`Section`, in the file's table from the first on) lie in
    /// `memory`, checked as far as loading can afford (`validate`).
    static func segment(_ memory: ColumnMemory, _ sections: [(offset: Int, length: Int)]) throws(CacheError) -> IndexSegment {
        for section in Section.allCases where sections[section.rawValue].length % section.elementSize != 0 {
            throw .corrupt("section \(section) has a partial element")
        }
        func place(_ section: Section) -> (offset: Int, count: Int) {
            (sections[section.rawValue].offset, sections[section.rawValue].length / section.elementSize)
        }
        let count = place(.recordOffsets).count
        guard place(.flags).count == count, place(.pathOffsets).count == count + 1 else {
            throw .corrupt("bad record sections")
        }
        let records = try RecordTable(memory: memory, recordsOffset: place(.records).offset,
                                      recordsLength: place(.records).count, offsetsOffset: place(.recordOffsets).offset,
                                      flagsOffset: place(.flags).offset, count: count,
                                      paths: (place(.pathOffsets).offset, place(.pathBytes).offset, place(.pathBytes).count))
        func column(_ section: Section) -> Column {
            Column(memory: memory, byteOffset: place(section).offset, count: place(section).count)
        }
        let segment = IndexSegment(
            records: records,
            terms: TermDictionary(bytes: ByteColumn(memory: memory, byteOffset: place(.termBytes).offset,
                                                    count: place(.termBytes).count),
                                  offsets: column(.termOffsets)),
            postingStarts: column(.postingStarts), postingDocs: column(.postingDocs),
            postingFrequencies: ByteColumn(memory: memory, byteOffset: place(.postingFrequencies).offset,
                                           count: place(.postingFrequencies).count),
            positions: FlatColumn<UInt16>(memory: memory, byteOffset: place(.positions).offset, count: place(.positions).count),
            termPositionStarts: column(.termPositionStarts), postingOverflow: column(.postingOverflow),
            forwardStarts: column(.forwardStarts), forward: column(.forward), titleLengths: column(.titleLengths),
            lengths: column(.lengths),
            sortKeys: FlatColumn<Double>(memory: memory, byteOffset: place(.sortKeys).offset, count: place(.sortKeys).count))
        try validate(segment)
        return segment
    }

    /// The bytes of each of a segment's sections, in `Section` order (what `segment(_:_:)` reads
    /// back). The segment's memory must outlive their use.
    static func sections(of segment: IndexSegment) -> [SnapshotFile.Chunk] {
        let (records, offsets) = segment.records.encodedSections
        let paths = PathColumn(segment.records)
        return Section.allCases.map { section -> SnapshotFile.Chunk in
            func raw<Element>(_ column: FlatColumn<Element>) -> SnapshotFile.Chunk {
                .raw(UnsafeRawPointer(column.pointer), column.count * MemoryLayout<Element>.stride)
            }
            switch section {
            case .records: return records.baseAddress.map { .raw($0, records.count) } ?? .bytes([])
            case .recordOffsets: return offsets.baseAddress.map { .raw($0, offsets.count) } ?? .bytes([])
            case .flags: return .bytes((0..<segment.records.count).map(segment.records.flag))
            case .termBytes: return raw(segment.terms.bytes)
            case .termOffsets: return raw(segment.terms.offsets)
            case .postingStarts: return raw(segment.postingStarts)
            case .postingDocs: return raw(segment.postingDocs)
            case .postingFrequencies: return raw(segment.postingFrequencies)
            case .positions: return raw(segment.positions)
            case .termPositionStarts: return raw(segment.termPositionStarts)
            case .postingOverflow: return raw(segment.postingOverflow)
            case .forwardStarts: return raw(segment.forwardStarts)
            case .forward: return raw(segment.forward)
            case .titleLengths: return raw(segment.titleLengths)
            case .lengths: return raw(segment.lengths)
            case .sortKeys: return raw(segment.sortKeys)
            case .pathOffsets: return .bytes(paths.offsets.withUnsafeBytes { Array($0) })
            case .pathBytes: return .bytes(paths.bytes)
            }
        }
    }

    /// Checks that the columns' sizes agree and that each offsets column starts at 0 and ends
    /// at the end of what it indexes. Offsets in between are checked where they are used
    /// (`FlatColumn.span`), and ids and document numbers inside postings likewise: the
    /// checksums already say the file is the one written, so this only guards against a file
    /// made to pass them (it never reads out of bounds).
    static func validate(_ segment: IndexSegment) throws(CacheError) {
        let documents = segment.records.count
        let terms = segment.terms.offsets.count - 1
        guard terms >= 0, segment.postingStarts.count == terms + 1,
              segment.forwardStarts.count == documents + 1, segment.titleLengths.count == documents,
              segment.lengths.count == documents, segment.sortKeys.count == documents * 3,
              segment.postingDocs.count == segment.postingFrequencies.count,
              segment.termPositionStarts.count == terms + 1, segment.postingOverflow.count % PostingFrequencies.entrySize == 0 else {
            throw .corrupt("column sizes disagree")
        }
        func bounded(_ column: Column, ending end: Int) -> Bool {
            column.count > 0 && column[0] == 0 && Int(column[column.count - 1]) == end
        }
        guard bounded(segment.terms.offsets, ending: segment.terms.bytes.count),
              bounded(segment.postingStarts, ending: segment.postingDocs.count),
              bounded(segment.forwardStarts, ending: segment.forward.count),
              bounded(segment.termPositionStarts, ending: segment.positions.count) else {
            throw .corrupt("offsets out of range")
        }
    }
}

/// The stamps of a loaded snapshot, read in place: one per slot (base documents, then delta
/// documents), and the live slots in `PathOrder`, so that the walk of the vault can be
/// compared with them in one pass without building anything.
struct CachedStamps: @unchecked Sendable {
    /// Bytes per slot: size, mtime, ctime, inode, content hash.
    static let stride = 40
    let memory: ColumnMemory
    let offset: Int
    let order: FlatColumn<UInt32>
    let base: RecordTable
    let delta: RecordTable

    /// The stamp stored for `slot`.
    func stored(_ slot: Int) -> StoredStamp {
        let start = memory.base + offset + slot * Self.stride
        func word(_ index: Int) -> UInt64 { UInt64(littleEndian: (start + index * 8).loadUnaligned(as: UInt64.self)) }
        return StoredStamp(stamp: FileStamp(size: word(0), modifiedNanoseconds: Int64(bitPattern: word(1)),
                                            changedNanoseconds: Int64(bitPattern: word(2)), inode: word(3)),
                           contentHash: word(4))
    }

    /// Calls `body` with the path bytes of `slot`.
    func withPath<T>(_ slot: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        slot < base.count ? base.withPath(slot, body) : delta.withPath(slot - base.count, body)
    }

    /// The stamp stored for `path` (a binary search of the path order), nil when the
    /// snapshot has no such path.
    func lookup(_ path: String) -> StoredStamp? {
        slot(of: path).map(stored)
    }

    /// The slot of `path` in the snapshot (a binary search of the path order), nil when the
    /// snapshot has no such path.
    func slot(of path: String) -> Int? {
        Self.search(path, count: order.count) { index, wanted in
            withPath(Int(order[index])) { Self.compare($0, wanted) }
        }.map { Int(order[$0]) }
    }

    /// The index of `path` among `count` paths in `PathOrder`, nil when none is equal:
    /// `compare(index, path)` orders the path at `index` against `path` (as `compare(_:_:)`).
    static func search(_ path: String, count: Int, _ compare: (Int, UnsafeRawBufferPointer) -> Int) -> Int? {
        var path = path
        return path.withUTF8 { bytes -> Int? in
            let wanted = UnsafeRawBufferPointer(bytes)
            var low = 0
            var high = count
            while low < high {
                let middle = (low + high) / 2
                let comparison = compare(middle, wanted)
                if comparison == 0 { return middle }
                if comparison < 0 { low = middle + 1 } else { high = middle }
            }
            return nil
        }
    }

    /// The index of `path` in `paths` (in `PathOrder`), nil when none is equal to it by bytes.
    static func index(of path: String, in paths: [String]) -> Int? {
        search(path, count: paths.count) { index, wanted in
            var walked = paths[index]
            return walked.withUTF8 { compare(UnsafeRawBufferPointer($0), wanted) }
        }
    }

    /// 0 when two paths are equal, -1 when `stored` comes first in `PathOrder`, else 1.
    static func compare(_ stored: UnsafeRawBufferPointer, _ wanted: UnsafeRawBufferPointer) -> Int {
        if ExactPath.same(stored, wanted) { return 0 }
        return PathOrder.precedes(stored, wanted) ? -1 : 1
    }

    /// Every live path's stamp, by path (what an update that changes the catalog works on).
    var dictionary: [ExactPath: StoredStamp] {
        var result: [ExactPath: StoredStamp] = [:]
        result.reserveCapacity(order.count)
        for slot in order.buffer {
            result[ExactPath(withPath(Int(slot)) { String(decoding: $0, as: UTF8.self) })] = stored(Int(slot))
        }
        return result
    }

    /// Compares the walk of the vault (`paths` in `PathOrder` with their `stamps`) with the
    /// snapshot in one merge pass: the indices of paths that are new or whose stamp differs,
    /// and the stored paths that are gone. Nil when `paths` are not in `PathOrder` (the caller
    /// then compares by path).
    func compare(paths: [String], stamps: [FileStamp?]) -> (changed: [Int], removed: [String])? {
        var changed: [Int] = []
        var removed: [String] = []
        var cursor = 0
        // Whether the previous path was found among the stored ones (then it is the one just
        // before `cursor`): a path equal to the stored one at `cursor` follows it in `PathOrder`
        // (the stored order is), and the order of the two need not be checked.
        var previousFound = false
        for index in paths.indices {
            var path = paths[index]
            let start = cursor
            var found = false
            let matched: Bool = path.withUTF8 { bytes in
                let walked = UnsafeRawBufferPointer(bytes)
                while cursor < order.count {
                    let slot = Int(order[cursor])
                    let ahead = withPath(slot) { Self.compare($0, walked) }
                    if ahead == 0 {
                        cursor += 1
                        found = true
                        let stamp = index < stamps.count ? stamps[index] : nil
                        return stamp != nil && stored(slot).stamp == stamp
                    }
                    if ahead > 0 { return false }
                    removed.append(withPath(slot) { String(decoding: $0, as: UTF8.self) })
                    cursor += 1
                }
                return false
            }
            let inPlace = found && cursor == start + 1
            if index > 0, !(inPlace && previousFound), !PathOrder.precedes(paths[index - 1], path) { return nil }
            previousFound = found
            if !matched { changed.append(index) }
        }
        while cursor < order.count {
            removed.append(withPath(Int(order[cursor])) { String(decoding: $0, as: UTF8.self) })
            cursor += 1
        }
        return (changed, removed)
    }
}
