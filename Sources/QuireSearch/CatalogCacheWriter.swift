import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

extension CatalogCache {
    /// One section of the file: bytes built here, or a column's memory.
    private enum Chunk {
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
        var baseID = known ?? 0
        if known == nil {
            baseID = UInt64.random(in: 1...UInt64.max)
            try writeFile(segmentChunks(catalog.base), magic: magic, id: baseID, to: path)
        }
        var chunks = segmentChunks(catalog.delta)
        chunks.append(.bytes(catalog.baseLive.map { $0 ? 1 : 0 }))
        var stampBytes = BinaryWriter()
        var live: [Int] = []
        for slot in 0..<catalog.capacity {
            let stored = catalog.isLive(slot) ? stamps[catalog.path(slot)] : nil
            if catalog.isLive(slot) { live.append(slot) }
            let stamp = stored?.stamp
            stampBytes.u64(stamp?.size ?? 0)
            stampBytes.u64(UInt64(bitPattern: stamp?.modifiedNanoseconds ?? -1))
            stampBytes.u64(UInt64(bitPattern: stamp?.changedNanoseconds ?? -1))
            stampBytes.u64(stamp?.inode ?? 0)
            stampBytes.u64(stored?.contentHash ?? 0)
        }
        chunks.append(.bytes(stampBytes.bytes))
        let paths = live.map { catalog.path($0) }
        var order = BinaryWriter()
        for position in paths.indices.sorted(by: { PathOrder.precedes(paths[$0], paths[$1]) }) {
            order.u32(UInt32(live[position]))
        }
        chunks.append(.bytes(order.bytes))
        var markBytes = BinaryWriter()
        if let mark {
            markBytes.u64(mark.token.instance)
            markBytes.u64(mark.token.sequence)
            markBytes.u64(mark.rules)
        }
        chunks.append(.bytes(markBytes.bytes))
        try writeFile(chunks, magic: stateMagic, id: baseID, to: statePath(path))
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

    /// Writes one file: magic, version, id, the section table, then each section 8-byte aligned.
    private static func writeFile(_ chunks: [Chunk], magic: [UInt8], id: UInt64, to path: String) throws(CacheError) {
        var header = BinaryWriter()
        header.bytes.append(contentsOf: magic)
        header.u32(version)
        header.u64(id)
        header.u32(UInt32(chunks.count))
        var offset = align(header.bytes.count + chunks.count * 16)
        for chunk in chunks {
            header.u64(UInt64(offset))
            header.u64(UInt64(chunk.count))
            offset = align(offset + chunk.count)
        }
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .io(path: temporary, message: String(cString: strerror(errno))) }
        var closed = false
        defer { if !closed { close(descriptor); unlink(temporary) } }
        var written = 0
        func put(_ pointer: UnsafeRawPointer, _ count: Int) throws(CacheError) {
            var done = 0
            while done < count {
                let result = write(descriptor, pointer + done, count - done)
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else { throw .io(path: temporary, message: String(cString: strerror(errno))) }
                done += result
            }
            written += count
        }
        func pad() throws(CacheError) {
            try writeBytes([UInt8](repeating: 0, count: align(written) - written), put)
        }
        try writeBytes(header.bytes, put)
        try pad()
        for chunk in chunks {
            switch chunk {
            case .bytes(let bytes): try writeBytes(bytes, put)
            case .raw(let pointer, let count): if count > 0 { try put(pointer, count) }
            }
            try pad()
        }
        closed = true
        guard close(descriptor) == 0, rename(temporary, path) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temporary)
            throw .io(path: path, message: message)
        }
    }

    private static func writeBytes(_ bytes: [UInt8],
                                   _ put: (UnsafeRawPointer, Int) throws(CacheError) -> Void) throws(CacheError) {
        guard !bytes.isEmpty else { return }
        let result: Result<Void, CacheError> = bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return .success(()) }
            do throws(CacheError) {
                try put(base, buffer.count)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    private static func align(_ offset: Int) -> Int { (offset + 7) & ~7 }
}
