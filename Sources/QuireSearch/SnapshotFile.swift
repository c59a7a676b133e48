import Dispatch
import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// A new base snapshot (`catalog.bin`) that a rebuild writes while it builds the segment, so
/// that the finished index is never held whole in memory: the file is laid out as soon as the
/// sections' sizes are known and its blocks are reserved at once (a full disk fails here,
/// before anything is written); then each section is written as soon as it is built, and the
/// builder frees it. The format is the one `CatalogCache.save` writes.
final class SnapshotFile {
    /// Where the file goes once finished.
    let path: String
    let temporary: String
    /// The file's id (also in the state file that goes with it).
    let id = UInt64.random(in: 1...UInt64.max)
    /// Each section's (offset, length); `lateSection`'s is set by `appendLate`.
    private var sections: [(Int, Int)]
    private let lateSection: CatalogCache.Section
    /// The end of the sections laid out so far.
    private var end: Int
    private var descriptor: Int32
    private var finished = false

    /// Creates the temporary file for a segment's sections of `lengths` (all but `late`,
    /// written at the end once its length is known) and reserves its blocks. Throws when the
    /// file cannot be created or the disk has no room: the caller builds in memory instead.
    init(path: String, lengths: [CatalogCache.Section: Int], late: CatalogCache.Section) throws(CacheError) {
        self.path = path
        temporary = path + ".tmp-\(getpid())"
        let directory = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        CatalogCache.removeAbandonedTemporaries(in: directory)
        lateSection = late
        sections = CatalogCache.layout(CatalogCache.Section.allCases.map { $0 == late ? 0 : lengths[$0] ?? 0 })
        end = CatalogCache.align((sections.last?.0 ?? 0) + (sections.last?.1 ?? 0))
        descriptor = open(temporary, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .io(path: temporary, message: String(cString: strerror(errno))) }
        guard let reserve = Self.reserve, reserve(descriptor, 0, off_t(0), off_t(end)) == 0 else {
            let message = Self.reserve == nil ? "fallocate is not available" : String(cString: strerror(errno))
            close(descriptor)
            descriptor = -1
            unlink(temporary)
            throw .io(path: temporary, message: message)
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if !finished { unlink(temporary) }
    }

    /// Writes `values` into a section from its element `first` on (the whole section, or a
    /// part of it), in pieces on every core.
    func write<Element: BitwiseCopyable>(_ section: CatalogCache.Section, from first: Int = 0,
                                         _ values: UnsafeBufferPointer<Element>) throws(CacheError) {
        let (offset, length) = sections[section.rawValue]
        let start = first * MemoryLayout<Element>.stride
        assert(start >= 0 && start + values.count * MemoryLayout<Element>.stride <= length, "a part beyond \(section)")
        try put(UnsafeRawBufferPointer(values), at: offset + start)
    }

    /// Writes `values` into a section from its element `first` on.
    func write<Element: BitwiseCopyable>(_ section: CatalogCache.Section, from first: Int = 0,
                                         _ values: [Element]) throws(CacheError) {
        try values.withUnsafeBufferPointer { buffer in
            Result { () throws(CacheError) in try write(section, from: first, buffer) }
        }.get()
    }

    /// Writes the late section after all the others.
    func appendLate<Element: BitwiseCopyable>(_ values: [Element]) throws(CacheError) {
        let length = values.count * MemoryLayout<Element>.stride
        sections[lateSection.rawValue] = (end, length)
        try values.withUnsafeBytes { bytes in Result { () throws(CacheError) in try put(bytes, at: end) } }.get()
        end = CatalogCache.align(end + length)
    }

    private func put(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(CacheError) {
        guard let base = bytes.baseAddress else { return }
        let failure = CatalogCache.putInPieces(base, count: bytes.count, at: offset, to: descriptor)
        guard failure == 0 else { throw .io(path: temporary, message: String(cString: strerror(failure))) }
    }

    /// Writes the header and maps the finished file for reading: the mapping and the section
    /// table. The file is still the temporary one (`install` puts it in place); the mapping
    /// stays usable even if that fails.
    func finish() throws(CacheError) -> (ColumnMemory, [(Int, Int)]) {
        let header = CatalogCache.header(magic: CatalogCache.magic, id: id, sections: sections)
        try header.bytes.withUnsafeBytes { bytes in Result { () throws(CacheError) in try put(bytes, at: 0) } }.get()
        if ftruncate(descriptor, off_t(end)) != 0 {
            throw .io(path: temporary, message: String(cString: strerror(errno)))
        }
        guard let mapped = mmap(nil, end, PROT_READ, MAP_SHARED, descriptor, 0), mapped != MAP_FAILED else {
            throw .io(path: temporary, message: String(cString: strerror(errno)))
        }
        let size = end
        return (ColumnMemory(base: UnsafeRawPointer(mapped), byteCount: size) { pointer, _ in
            munmap(UnsafeMutableRawPointer(mutating: pointer), size)
        }, sections)
    }

    /// Puts the finished file in the place of `path` (as `CatalogCache.save` does). Returns
    /// the group that is done once the old file is gone (if any).
    func install() throws(CacheError) -> DispatchGroup? {
        let closing = close(descriptor)
        descriptor = -1
        guard closing == 0 else { throw .io(path: temporary, message: String(cString: strerror(errno))) }
        let group = try CatalogCache.replace(path, with: temporary)
        finished = true
        return group
    }

    private typealias Fallocate = @convention(c) (Int32, Int32, off_t, off_t) -> Int32

    /// glibc's `fallocate` (the Glibc module does not declare it): unlike `posix_fallocate`, it
    /// fails where the file system cannot reserve blocks instead of writing zeros.
    private static let reserve = LibcFunction.named("fallocate", as: Fallocate.self)
}
