import Dispatch
import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

extension SnapshotFile {
    /// Bytes of one section to write whole: built here, or memory that outlives the write.
    enum Chunk: @unchecked Sendable {
        case bytes([UInt8])
        case raw(UnsafeRawPointer, Int)

        var count: Int {
            switch self {
            case .bytes(let bytes): return bytes.count
            case .raw(_, let count): return count
            }
        }

        func withBytes<T>(_ body: (UnsafeRawBufferPointer) throws(CacheError) -> T) throws(CacheError) -> T {
            switch self {
            case .bytes(let bytes):
                return try bytes.withUnsafeBytes { buffer in Result { () throws(CacheError) in try body(buffer) } }.get()
            case .raw(let pointer, let count):
                return try body(UnsafeRawBufferPointer(start: pointer, count: count))
            }
        }
    }

    /// Writes a whole file of `chunks` (one per section of `kind`) at `path`: temporary file,
    /// checksums, header, then swapped in atomically. Any failure (a full disk) removes the
    /// temporary file and keeps the old one. Returns the group that is done once the old file
    /// is gone (if any).
    static func write(_ chunks: [Chunk], kind: Kind, id: UInt64, to path: String) throws(CacheError) -> DispatchGroup? {
        let file = try SnapshotFile(path: path, kind: kind, id: id, lengths: chunks.map(\.count))
        for (index, chunk) in chunks.enumerated() {
            try chunk.withBytes { bytes throws(CacheError) in try file.put(bytes, at: file.sections[index].offset) }
        }
        _ = try file.finish()
        return try file.install()
    }

    /// Creates the temporary file for the sections of `lengths` (one per section of `kind`; the
    /// `late` section's is ignored: it is written at the end, once known) and reserves its
    /// blocks. Throws when the file cannot be created or the disk has no room. `inPlace`: maps
    /// the laid-out sections for writing where the blocks are reserved (`place`).
    convenience init(path: String, kind: Kind, id: UInt64 = UInt64.random(in: 1...UInt64.max), lengths: [Int],
                     late: Int? = nil, inPlace: Bool = false) throws(CacheError) {
        let directory = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        Self.removeAbandonedTemporaries(in: directory)
        let sections = Self.layout(lengths.indices.map { $0 == late ? 0 : lengths[$0] })
        let end = Self.align((sections.last?.offset ?? 0) + (sections.last?.length ?? 0))
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .io(path: temporary, message: String(cString: strerror(errno))) }
        self.init(path: path, temporary: temporary, kind: kind, id: id, sections: sections, late: late, end: end,
                  descriptor: descriptor)
        // Reserved where the file system can (else a sparse file of that size).
        if let reserve = Self.reserve, reserve(descriptor, 0, off_t(0), off_t(end)) == 0 {
            // Only reserved blocks are written through a mapping: a write to a page the disk
            // has no room for would end the process (SIGBUS) instead of failing.
            if inPlace, end > 0, let address = mmap(nil, end, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0),
               address != MAP_FAILED {
                (mapping, mappedLength) = (address, end)
            }
            return
        }
        if errno == ENOSPC || errno == EDQUOT || ftruncate(descriptor, off_t(end)) != 0 {
            throw .io(path: temporary, message: String(cString: strerror(errno)))
        }
    }

    /// Writes `values` into a section from its element `first` on (the whole section, or a
    /// part of it), in pieces (`putInPieces`). Values built in place (`place`) are not copied:
    /// their whole pages leave the process's memory (they stay in the file's page cache).
    func write<Element: BitwiseCopyable>(_ section: Section, from first: Int = 0,
                                         _ values: UnsafeBufferPointer<Element>) throws(CacheError) {
        let (offset, length) = sections[section.rawValue]
        let start = first * MemoryLayout<Element>.stride
        let count = values.count * MemoryLayout<Element>.stride
        assert(start >= 0 && start + count <= length, "a part beyond \(section)")
        if let mapping, let source = values.baseAddress, UnsafeRawPointer(source) == UnsafeRawPointer(mapping + offset + start) {
            let page = Int(getpagesize())
            let (low, high) = ((offset + start + page - 1) / page * page, (offset + start + count) / page * page)
            if low < high { _ = madvise(mapping + low, high - low, MADV_DONTNEED) }
            return
        }
        try put(UnsafeRawBufferPointer(values), at: offset + start)
    }

    /// Where the elements of `section` from its element `first` on lie in the file's mapping, to
    /// be built in place and then passed to `write` (no copy); nil when the file is not mapped
    /// (`init`'s `inPlace`, reserved blocks).
    func place<Element: BitwiseCopyable>(_ section: Section, from first: Int = 0,
                                         as type: Element.Type) -> UnsafeMutablePointer<Element>? {
        guard let mapping else { return nil }
        let offset = sections[section.rawValue].offset + first * MemoryLayout<Element>.stride
        let count = sections[section.rawValue].length / MemoryLayout<Element>.stride - first
        return (mapping + offset).bindMemory(to: Element.self, capacity: max(count, 1))
    }

    /// The places of a chunk of postings (documents, positions, frequencies) from posting
    /// `firstPosting` and position `firstPosition` on in the file's mapping (`place`); nil when
    /// the file is not mapped.
    func postingPlaces(firstPosting: Int, firstPosition: Int)
        -> (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt16>, UnsafeMutablePointer<UInt8>)? {
        guard let docs = place(.postingDocs, from: firstPosting, as: UInt32.self),
              let positions = place(.positions, from: firstPosition, as: UInt16.self),
              let frequencies = place(.postingFrequencies, from: firstPosting, as: UInt8.self) else { return nil }
        return (docs, positions, frequencies)
    }

    /// Unmaps the sections mapped for writing (their pages stay in the file).
    func unmapForWriting() {
        guard let mapping else { return }
        munmap(mapping, mappedLength)
        self.mapping = nil
    }

    /// Writes `values` into a section from its element `first` on.
    func write<Element: BitwiseCopyable>(_ section: Section, from first: Int = 0,
                                         _ values: [Element]) throws(CacheError) {
        try values.withUnsafeBufferPointer { buffer in
            Result { () throws(CacheError) in try write(section, from: first, buffer) }
        }.get()
    }

    /// Writes the late section after all the others.
    func appendLate<Element: BitwiseCopyable>(_ values: [Element]) throws(CacheError) {
        guard let late else { return }
        let length = values.count * MemoryLayout<Element>.stride
        sections[late] = (end, length)
        try values.withUnsafeBytes { bytes in Result { () throws(CacheError) in try put(bytes, at: end) } }.get()
        end = Self.align(end + length)
    }

    fileprivate func put(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(CacheError) {
        guard let base = bytes.baseAddress else { return }
        let failure = Self.putInPieces(base, count: bytes.count, at: offset, to: descriptor)
        guard failure == 0 else { throw .io(path: temporary, message: String(cString: strerror(failure))) }
    }

    /// Computes the sections' checksums from what was written, writes the header and maps the
    /// finished file for reading: the mapping and the section table. The file is still the
    /// temporary one (`install` puts it in place); the mapping stays usable even if that fails.
    func finish() throws(CacheError) -> (ColumnMemory, [(offset: Int, length: Int)]) {
        unmapForWriting()
        if ftruncate(descriptor, off_t(end)) != 0 {
            throw .io(path: temporary, message: String(cString: strerror(errno)))
        }
        // From the file's pages, read back with `pread`: hashing a mapping would bring the
        // whole file into the process's memory.
        let (sums, failure) = SectionChecksum.sums(descriptor: descriptor, sections: sections)
        guard let sums else { throw .io(path: temporary, message: String(cString: strerror(failure))) }
        let header = Self.header(kind: kind, id: id, sections: sections, sums: sums)
        try header.withUnsafeBytes { bytes in Result { () throws(CacheError) in try put(bytes, at: 0) } }.get()
        guard let mapped = mmap(nil, end, PROT_READ, MAP_SHARED, descriptor, 0), mapped != MAP_FAILED else {
            throw .io(path: temporary, message: String(cString: strerror(errno)))
        }
        let size = end
        let memory = ColumnMemory(base: UnsafeRawPointer(mapped), byteCount: size, isReadOnlyFileMapping: true) { pointer, _ in
            munmap(UnsafeMutableRawPointer(mutating: pointer), size)
        }
        return (memory, sections)
    }

    /// Puts the finished file in the place of `path`. Returns the group that is done once the
    /// file it replaced is gone (if any).
    func install() throws(CacheError) -> DispatchGroup? {
        let closing = close(descriptor)
        descriptor = -1
        guard closing == 0 else { throw .io(path: temporary, message: String(cString: strerror(errno))) }
        let group = try Self.replace(path, with: temporary)
        finished = true
        return group
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

    /// How much one `pwrite` call writes at most.
    private static let pieceSize = 4 << 20

    /// Writes `count` bytes at `offset` of a file; returns 0 or the `errno` of the failure.
    private static func put(_ source: UnsafeRawPointer, count: Int, at offset: Int, to descriptor: Int32) -> Int32 {
        transfer(count, shortResult: ENOSPC) { done in
            pwrite(descriptor, source + done, count - done, off_t(offset + done))
        }
    }

    /// Calls `call(bytesDone)` — a `pread` or `pwrite` of the rest — until `count` bytes are
    /// done, again after an interruption; returns 0, the `errno` of a failure, or `shortResult`
    /// when a call does nothing (the end of the file, a full disk).
    static func transfer(_ count: Int, shortResult: Int32, _ call: (Int) -> Int) -> Int32 {
        var done = 0
        while done < count {
            let result = call(done)
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return result < 0 ? errno : shortResult }
            done += result
        }
        return 0
    }

    /// `put` in pieces of `pieceSize` bytes, one after another on the calling thread: ext4 takes
    /// the file's inode lock for each buffered write, so a second thread writing the same file
    /// waits for it spinning (`rwsem_spin_on_owner`); with two cores, pieces written on both
    /// took about 2.7 times the CPU of the same pieces on one (420 MB: 380 against 140 ms) and
    /// no less wall time. Returns 0 or the `errno` of a failure.
    private static func putInPieces(_ source: UnsafeRawPointer, count: Int, at offset: Int, to descriptor: Int32) -> Int32 {
        var start = 0
        while start < count {
            let failure = put(source + start, count: min(pieceSize, count - start), at: offset + start, to: descriptor)
            guard failure == 0 else { return failure }
            start += pieceSize
        }
        return 0
    }

    private typealias Fallocate = @convention(c) (Int32, Int32, off_t, off_t) -> Int32

    /// glibc's `fallocate` (the Glibc module does not declare it): unlike `posix_fallocate`, it
    /// fails where the file system cannot reserve blocks instead of writing zeros.
    private static let reserve = LibcFunction.named("fallocate", as: Fallocate.self)

    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// glibc's `renameat2` (2.28 and later; the Glibc module does not declare it), if present.
    private static let exchangeNames = LibcFunction.named("renameat2", as: RenameAt2.self)
}
