import CLibGit2
#if canImport(Glibc)
import Glibc
#endif

/// The entries of `.git/index` read straight from the file (versions 2 and 3), for the sync's
/// stat scan: what each entry records (stat data, mode, stage, flags, path) and the tree the
/// index holds when its tree cache says so. libgit2's `git_index_read` also hashes the whole
/// file and builds a map of every path (about 0.1 s for 100,000 entries); git does neither on
/// an ordinary read, and neither does this. Anything unusual — another version, a required
/// extension (a split or sparse index), a length or offset outside the file — reads as nil,
/// and the caller asks libgit2 instead.
struct IndexFile {
    /// One entry as the file records it; `path` (NUL-terminated) is borrowed from `bytes`.
    struct Entry {
        var path: UnsafePointer<CChar>
        var ctimeSeconds: UInt32
        var ctimeNanoseconds: UInt32
        var mtimeSeconds: UInt32
        var mtimeNanoseconds: UInt32
        var inode: UInt32
        var mode: UInt32
        var uid: UInt32
        var gid: UInt32
        var size: UInt32
        /// The merge stage (0: no conflict).
        var stage: Int
        /// Intent-to-add or skip-worktree (extended flags of version 3).
        var flagged: Bool
    }

    /// What identifies one version of the file: its inode, size, times and trailing checksum.
    struct Stamp: Equatable {
        var fields: [Int]
        var checksum: [UInt8]

        /// The stamp of the file at `path` now; nil when it cannot be read.
        init?(path: String) {
            guard let stamp = FileBytes.opened(path, { descriptor, status -> Stamp? in
                var checksum = [UInt8](repeating: 0, count: 20)
                guard status.st_size >= 20,
                      checksum.withUnsafeMutableBytes({ pread(descriptor, $0.baseAddress, 20, status.st_size - 20) }) == 20 else { return nil }
                return Stamp(fields: [Int(status.st_ino), Int(status.st_size), status.st_mtim.tv_sec, status.st_mtim.tv_nsec,
                                      status.st_ctim.tv_sec, status.st_ctim.tv_nsec], checksum: checksum)
            }) else { return nil }
            self = stamp
        }

        private init(fields: [Int], checksum: [UInt8]) {
            self.fields = fields
            self.checksum = checksum
        }
    }

    /// The file's bytes; every entry's path points into them.
    private let storage: FileBytes
    /// The entries in file order (sorted by path, as git writes them).
    let entries: [Entry]
    /// The tree of the whole index from the tree cache (`TREE` extension), nil when the cache
    /// is missing or its root is invalidated.
    let tree: OID?

    /// Reads and parses `path`; nil when the file cannot be read or is not one this reader takes.
    init?(path: String) {
        guard let storage = FileBytes(path: path) else { return nil }
        self.storage = storage
        guard let parsed = Self.parse(storage.bytes, count: storage.count) else { return nil }
        (entries, tree) = parsed
    }

    /// Keeps the bytes alive while `body` uses the entries' paths.
    func withEntries<T>(_ body: ([Entry]) throws -> T) rethrows -> T {
        try withExtendedLifetime(storage) { try body(entries) }
    }

    /// The entries of an index libgit2 read (their paths borrowed from it: it must outlive them
    /// and not change meanwhile).
    static func entries(of index: Index) -> [Entry] {
        var result: [Entry] = []
        result.reserveCapacity(git_index_entrycount(index.pointer))
        for position in 0..<git_index_entrycount(index.pointer) {
            guard let entry = git_index_get_byindex(index.pointer, position)?.pointee, let path = entry.path else { continue }
            let flags = UInt32(entry.flags_extended) & (GIT_INDEX_ENTRY_INTENT_TO_ADD.rawValue | GIT_INDEX_ENTRY_SKIP_WORKTREE.rawValue)
            result.append(Entry(
                path: path, ctimeSeconds: UInt32(bitPattern: entry.ctime.seconds), ctimeNanoseconds: entry.ctime.nanoseconds,
                mtimeSeconds: UInt32(bitPattern: entry.mtime.seconds), mtimeNanoseconds: entry.mtime.nanoseconds,
                inode: entry.ino, mode: entry.mode, uid: entry.uid, gid: entry.gid, size: entry.file_size,
                stage: Int((Int32(entry.flags) & GIT_INDEX_ENTRY_STAGEMASK) >> GIT_INDEX_ENTRY_STAGESHIFT), flagged: flags != 0))
        }
        return result
    }

    private static func parse(_ bytes: UnsafePointer<UInt8>, count: Int) -> ([Entry], OID?)? {
        let checksum = 20
        guard count >= 12 + checksum, memcmp(bytes, "DIRC", 4) == 0 else { return nil }
        let version = word(bytes, 4)
        guard version == 2 || version == 3 else { return nil }
        let total = Int(word(bytes, 8))
        let end = count - checksum
        var entries: [Entry] = []
        entries.reserveCapacity(total)
        var offset = 12
        for _ in 0..<total {
            guard offset + 62 <= end else { return nil }
            let flags = UInt16(bytes[offset + 60]) << 8 | UInt16(bytes[offset + 61])
            let extended = flags & 0x4000 != 0
            guard !extended || version == 3 else { return nil }
            let pathStart = offset + (extended ? 64 : 62)
            guard pathStart < end else { return nil }
            let extendedFlags = extended ? UInt16(bytes[offset + 62]) << 8 | UInt16(bytes[offset + 63]) : 0
            let length = strnlen(UnsafeRawPointer(bytes + pathStart).assumingMemoryBound(to: CChar.self), end - pathStart)
            guard pathStart + length < end, flags & 0xFFF == min(UInt16(length), 0xFFF) else { return nil }
            entries.append(Entry(
                path: UnsafeRawPointer(bytes + pathStart).assumingMemoryBound(to: CChar.self),
                ctimeSeconds: word(bytes, offset), ctimeNanoseconds: word(bytes, offset + 4),
                mtimeSeconds: word(bytes, offset + 8), mtimeNanoseconds: word(bytes, offset + 12),
                inode: word(bytes, offset + 20), mode: word(bytes, offset + 24),
                uid: word(bytes, offset + 28), gid: word(bytes, offset + 32), size: word(bytes, offset + 36),
                stage: Int(flags >> 12) & 3, flagged: extendedFlags & 0x6000 != 0))
            // Padded with 1 to 8 NULs to a multiple of 8 bytes from the entry's start.
            offset += (pathStart - offset + length + 8) & ~7
        }
        guard offset <= end else { return nil }
        var tree: OID?
        while offset < end {
            guard offset + 8 <= end else { return nil }
            let size = Int(word(bytes, offset + 4))
            let data = offset + 8
            guard size <= end - data else { return nil }
            // An extension whose signature starts with a capital letter is optional; any other
            // (a split index's `link`, a sparse index's `sdir`) changes what the entries mean.
            guard bytes[offset] >= 0x41 && bytes[offset] <= 0x5A else { return nil }
            if memcmp(bytes + offset, "TREE", 4) == 0 { tree = rootTree(bytes + data, count: size) }
            offset = data + size
        }
        return (entries, tree)
    }

    /// The root's id from a `TREE` extension: an empty path, then `<entries> <subtrees>\n` and,
    /// when the entry count is not -1, the 20-byte id.
    private static func rootTree(_ bytes: UnsafePointer<UInt8>, count: Int) -> OID? {
        guard count > 0, bytes[0] == 0 else { return nil }
        var offset = 1
        guard offset < count, bytes[offset] != 0x2D else { return nil }  // "-1": invalidated
        while offset < count, bytes[offset] != 0x0A { offset += 1 }
        guard offset + 1 + 20 <= count else { return nil }
        var id = git_oid()
        withUnsafeMutableBytes(of: &id.id) { $0.copyMemory(from: UnsafeRawBufferPointer(start: bytes + offset + 1, count: 20)) }
        return OID(id)
    }

    /// The big-endian 32-bit value at `offset`.
    private static func word(_ bytes: UnsafePointer<UInt8>, _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}
