import CLibGit2
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Staging many files at once (`update(paths:root:)`): their blobs go into one pack, and each
/// index entry is made from the stat taken before the file was read and the id of the bytes
/// read, as `git_index_add_bypath` makes it, without reading or hashing the file again.
extension Index {
    /// The fewest files worth a pack (git keeps a fetched pack of 100 objects or more).
    public static let packThreshold = 100
    /// Larger files are left to `git_index_add_bypath` (stored loose, as before).
    static let largestPackedFile = 1 << 20
    /// The most bytes read into memory for one pack.
    static let largestPack = 256 << 20

    /// One regular file read for staging: its `lstat` (taken before the read) and its blob id.
    struct ReadFile {
        var status: stat
        var id: OID
    }

    /// Reads the regular files among `paths` (relative to `root`; `lstat` first, then the bytes)
    /// and stores their blobs in one pack; returns those whose size did not change meanwhile.
    /// Nothing when fewer than `packThreshold` files qualify. An unreadable file is skipped:
    /// `git_index_add_bypath` reports it.
    func readIntoPack(_ paths: [String], root: URL) throws -> [String: ReadFile] {
        guard paths.count >= Self.packThreshold else { return [:] }
        var files: [(path: String, status: stat, data: Data)] = []
        var total = 0
        for path in paths {
            let url = root.appendingPathComponent(path)
            var status = stat()
            guard lstat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                  status.st_size <= Self.largestPackedFile, total + Int(status.st_size) <= Self.largestPack,
                  let data = try? Data(contentsOf: url) else { continue }
            total += data.count
            files.append((path, status, data))
        }
        guard files.count >= Self.packThreshold else { return [:] }
        let ids = try repository.writeBlobsAsPack(files.map(\.data))
        var result: [String: ReadFile] = [:]
        for (file, id) in zip(files, ids) where file.data.count == Int(file.status.st_size) {
            result[file.path] = ReadFile(status: file.status, id: id)
        }
        return result
    }

    /// Whether an entry's mode is the file's, as libgit2 makes it: not when `core.filemode` or
    /// `core.symlinks` is off (libgit2 then keeps modes already in the index).
    func modesFollowTheFiles() throws -> Bool {
        try ["core.filemode", "core.symlinks"].allSatisfy { key in
            let value = try repository.configString(key)?.lowercased() ?? "true"
            return !["false", "no", "off", "0"].contains(value)
        }
    }

    /// Whether libgit2 stores the file at `path` byte for byte: no filter applies (`text`,
    /// `eol`, `ident` or `filter` attributes, `core.autocrlf`).
    func storesUnfiltered(_ path: String) throws -> Bool {
        var filters: OpaquePointer?
        try check(git_filter_list_load(&filters, repository.pointer, nil, path, GIT_FILTER_TO_ODB,
                                       GIT_FILTER_DEFAULT.rawValue), "git_filter_list_load")
        guard let filters else { return true }
        git_filter_list_free(filters)
        return false
    }

    /// Stages `path` as the regular file `file` (the fields `git_index_entry__init_from_stat`
    /// fills, with the mode of a file whose mode is trusted).
    func add(_ path: String, readAs file: ReadFile) throws {
        let status = file.status
        var entry = git_index_entry()
        entry.ctime.seconds = Int32(truncatingIfNeeded: status.st_ctim.tv_sec)
        entry.ctime.nanoseconds = UInt32(truncatingIfNeeded: status.st_ctim.tv_nsec)
        entry.mtime.seconds = Int32(truncatingIfNeeded: status.st_mtim.tv_sec)
        entry.mtime.nanoseconds = UInt32(truncatingIfNeeded: status.st_mtim.tv_nsec)
        entry.dev = UInt32(truncatingIfNeeded: status.st_rdev)
        entry.ino = UInt32(truncatingIfNeeded: status.st_ino)
        entry.mode = status.st_mode & 0o100 != 0 ? 0o100755 : 0o100644
        entry.uid = status.st_uid
        entry.gid = status.st_gid
        entry.file_size = UInt32(truncatingIfNeeded: status.st_size)
        entry.id = file.id.raw
        try path.withCString { name in
            entry.path = name
            try check(git_index_add(pointer, &entry), "git_index_add")
        }
    }
}
