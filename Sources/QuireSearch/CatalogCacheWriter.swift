import Dispatch
import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

extension CatalogCache {
    /// One section of the file: bytes built here, or a column's memory.
    private enum Chunk: @unchecked Sendable {
        case bytes([UInt8])
        case raw(UnsafeRawPointer, Int)

        var count: Int {
            switch self {
            case .bytes(let bytes): return bytes.count
            case .raw(_, let count): return count
            }
        }
    }

    /// Writes a snapshot of `catalog` with each path's stamp: the base segment to
    /// `catalog.bin` unless `baseID` says the file already holds it (the base is the one loaded
    /// from it), then everything else — the segment of recent changes, which base slots are
    /// live, the stamps, the path order and the watcher mark — to the small `catalog.state`. Each file is written
    /// atomically (temporary file, then rename); the state names the base it belongs to, so a
    /// crash between the two writes leaves a pair that does not match, which is rebuilt.
    /// Returns the base's id. The catalog's columns stay alive during the writes.
    @discardableResult
    static func save(_ catalog: Catalog, stamps: [String: StoredStamp], to path: String,
                     baseID known: UInt64? = nil, mark: WatchMark? = nil) throws(CacheError) -> UInt64 {
        var live: [Int] = []
        for slot in 0..<catalog.capacity where catalog.isLive(slot) { live.append(slot) }
        let paths = live.map { catalog.path($0) }
        var bySlot = [StoredStamp?](repeating: nil, count: catalog.capacity)
        for (slot, path) in zip(live, paths) { bySlot[slot] = stamps[path] }
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
            if let group = try writeFile(segmentChunks(catalog.base), magic: magic, id: baseID, to: path) {
                releasing.append(group)
            }
        }
        var chunks = segmentChunks(catalog.delta)
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
        if let group = try writeFile(chunks, magic: stateMagic, id: baseID, to: statePath(path)) {
            releasing.append(group)
        }
        return baseID
    }

    /// The sections of one segment: records, their offsets and flags, term bytes, columns.
    private static func segmentChunks(_ segment: IndexSegment) -> [Chunk] {
        var chunks: [Chunk] = []
        let (records, offsets) = segment.records.encodedSections
        chunks.append(records.baseAddress.map { .raw($0, records.count) } ?? .bytes([]))
        chunks.append(offsets.baseAddress.map { .raw($0, offsets.count) } ?? .bytes([]))
        chunks.append(.bytes((0..<segment.records.count).map(segment.records.flag)))
        chunks.append(.raw(UnsafeRawPointer(segment.terms.bytes.pointer), segment.terms.bytes.count))
        for column in [segment.terms.offsets, segment.postingStarts, segment.postingDocs,
                       segment.postingFrequencies, segment.positions, segment.termPositionStarts,
                       segment.positionOverflow,
                       segment.forwardStarts, segment.forward,
                       segment.titleLengths, segment.lengths] {
            chunks.append(.raw(UnsafeRawPointer(column.pointer), column.count * 4))
        }
        chunks.append(.raw(UnsafeRawPointer(segment.sortKeys.pointer), segment.sortKeys.count * 8))
        return chunks
    }

    /// Writes one file: magic, version, id, the section table, then each section 8-byte aligned
    /// (the gaps are left as holes, which read as zeros). The sections are cut into pieces of at
    /// most `pieceSize` bytes, written with `pwrite` at their final offsets on every core: a
    /// snapshot of 100,000 notes is about 450 MB. Any failure (a full disk) removes the
    /// temporary file and leaves the old one in place.
    private static func writeFile(_ chunks: [Chunk], magic: [UInt8], id: UInt64,
                                  to path: String) throws(CacheError) -> DispatchGroup? {
        let sections = layout(chunks.map(\.count))
        var offset = headerSize(sections: chunks.count)
        var pieces: [Piece] = []
        for index in chunks.indices {
            let (start, count) = sections[index]
            for piece in stride(from: 0, to: count, by: pieceSize) {
                pieces.append(Piece(chunk: index, start: piece, count: min(pieceSize, count - piece),
                                    fileOffset: start + piece))
            }
            offset = align(start + count)
        }
        let header = header(magic: magic, id: id, sections: sections)
        let all = [Chunk.bytes(header.bytes)] + chunks
        pieces = [Piece(chunk: -1, start: 0, count: header.bytes.count, fileOffset: 0)] + pieces
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .io(path: temporary, message: String(cString: strerror(errno))) }
        var closed = false
        defer { if !closed { close(descriptor); unlink(temporary) } }
        var failures = [Int32](repeating: 0, count: pieces.count)
        if ftruncate(descriptor, off_t(offset)) != 0 { failures[0] = errno }
        failures.withUnsafeMutableBufferPointer { buffer in
            let results = buffer
            guard results[0] == 0 else { return }
            ParallelMap.perform(iterations: pieces.count) { index in
                let piece = pieces[index]
                results[index] = piece.write(piece.chunk < 0 ? all[0] : all[piece.chunk + 1], to: descriptor)
            }
        }
        if let failure = failures.first(where: { $0 != 0 }) {
            throw .io(path: temporary, message: String(cString: strerror(failure)))
        }
        closed = true
        guard close(descriptor) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temporary)
            throw .io(path: path, message: message)
        }
        return try replace(path, with: temporary)
    }

    /// Puts `temporary` in the place of `path`. Where the system can, the two names are swapped
    /// atomically (`renameat2` with `RENAME_EXCHANGE`) and the old file, now under the temporary
    /// name, is removed on another thread: a plain rename over an existing file makes ext4 start
    /// writing the new file out first (its "replace via rename" rule: 0.3–0.4 s for a snapshot of
    /// 100,000 notes), and the removal frees the old file's blocks and cached pages. The returned
    /// group (if any) is done once the old file is gone.
    static func replace(_ path: String, with temporary: String) throws(CacheError) -> DispatchGroup? {
        if let exchange = exchangeNames, exchange(AT_FDCWD, path, AT_FDCWD, temporary, 2 /* RENAME_EXCHANGE */) == 0 {
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) { unlink(temporary) }
            return group
        }
        guard rename(temporary, path) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temporary)
            throw .io(path: path, message: message)
        }
        return nil
    }

    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// glibc's `renameat2` (2.28 and later; the Glibc module does not declare it), if present.
    private static let exchangeNames = LibcFunction.named("renameat2", as: RenameAt2.self)

    /// How much of a section one `pwrite` call writes at most.
    private static let pieceSize = 4 << 20

    /// A part of one section and where in the file it goes.
    private struct Piece: Sendable {
        let chunk: Int
        let start: Int
        let count: Int
        let fileOffset: Int

        /// Writes the piece of `chunk`; returns 0 or the `errno` of the failure.
        func write(_ chunk: Chunk, to descriptor: Int32) -> Int32 {
            switch chunk {
            case .bytes(let bytes):
                return bytes.withUnsafeBytes { buffer in
                    guard let base = buffer.baseAddress else { return 0 }
                    return put(base + start, to: descriptor)
                }
            case .raw(let pointer, _):
                return put(pointer + start, to: descriptor)
            }
        }

        private func put(_ source: UnsafeRawPointer, to descriptor: Int32) -> Int32 {
            CatalogCache.put(source, count: count, at: fileOffset, to: descriptor)
        }
    }

    /// Writes `count` bytes at `offset` of a file; returns 0 or the `errno` of the failure.
    static func put(_ source: UnsafeRawPointer, count: Int, at offset: Int, to descriptor: Int32) -> Int32 {
        var done = 0
        while done < count {
            let result = pwrite(descriptor, source + done, count - done, off_t(offset + done))
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return result < 0 ? errno : ENOSPC }
            done += result
        }
        return 0
    }

    /// `put` in pieces of `pieceSize` bytes on every core; returns 0 or the `errno` of a failure.
    static func putInPieces(_ source: UnsafeRawPointer, count: Int, at offset: Int, to descriptor: Int32) -> Int32 {
        let pieces = (count + pieceSize - 1) / pieceSize
        guard pieces > 1 else { return put(source, count: count, at: offset, to: descriptor) }
        var failures = [Int32](repeating: 0, count: pieces)
        failures.withUnsafeMutableBufferPointer { buffer in
            let results = buffer
            ParallelMap.perform(iterations: pieces) { piece in
                let start = piece * pieceSize
                results[piece] = put(source + start, count: min(pieceSize, count - start), at: offset + start,
                                     to: descriptor)
            }
        }
        return failures.first { $0 != 0 } ?? 0
    }

    /// Removes temporary snapshot files (`catalog.bin.tmp-PID`, `catalog.state.tmp-PID`) left
    /// in `directory` by a process that no longer runs (killed mid-write, or between swapping
    /// a new file in and deleting the old one): at 100,000 notes each is hundreds of megabytes.
    static func removeAbandonedTemporaries(in directory: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names {
            guard name.hasPrefix("catalog."), let marker = name.range(of: ".tmp-"),
                  let pid = pid_t(name[marker.upperBound...]), pid > 0 else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(directory + "/" + name) }
        }
    }

    static func align(_ offset: Int) -> Int { (offset + 7) & ~7 }

    /// Bytes of a file's header with `sections` sections: magic, version, id, count, table.
    static func headerSize(sections: Int) -> Int { align(8 + 4 + 8 + 4 + sections * 16) }

    /// Where sections of these lengths go in a file: after the header, one after another,
    /// each 8-byte aligned. Returns (offset, length) pairs.
    static func layout(_ lengths: [Int]) -> [(Int, Int)] {
        var offset = headerSize(sections: lengths.count)
        return lengths.map { length in
            defer { offset = align(offset + length) }
            return (offset, length)
        }
    }

    /// A file's header: magic, version, id, then each section's offset and length.
    static func header(magic: [UInt8], id: UInt64, sections: [(Int, Int)]) -> BinaryWriter {
        var header = BinaryWriter()
        header.bytes.append(contentsOf: magic)
        header.u32(version)
        header.u64(id)
        header.u32(UInt32(sections.count))
        for (offset, length) in sections {
            header.u64(UInt64(offset))
            header.u64(UInt64(length))
        }
        return header
    }
}
