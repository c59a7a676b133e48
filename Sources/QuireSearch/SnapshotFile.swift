import Dispatch
import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// The one declaration of the snapshot files' format, and the one type that reads and writes
/// them: `catalog.bin` (the base segment) and `catalog.state` (the rest; see `CatalogCache`).
///
/// A file is a header — magic (`QUIRECAT` or `QUIRESTA`), format version (u32), the file's id
/// (u64), the number of sections (u32), then per section its offset, length and checksum (u64
/// each), then a checksum of all the header's bytes before it — followed by the sections, each
/// 8-byte aligned (gaps read as zeros). All numbers are little-endian. Loading maps the file,
/// checks the header and every section's checksum (`SectionChecksum`, read with `pread` on every
/// core) and uses the sections in place; a file that fails any check is not used (the caller
/// rebuilds it).
///
/// Writing lays the file out as soon as the sections' lengths are known (all but one `late`
/// section, appended at the end), reserves its blocks (a full disk fails here, before anything
/// is written), writes each section as soon as it is built — in pieces at their final offsets,
/// from one thread, or built in place in the file's mapping — then the checksums and the header,
/// and puts the file in place atomically.
final class SnapshotFile {
    /// Which file: the two of the catalog, or the link table beside them (`LinkTable+File`).
    enum Kind: CustomStringConvertible {
        case base, state, links

        var magic: [UInt8] {
            switch self {
            case .base: return Array("QUIRECAT".utf8)
            case .state: return Array("QUIRESTA".utf8)
            case .links: return Array("QUIRELNK".utf8)
            }
        }
        /// How many sections the file has.
        var sectionCount: Int {
            switch self {
            case .base: return Section.allCases.count
            case .state: return Section.allCases.count + StateSection.allCases.count
            case .links: return LinkTable.Section.allCases.count
            }
        }
        var description: String {
            switch self {
            case .base: return "base"
            case .state: return "state"
            case .links: return "link table"
            }
        }
    }

    /// Raised whenever what the index holds or how it is laid out changes (13: symbols, emoji
    /// and `C++` are tokens; 14: name terms of titles and aliases; 15: the first `# heading` of
    /// an untitled note; 16: inline `#tags` of the body and a `tag` key; 17: words a person
    /// reads; 18: dates from the file's time for notes without them, and Thai, Lao, Khmer and
    /// Burmese words by ICU; 19: a record says whether its note has a title of its own and which
    /// front-matter format it carries; 20: a record ends with its links and anchors
    /// (`BinaryCoding+Links`), and link terms (`\u{1}L:`, `\u{1}S:`) are indexed; 21: `.NET`-style
    /// words keep their leading dot; 22: a checksum per section and one of the header; 23: a
    /// record's problems include `draft`/`pinned` that are neither true nor false and a `title`
    /// that is no text; 24: and git's conflict markers left in the note; 25: block ids right after
    /// an embed or link, `![[x.png]]^id`; 26: no links, tags, headings or block ids in `%%`
    /// comments and raw HTML blocks; 27: dates from git's history, date source 254; 28: a path
    /// column, `Section.pathOffsets` and `pathBytes`; 29: positions in 16 bits; 30: a posting's
    /// occurrences in a byte, `Section.postingOverflow`; 31: a record's flag byte says whether a
    /// date of its note comes from elsewhere than its front matter, `RecordTable.datedElsewhereFlag`).
    static let version: UInt32 = 31

    /// The sections of a segment, in the order of a file's section table (both files start
    /// with one segment), with the size of their elements.
    enum Section: Int, CaseIterable {
        /// The encoded records (`BinaryWriter.record`), a u64 offset of each, a flag byte each.
        case records, recordOffsets, flags
        /// The term dictionary: term bytes and `terms + 1` u32 offsets into them.
        case termBytes, termOffsets
        /// The columns of `IndexSegment` (u32 but the frequencies, u8, and the positions, u16),
        /// then its f64 sort keys.
        case postingStarts, postingDocs, postingFrequencies, positions, termPositionStarts, postingOverflow,
             forwardStarts, forward, titleLengths, lengths, sortKeys
        /// The path column (`PathColumn`): `records + 1` u64 offsets, then the paths' bytes.
        case pathOffsets, pathBytes

        var elementSize: Int {
            switch self {
            case .records, .flags, .termBytes, .pathBytes, .postingFrequencies: return 1
            case .positions: return 2
            case .recordOffsets, .sortKeys, .pathOffsets: return 8
            default: return 4
            }
        }
    }

    /// The sections of a state file after its segment's.
    enum StateSection: Int, CaseIterable {
        /// A byte per base slot: 1 when live.
        case live
        /// Per slot (base, then the state's segment): size, mtime, ctime, inode, content hash.
        case stamps
        /// The live slots (u32) in `PathOrder`.
        case order
        /// The watcher mark (instance, sequence, rules: u64 each), or nothing.
        case mark

        /// Its place in the section table.
        var index: Int { Section.allCases.count + rawValue }
    }

    /// A file read and checked: its memory, its id and its sections' places.
    struct Contents {
        let memory: ColumnMemory
        let id: UInt64
        let sections: [(offset: Int, length: Int)]

        /// The place of a state file's section.
        subscript(section: StateSection) -> (offset: Int, length: Int) { sections[section.index] }
    }

    /// Bytes before the section table: magic, version, id, section count.
    private static let fixedHeader = 8 + 4 + 8 + 4

    /// Where the header's checksum goes in a file of `count` sections.
    static func headerChecksumOffset(sections count: Int) -> Int { fixedHeader + count * 24 }

    /// Bytes of the header with `count` sections, aligned.
    static func headerSize(sections count: Int) -> Int { align(headerChecksumOffset(sections: count) + 8) }

    static func align(_ offset: Int) -> Int { (offset + 7) & ~7 }

    /// Where sections of these lengths go: after the header, one after another, each aligned.
    static func layout(_ lengths: [Int]) -> [(offset: Int, length: Int)] {
        var offset = headerSize(sections: lengths.count)
        return lengths.map { length in
            defer { offset = align(offset + length) }
            return (offset, length)
        }
    }

    /// Maps the file at `path` and checks it: magic, version, section table, header checksum,
    /// each section's bounds and checksum. Throws `.missing` when there is no file,
    /// `.oldVersion` for another version of the format, `.corrupt` for anything else wrong.
    /// `now` decides whether the verified file is settled enough to be marked (`VerifiedStamp`).
    /// `validate` is handed the contents when the checksums were computed (not vouched for by a
    /// stamp), before the file is marked: what it throws is thrown and leaves the file unmarked,
    /// so a marked file is one that passed it too.
    static func read(_ path: String, kind: Kind, now: Date = Date(),
                     validate: (Contents) throws(CacheError) -> Void = { _ in }) throws(CacheError) -> Contents {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { throw .missing }
            throw .io(path: path, message: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        let memory = try map(descriptor, path)
        let size = memory.byteCount
        var reader = BinaryReader(base: memory.base.assumingMemoryBound(to: UInt8.self), count: size)
        guard size >= fixedHeader else { throw .corrupt("file too short") }
        for byte in kind.magic where try reader.u8() != byte { throw .corrupt("not a catalog \(kind) file") }
        let version = try reader.u32()
        guard version == Self.version else { throw .oldVersion(version) }
        let id = try reader.u64()
        let count = Int(try reader.u32())
        guard count == kind.sectionCount else { throw .corrupt("bad section count") }
        let checksumOffset = headerChecksumOffset(sections: count)
        guard checksumOffset + 8 <= size else { throw .corrupt("truncated header") }
        var sections: [(offset: Int, length: Int)] = []
        var sums: [UInt64] = []
        for _ in 0..<count {
            let offset = Int(truncatingIfNeeded: try reader.u64())
            let length = Int(truncatingIfNeeded: try reader.u64())
            sections.append((offset, length))
            sums.append(try reader.u64())
        }
        let headerSum = SectionChecksum.sum(UnsafeRawBufferPointer(start: memory.base, count: checksumOffset))
        guard try reader.u64() == headerSum else { throw .corrupt("bad header checksum") }
        let dataStart = headerSize(sections: count)
        var end = headerSize(sections: count)
        for (offset, length) in sections {
            guard offset >= dataStart, offset % 8 == 0, offset <= size, length >= 0, length <= size - offset else {
                throw .corrupt("bad section bounds")
            }
            end = max(end, align(offset + length))
        }
        guard end == size else { throw .corrupt("bytes after the last section") }
        var status = stat()
        let stamp = fstat(descriptor, &status) == 0 ? VerifiedStamp(status, id: id) : nil
        if let stamp, VerifiedStamp.read(path) == stamp {
            // Verified whole before, and not written since (see `VerifiedStamp`).
            return Contents(memory: memory, id: id, sections: sections)
        }
        let (actual, failure) = SectionChecksum.sums(descriptor: descriptor, sections: sections)
        guard let actual else { throw .io(path: path, message: String(cString: strerror(failure))) }
        for index in sections.indices where actual[index] != sums[index] {
            throw .corrupt("section \(index) of the \(kind) file fails its checksum")
        }
        let contents = Contents(memory: memory, id: id, sections: sections)
        try validate(contents)
        if let stamp, stamp.isSettled(now: now) { stamp.write(path) }
        return contents
    }

    /// Maps the whole file open at `descriptor` for reading. Its pages are read when used: the
    /// checksums are computed from `pread`s, so that a command's memory holds only the parts of
    /// the index it reads.
    private static func map(_ descriptor: Int32, _ path: String) throws(CacheError) -> ColumnMemory {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .io(path: path, message: String(cString: strerror(errno))) }
        let size = Int(status.st_size)
        guard size >= fixedHeader else { throw .corrupt("file too short") }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw .io(path: path, message: String(cString: strerror(errno)))
        }
        return ColumnMemory(base: UnsafeRawPointer(address), byteCount: size, isReadOnlyFileMapping: true) { pointer, length in
            munmap(UnsafeMutableRawPointer(mutating: pointer), length)
        }
    }

    /// A file's header: magic, version, id, each section's offset, length and checksum, then
    /// the checksum of those bytes.
    static func header(kind: Kind, id: UInt64, sections: [(offset: Int, length: Int)], sums: [UInt64]) -> [UInt8] {
        var header = BinaryWriter()
        header.bytes.append(contentsOf: kind.magic)
        header.u32(version)
        header.u64(id)
        header.u32(UInt32(sections.count))
        for ((offset, length), sum) in zip(sections, sums) {
            header.u64(UInt64(offset))
            header.u64(UInt64(length))
            header.u64(sum)
        }
        let sum = header.bytes.withUnsafeBytes { SectionChecksum.sum($0) }
        header.u64(sum)
        return header.bytes
    }

    /// Computes the checksums of a file held in `bytes` again (each section that lies inside
    /// it, then the header's): what the fuzz target and the tests use to reach the checks
    /// behind the checksums. Bytes that are no snapshot are left alone.
    static func reseal(_ bytes: inout [UInt8]) {
        guard bytes.count >= fixedHeader else { return }
        let count = bytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: 20, as: UInt32.self).littleEndian) }
        let checksumOffset = headerChecksumOffset(sections: min(count, 1 << 16))
        guard count <= 1 << 16, checksumOffset + 8 <= bytes.count else { return }
        bytes.withUnsafeMutableBytes { file in
            guard let base = file.baseAddress else { return }
            for index in 0..<count {
                let entry = fixedHeader + index * 24
                let offset = Int(truncatingIfNeeded: UInt64(littleEndian: file.loadUnaligned(fromByteOffset: entry, as: UInt64.self)))
                let length = Int(truncatingIfNeeded: UInt64(littleEndian: file.loadUnaligned(fromByteOffset: entry + 8, as: UInt64.self)))
                guard offset >= 0, length >= 0, offset <= file.count, length <= file.count - offset else { continue }
                let sum = SectionChecksum.sums(UnsafeRawPointer(base), sections: [(offset, length)])[0]
                file.storeBytes(of: sum.littleEndian, toByteOffset: entry + 16, as: UInt64.self)
            }
            let sum = SectionChecksum.sum(UnsafeRawBufferPointer(start: base, count: checksumOffset))
            file.storeBytes(of: sum.littleEndian, toByteOffset: checksumOffset, as: UInt64.self)
        }
    }

    // MARK: Writing (see SnapshotFile+Writing.swift)

    /// Where the file goes once finished.
    let path: String
    let temporary: String
    let kind: Kind
    /// The file's id (the state file names the base's).
    let id: UInt64
    /// Each section's place; the late section's is set by `appendLate`.
    var sections: [(offset: Int, length: Int)]
    let late: Int?
    /// The end of the sections laid out so far.
    var end: Int
    var descriptor: Int32
    var finished = false
    /// The laid-out sections mapped for writing in place (`place`), if asked for and the blocks
    /// are reserved; unmapped by `finish`.
    var mapping: UnsafeMutableRawPointer?
    var mappedLength = 0

    /// A file being written (see `init(path:kind:id:lengths:late:)`).
    init(path: String, temporary: String, kind: Kind, id: UInt64, sections: [(offset: Int, length: Int)], late: Int?,
         end: Int, descriptor: Int32) {
        self.path = path
        self.temporary = temporary
        self.kind = kind
        self.id = id
        self.sections = sections
        self.late = late
        self.end = end
        self.descriptor = descriptor
    }

    deinit {
        unmapForWriting()
        if descriptor >= 0 { close(descriptor) }
        if !finished { unlink(temporary) }
    }
}

/// The stamp of a snapshot file whose every section checksum was verified: `<file>.verified`
/// holds its id, size, times and inode. A load that finds the file with the same stamp checks the
/// header and bounds but does not read every byte again (at 10,000 notes that read was most of a
/// warm command's system time). Any write to the file changes its times (a new snapshot is a new
/// inode), so damage after the verification is still found; as in git's "racy" index, a file is
/// marked only once its last change is older than its file system's clock tick (`isSettled`),
/// so that a write in the same tick as the one verified cannot pass for it. Bit rot that
/// changes no metadata is not caught between rebuilds.
struct VerifiedStamp: Equatable {
    var id: UInt64
    var size: UInt64
    var modified: Int64
    var changed: Int64
    var inode: UInt64
    var device: UInt64

    init(_ status: stat, id: UInt64) {
        self.id = id
        size = UInt64(status.st_size)
        modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        changed = Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
        inode = UInt64(status.st_ino)
        device = UInt64(status.st_dev)
    }

    private init(id: UInt64, size: UInt64, modified: Int64, changed: Int64, inode: UInt64, device: UInt64) {
        (self.id, self.size, self.modified, self.changed, self.inode, self.device) = (id, size, modified, changed, inode, device)
    }

    /// Whether the file's last change is old enough that a later write shows in its times: more
    /// than 100 ms old where the file system keeps times finer than a second (either time has
    /// nanoseconds: ext4, btrfs, xfs, tmpfs, NFS from such a disk; the kernel stamps a write with
    /// a clock that ticks every 1–10 ms), more than two seconds old where it keeps whole seconds
    /// (FAT's modification times go by two). So a command run soon after the one that wrote the
    /// catalog checks it once and marks it, and those after that skip the check; under a rule of
    /// a whole second everywhere, every command in that second read the whole file again.
    func isSettled(now: Date) -> Bool {
        let newest = max(modified, changed)
        let fine = modified % 1_000_000_000 != 0 || changed % 1_000_000_000 != 0
        let tick: Int64 = fine ? Self.fineSettling : Self.coarseSettling
        return Int64(now.timeIntervalSince1970 * 1_000_000_000) - newest > tick
    }

    /// How long a file's last change must be past, in nanoseconds, on a file system with times
    /// finer than a second and on one with whole seconds (`isSettled`).
    static let fineSettling: Int64 = 100_000_000
    static let coarseSettling: Int64 = 2_000_000_000

    static func markerPath(_ path: String) -> String { path + ".verified" }

    /// The stamp recorded for the file at `path`, if any.
    static func read(_ path: String) -> VerifiedStamp? {
        guard let text = try? String(contentsOfFile: markerPath(path), encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ").map { String($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard fields.count == 6, let id = UInt64(fields[0]), let size = UInt64(fields[1]), let modified = Int64(fields[2]),
              let changed = Int64(fields[3]), let inode = UInt64(fields[4]), let device = UInt64(fields[5]) else { return nil }
        return VerifiedStamp(id: id, size: size, modified: modified, changed: changed, inode: inode, device: device)
    }

    /// Records this stamp beside the file (best effort: without it the next load verifies again).
    /// Written to `<marker>.<pid>` and renamed into place; a write that fails (a full disk) or
    /// comes short removes that temporary file, so no command leaves one behind.
    func write(_ path: String) {
        let bytes = Array("\(id) \(size) \(modified) \(changed) \(inode) \(device)\n".utf8)
        let marker = Self.markerPath(path)
        let temporary = marker + ".\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        var written = -1
        repeat {
            written = bytes.withUnsafeBytes { raw in raw.baseAddress.map { Glibc.write(descriptor, $0, raw.count) } ?? -1 }
        } while written < 0 && errno == EINTR
        let closed = close(descriptor) == 0
        guard written == bytes.count, closed, rename(temporary, marker) == 0 else {
            unlink(temporary)
            return
        }
    }
}
