import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The catalog snapshot in `<vault>/.quire/cache/catalog.bin`: a header, a section table and
/// 8-byte aligned sections (records, stamps, each segment's flat columns). Loading maps the file
/// and uses the columns in place; the mapping is released when the last column goes.
enum CatalogCache {
    static let magic: [UInt8] = Array("QUIRECAT".utf8)
    static let version: UInt32 = 4
    static let columnsPerSegment = 11

    /// Loads a snapshot: the catalog and each path's stored stamp.
    static func load(_ path: String) throws(CacheError) -> (Catalog, [String: StoredStamp]) {
        let memory = try map(path)
        var reader = BinaryReader(base: memory.base.assumingMemoryBound(to: UInt8.self), count: memory.byteCount)
        for byte in magic where try reader.u8() != byte { throw .corrupt("bad magic") }
        let version = try reader.u32()
        guard version == Self.version else { throw .oldVersion(version) }
        let sectionCount = Int(try reader.u32())
        guard sectionCount == 2 + 2 * (1 + columnsPerSegment) else { throw .corrupt("bad section count") }
        var sections: [(Int, Int)] = []
        for _ in 0..<sectionCount {
            let offset = Int(try reader.u64())
            let length = Int(try reader.u64())
            guard offset % 8 == 0, offset >= 0, length >= 0, offset <= memory.byteCount - length else {
                throw .corrupt("bad section bounds")
            }
            sections.append((offset, length))
        }
        var next = 0
        func section() -> (Int, Int) { defer { next += 1 }; return sections[next] }
        func sectionReader() -> BinaryReader {
            let (offset, length) = section()
            return BinaryReader(base: memory.base.assumingMemoryBound(to: UInt8.self) + offset, count: length)
        }

        let base = try segment(memory, &next, sections)
        let delta = try segment(memory, &next, sections)
        var liveReader = sectionReader()
        var live: [Bool] = []
        live.reserveCapacity(base.count)
        for _ in 0..<base.count { live.append(try liveReader.u8() != 0) }
        var stampReader = sectionReader()
        var stamps: [String: StoredStamp] = [:]
        let slots = base.count + delta.count
        stamps.reserveCapacity(slots)
        for slot in 0..<slots {
            let stamp = StoredStamp(
                stamp: FileStamp(size: try stampReader.u64(), modifiedNanoseconds: Int64(bitPattern: try stampReader.u64()),
                                 changedNanoseconds: Int64(bitPattern: try stampReader.u64()), inode: try stampReader.u64()),
                contentHash: try stampReader.u64())
            if slot >= base.count {
                stamps[delta.records[slot - base.count].path] = stamp
            } else if live[slot] {
                stamps[base.records[slot].path] = stamp
            }
        }
        var catalog = Catalog(segment: base, live: live)
        catalog.adopt(delta: delta)
        return (catalog, stamps)
    }

    private static func segment(_ memory: ColumnMemory, _ next: inout Int,
                                _ sections: [(Int, Int)]) throws(CacheError) -> IndexSegment {
        let (recordOffset, recordLength) = sections[next]
        next += 1
        var reader = BinaryReader(base: memory.base.assumingMemoryBound(to: UInt8.self) + recordOffset,
                                  count: recordLength)
        reader.memory = memory
        reader.baseOffset = recordOffset
        let count = Int(try reader.u32())
        guard count <= recordLength else { throw .corrupt("bad record count") }
        var records: [NoteRecord] = []
        records.reserveCapacity(count)
        for _ in 0..<count { records.append(try reader.record()) }
        func column() -> Column {
            let (offset, length) = sections[next]
            next += 1
            return Column(memory: memory, byteOffset: offset, count: length / 4)
        }
        let (bytesOffset, bytesLength) = sections[next]
        next += 1
        let segment = IndexSegment(
            records: records,
            terms: TermDictionary(bytes: ByteColumn(memory: memory, byteOffset: bytesOffset, count: bytesLength),
                                  offsets: column()),
            postingStarts: column(), postingDocs: column(), postingFrequencies: column(),
            positionStarts: column(), positions: column(), forwardStarts: column(), forward: column(), titleLengths: column(), lengths: column())
        try validate(segment)
        return segment
    }

    /// Checks sizes and offsets so that a damaged file can never be read out of bounds (ids and
    /// document numbers inside postings are checked where they are used, not here: a scan of
    /// every posting would cost more than the rest of loading).
    static func validate(_ segment: IndexSegment) throws(CacheError) {
        let documents = segment.records.count
        let terms = segment.terms.offsets.count - 1
        guard terms >= 0, segment.postingStarts.count == terms + 1,
              segment.forwardStarts.count == documents + 1, segment.titleLengths.count == documents,
              segment.lengths.count == documents,
              segment.postingDocs.count == segment.postingFrequencies.count,
              segment.positionStarts.count == segment.postingDocs.count + 1 else {
            throw .corrupt("column sizes disagree")
        }
        func monotonic(_ column: Column, ending end: Int) -> Bool {
            let values = column.buffer
            guard values.first == 0, Int(values[values.count - 1]) == end else { return false }
            var ok = true
            for index in 1..<values.count { ok = ok && values[index - 1] <= values[index] }
            return ok
        }
        guard monotonic(segment.terms.offsets, ending: segment.terms.bytes.count),
              monotonic(segment.postingStarts, ending: segment.postingDocs.count),
              monotonic(segment.forwardStarts, ending: segment.forward.count),
              monotonic(segment.positionStarts, ending: segment.positions.count) else {
            throw .corrupt("offsets out of order")
        }
        var ok = true
        for document in 0..<documents {
            let span = segment.forwardStarts[document + 1] - segment.forwardStarts[document]
            ok = ok && segment.titleLengths[document] <= span
        }
        guard ok else { throw .corrupt("title lengths out of range") }
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
