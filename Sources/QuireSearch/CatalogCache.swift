import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// The catalog snapshot in `<vault>/.quire/cache/`: `catalog.bin` holds the large base segment,
/// `catalog.state` the rest (the segment of recent changes, which base slots are live, each
/// slot's stamp, the live slots in `PathOrder`) and the id of the base it belongs to, so that a
/// few edited notes rewrite a few megabytes, not the whole index. Each file is a header (magic,
/// version, id, section table) and 8-byte aligned sections: a segment's records with their
/// offsets and flags, its term dictionary and flat columns. Loading maps both files and uses
/// everything in place: no record is decoded until it is needed; the mappings are released
/// when the last user goes.
enum CatalogCache {
    static let magic: [UInt8] = Array("QUIRECAT".utf8)
    static let stateMagic: [UInt8] = Array("QUIRESTA".utf8)
    /// Raised whenever what the index holds changes (13: symbols, emoji and `C++` are tokens;
    /// 14: name terms of titles and aliases; 15: the first `# heading` of an untitled note;
    /// 16: inline `#tags` of the body and a `tag` key; 17: words a person reads; 18: dates from
    /// the file's time for notes without them, and Thai, Lao, Khmer and Burmese words by ICU;
    /// 19: a record says whether its note has a title of its own and which front-matter format
    /// it carries; 20: a record ends with its links and anchors (`BinaryCoding+Links`), and
    /// link terms (`\u{1}L:`, `\u{1}S:`) are indexed).
    static let version: UInt32 = 20
    /// Records, record offsets, flags, term bytes, eleven columns and the sort keys.
    static let sectionsPerSegment = Section.allCases.count

    /// The sections of a segment, in the order of the file's section table.
    enum Section: Int, CaseIterable {
        case records, recordOffsets, flags, termBytes, termOffsets, postingStarts, postingDocs,
             postingFrequencies, positions, termPositionStarts, positionOverflow, forwardStarts, forward,
             titleLengths, lengths, sortKeys
    }

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

    /// Loads a snapshot: the catalog, the stored stamps and the extras.
    static func load(_ path: String) throws(CacheError) -> (Catalog, CachedStamps, Extras) {
        let (baseMemory, baseID, baseSections) = try readFile(path, magic: magic, sections: sectionsPerSegment)
        let (memory, stateID, sections) = try readFile(statePath(path), magic: stateMagic, sections: sectionsPerSegment + 4)
        guard stateID == baseID else { throw .corrupt("the state belongs to another base") }
        var next = 0
        let base = try segment(baseMemory, &next, baseSections)
        next = 0
        let delta = try segment(memory, &next, sections)
        let (liveOffset, liveLength) = sections[next]
        let (stampOffset, stampLength) = sections[next + 1]
        let (orderOffset, orderLength) = sections[next + 2]
        let slots = base.count + delta.count
        guard liveLength == base.count, stampLength == slots * CachedStamps.stride, orderLength % 4 == 0 else {
            throw .corrupt("bad stamp sections")
        }
        let liveBytes = UnsafeBufferPointer(start: (memory.base + liveOffset).assumingMemoryBound(to: UInt8.self),
                                            count: liveLength)
        let live = liveBytes.map { $0 != 0 }
        var catalog = Catalog(segment: base, live: live)
        catalog.adopt(delta: delta)
        let order = FlatColumn<UInt32>(memory: memory, byteOffset: orderOffset, count: orderLength / 4)
        guard order.count == catalog.count, order.buffer.allSatisfy({ Int($0) < slots && catalog.isLive(Int($0)) }) else {
            throw .corrupt("bad path order")
        }
        catalog.loadedOrder = order
        let stamps = CachedStamps(memory: memory, offset: stampOffset, order: order, base: base.records,
                                  delta: delta.records)
        let (markOffset, markLength) = sections[next + 3]
        var mark: WatchMark?
        if markLength == 24 {
            let words = (memory.base + markOffset).assumingMemoryBound(to: UInt64.self)
            mark = WatchMark(token: WatchToken(instance: words[0], sequence: words[1]), rules: words[2])
        } else if markLength != 0 {
            throw .corrupt("bad watch mark")
        }
        return (catalog, stamps, Extras(baseID: baseID, mark: mark))
    }

    /// Maps a snapshot file and reads its header: the memory, the id and the section table.
    private static func readFile(_ path: String, magic: [UInt8],
                                 sections count: Int) throws(CacheError) -> (ColumnMemory, UInt64, [(Int, Int)]) {
        let memory = try map(path)
        var reader = BinaryReader(base: memory.base.assumingMemoryBound(to: UInt8.self), count: memory.byteCount)
        for byte in magic where try reader.u8() != byte { throw .corrupt("bad magic") }
        let version = try reader.u32()
        guard version == Self.version else { throw .oldVersion(version) }
        let id = try reader.u64()
        let sectionCount = Int(try reader.u32())
        guard sectionCount == count else { throw .corrupt("bad section count") }
        var sections: [(Int, Int)] = []
        for _ in 0..<sectionCount {
            let offset = Int(try reader.u64())
            let length = Int(try reader.u64())
            guard offset % 8 == 0, offset >= 0, length >= 0, offset <= memory.byteCount - length else {
                throw .corrupt("bad section bounds")
            }
            sections.append((offset, length))
        }
        return (memory, id, sections)
    }

    static func segment(_ memory: ColumnMemory, _ next: inout Int,
                                _ sections: [(Int, Int)]) throws(CacheError) -> IndexSegment {
        func section() -> (Int, Int) { defer { next += 1 }; return sections[next] }
        let (recordsOffset, recordsLength) = section()
        let (offsetsOffset, offsetsLength) = section()
        let (flagsOffset, flagsLength) = section()
        let count = offsetsLength / 8
        guard offsetsLength % 8 == 0, flagsLength == count else { throw .corrupt("bad record sections") }
        let records = try RecordTable(memory: memory, recordsOffset: recordsOffset, recordsLength: recordsLength,
                                      offsetsOffset: offsetsOffset, flagsOffset: flagsOffset, count: count)
        func column() -> Column {
            let (offset, length) = section()
            return Column(memory: memory, byteOffset: offset, count: length / 4)
        }
        let (bytesOffset, bytesLength) = section()
        let segment = IndexSegment(
            records: records,
            terms: TermDictionary(bytes: ByteColumn(memory: memory, byteOffset: bytesOffset, count: bytesLength),
                                  offsets: column()),
            postingStarts: column(), postingDocs: column(), postingFrequencies: column(),
            positions: column(), termPositionStarts: column(), positionOverflow: column(), forwardStarts: column(), forward: column(), titleLengths: column(), lengths: column(),
            sortKeys: {
                let (offset, length) = section()
                return FlatColumn<Double>(memory: memory, byteOffset: offset, count: length / 8)
            }())
        try validate(segment)
        return segment
    }

    /// Checks that the columns' sizes agree and that each offsets column starts at 0 and ends
    /// at the end of what it indexes. Offsets in between are checked where they are used
    /// (`FlatColumn.span`), and ids and document numbers inside postings likewise: reading
    /// every offset here would cost more than the rest of loading, so a damaged file can give
    /// wrong results for the damaged part but never reads out of bounds.
    static func validate(_ segment: IndexSegment) throws(CacheError) {
        let documents = segment.records.count
        let terms = segment.terms.offsets.count - 1
        guard terms >= 0, segment.postingStarts.count == terms + 1,
              segment.forwardStarts.count == documents + 1, segment.titleLengths.count == documents,
              segment.lengths.count == documents, segment.sortKeys.count == documents * 3,
              segment.postingDocs.count == segment.postingFrequencies.count,
              segment.termPositionStarts.count == terms + 1, segment.positionOverflow.count % 2 == 0 else {
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

    private static func map(_ path: String) throws(CacheError) -> ColumnMemory {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { throw .missing }
            throw .io(path: path, message: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .io(path: path, message: String(cString: strerror(errno))) }
        let size = Int(status.st_size)
        guard size >= 16 else { throw .corrupt("file too short") }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw .io(path: path, message: String(cString: strerror(errno)))
        }
        return ColumnMemory(base: UnsafeRawPointer(address), byteCount: size) { pointer, length in
            munmap(UnsafeMutableRawPointer(mutating: pointer), length)
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

    /// Whether two byte strings are equal.
    static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard let left = a.baseAddress, let right = b.baseAddress else { return true }
        return memcmp(left, right, a.count) == 0
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

    /// 0 when two paths are equal, -1 when `stored` comes first in `PathOrder`, else 1.
    static func compare(_ stored: UnsafeRawBufferPointer, _ wanted: UnsafeRawBufferPointer) -> Int {
        if same(stored, wanted) { return 0 }
        return PathOrder.precedes(stored, wanted) ? -1 : 1
    }

    /// Every live path's stamp, by path (what an update that changes the catalog works on).
    var dictionary: [String: StoredStamp] {
        var result: [String: StoredStamp] = [:]
        result.reserveCapacity(order.count)
        for slot in order.buffer {
            result[withPath(Int(slot)) { String(decoding: $0, as: UTF8.self) }] = stored(Int(slot))
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
        var previous: String?
        for index in paths.indices {
            var path = paths[index]
            if let previous, !PathOrder.precedes(previous, path) { return nil }
            previous = path
            let matched: Bool = path.withUTF8 { bytes in
                let walked = UnsafeRawBufferPointer(bytes)
                while cursor < order.count {
                    let slot = Int(order[cursor])
                    let ahead = withPath(slot) { Self.compare($0, walked) }
                    if ahead == 0 {
                        cursor += 1
                        let stamp = index < stamps.count ? stamps[index] : nil
                        return stamp != nil && stored(slot).stamp == stamp
                    }
                    if ahead > 0 { return false }
                    removed.append(withPath(slot) { String(decoding: $0, as: UTF8.self) })
                    cursor += 1
                }
                return false
            }
            if !matched { changed.append(index) }
        }
        while cursor < order.count {
            removed.append(withPath(Int(order[cursor])) { String(decoding: $0, as: UTF8.self) })
            cursor += 1
        }
        return (changed, removed)
    }
}
