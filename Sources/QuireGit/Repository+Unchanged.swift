import CLibGit2
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Repository {
    /// Whether the index and the work tree certainly match HEAD, decided from stat data alone
    /// (no file is read): `changeCandidates()` found nothing.
    public func isProvablyUnchanged() throws -> Bool {
        try changeCandidates()?.isEmpty == true
    }

    /// The paths where the work tree may differ from HEAD, found from stat data alone (no file
    /// is read), on every core, without libgit2's single-threaded status: every tracked file
    /// whose `lstat` differs from its index entry in any field git records (mtime and ctime to
    /// the nanosecond, size, inode, uid, gid, mode), or that is missing, or that is racily clean
    /// (modified at or after the index file: its content could change without its stat data, so
    /// git compares its content, and so does the status these paths are given to), and every
    /// untracked file or folder not ignored; sorted. Empty: nothing changed (the usual sync).
    /// nil when stat data cannot narrow it down — HEAD's tree is not the index's tree, an entry
    /// is conflicted, flagged (intent-to-add, skip-worktree) or other than a regular file, a
    /// tracked folder is gone or no folder, a nested repository, `core.ignorecase`: ask the full
    /// `status()`. `status(paths:)` of the candidates decides exactly, at the cost of their
    /// number. Stricter than git on purpose (a difference git would forgive, such as a
    /// `core.filemode = false` mode change, only makes a candidate).
    public func changeCandidates() throws -> [String]? {
        guard let root = workDirectory?.path, let head = try headCommitID(),
              try configString("core.ignorecase").map({ !Self.isTrue($0) }) ?? true else { return nil }
        let indexPath = gitDirectory.appendingPathComponent("index").path
        var before = stat()
        guard lstat(indexPath, &before) == 0 else { return nil }
        // The file read as git reads it (no hash of all of it, no map of its paths); libgit2
        // reads it when this reader leaves it a version, an extension or a tree to work out.
        let file = indexFile()
        let index = file?.tree == nil ? try self.index() : nil
        if let index { try check(git_index_read(index.pointer, 0), "git_index_read") }
        var after = stat()
        // Rewritten meanwhile (libgit2 and git replace it with a new file): not the stat taken.
        guard lstat(indexPath, &after) == 0, after.st_ino == before.st_ino, after.st_size == before.st_size,
              after.st_mtim.tv_sec == before.st_mtim.tv_sec, after.st_mtim.tv_nsec == before.st_mtim.tv_nsec,
              index.map({ git_index_has_conflicts($0.pointer) == 0 }) ?? true else { return nil }
        var tree = git_oid()
        if let index {
            // Immediate when the index's tree cache is valid (as quire and git leave it after a commit).
            try check(git_index_write_tree(&tree, index.pointer), "git_index_write_tree")
        }
        guard (file?.tree ?? OID(tree)) == (try treeID(ofCommit: head)) else { return nil }
        let entries = file?.entries ?? index.map { IndexFile.entries(of: $0) } ?? []
        let found = withExtendedLifetime((file, index)) { () -> TrackedFolders.Found? in
            TrackedFolders(entries: entries, indexModified: after.st_mtim)?.scan(root: root)
        }
        guard let scan = found else { return nil }
        var candidates = scan.changed
        for item in scan.untracked {
            if try isIgnored(item.isFolder ? item.path + "/" : item.path) { continue }
            if item.isFolder, try onlyIgnored(in: item.path, root: root) { continue }
            candidates.append(item.path)
        }
        return candidates.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Whether every file under the untracked folder `path` (and every folder holding one) is
    /// ignored: git shows an untracked folder only when it holds a file it does not ignore.
    private func onlyIgnored(in path: String, root: String) throws -> Bool {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: root + "/" + path).sorted()
        } catch {
            return false
        }
        for name in names {
            let child = path + "/" + name
            var status = stat()
            guard lstat(root + "/" + child, &status) == 0 else { return false }
            let isFolder = status.st_mode & S_IFMT == S_IFDIR
            if name == ".git" && isFolder { return false }  // a nested repository
            if try isIgnored(isFolder ? child + "/" : child) { continue }
            guard isFolder, try onlyIgnored(in: child, root: root) else { return false }
        }
        return true
    }

    static func isTrue(_ value: String) -> Bool {
        ["true", "yes", "on", "1"].contains(value.lowercased())
    }
}

/// The index's entries grouped by folder, for `changeCandidates`: each folder is read once
/// (`fstatat` per tracked file by its index name and a count of the folder's entries; a folder
/// that holds more is listed name by name), folders in parallel. The entries' paths are borrowed
/// from the index file's bytes (`IndexFile`) or a `git_index`, which must outlive a scan.
struct TrackedFolders {
    /// One untracked file or folder found by a scan (relative to the work tree).
    struct Untracked {
        var path: String
        var isFolder: Bool
    }

    /// What a scan found: tracked files that may have changed (stat data differs, missing, or
    /// racily clean) and the untracked files and folders.
    struct Found {
        var changed: [String] = []
        var untracked: [Untracked] = []
    }

    /// One tracked folder: the index entries of its files (their names start at `nameOffset` of
    /// each entry's path) and the names of its tracked subfolders.
    struct Folder {
        var entries: [IndexFile.Entry] = []
        /// Whether each entry is racily clean (always a candidate).
        var racy: [Bool] = []
        var nameOffset = 0
        var subfolders: Set<String> = []

        mutating func append(_ more: [IndexFile.Entry], racy moreRacy: [Bool]) {
            entries += more
            racy += moreRacy
        }
    }

    /// Folder path ("" for the root) → what the index holds in it.
    private var folders: [String: Folder] = ["": Folder()]

    /// Groups `entries` (sorted by path; their paths borrowed, alive while a scan runs); nil
    /// when one rules the fast answer out (not stage 0, a flag, not a regular file). An entry
    /// modified at or after `indexModified` is racily clean.
    init?(entries all: [IndexFile.Entry], indexModified: timespec) {
        let newest = (Int64(indexModified.tv_sec), Int64(indexModified.tv_nsec))
        // The folder of the entry before: entries are sorted by path, so most share it; its
        // entries are gathered here and handed to its `Folder` when the folder changes.
        var current = ""
        var currentBytes: [UInt8] = []
        var entries: [IndexFile.Entry] = []
        var racy: [Bool] = []
        for entry in all {
            let modified = (Int64(entry.mtimeSeconds), Int64(entry.mtimeNanoseconds))
            guard entry.stage == 0, !entry.flagged, entry.mode == 0o100644 || entry.mode == 0o100755 else { return nil }
            let path = entry.path
            let folderLength = strrchr(path, 0x2F).map { UnsafePointer($0) - path } ?? 0
            let folderBytes = UnsafeRawBufferPointer(start: path, count: folderLength)
            if !folderBytes.elementsEqual(currentBytes) {
                folders[current]?.append(entries, racy: racy)
                (entries, racy) = ([], [])
                currentBytes = Array(folderBytes)
                current = String(decoding: currentBytes, as: UTF8.self)
                if folders[current] == nil { add(folder: current) }
            }
            entries.append(entry)
            racy.append(modified >= newest)
        }
        folders[current]?.append(entries, racy: racy)
    }

    /// Registers `path` and its missing ancestors, each as a subfolder of its parent.
    private mutating func add(folder path: String) {
        let parent = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        if folders[parent] == nil { add(folder: parent) }
        folders[parent]?.subfolders.insert(name)
        folders[path] = Folder(nameOffset: path.utf8.count + 1)
    }

    /// Reads every tracked folder under `root`; what differs, or nil when a tracked folder is
    /// gone or no folder (or cannot be read), or holds a nested `.git`.
    func scan(root: String) -> Found? {
        let paths = folders.keys.sorted()
        var results = [Found?](repeating: nil, count: paths.count)
        // Set by the first folder the scan cannot judge: the others are not read.
        let failed = NSLock()
        var found = false
        results.withUnsafeMutableBufferPointer { output in
            let slots = output
            onEveryCore(iterations: paths.count) { position in
                guard !failed.withLock({ found }) else { return }
                let result = scanFolder(paths[position], root: root)
                if result == nil { failed.withLock { found = true } }
                slots.baseAddress.map { ($0 + position).pointee = result }
            }
        }
        var all = Found()
        for result in results {
            guard let result else { return nil }
            all.changed += result.changed
            all.untracked += result.untracked
        }
        return all
    }

    /// One folder: nil when it cannot be judged, else its changed and untracked entries.
    private func scanFolder(_ path: String, root: String) -> Found? {
        guard let folder = folders[path] else { return nil }
        // By the name's bytes: Swift strings equal under Unicode normalization are two files here.
        // Each name maps to its entry's position; `seen` marks the names the folder still holds.
        var names: [UnsafePointer<CChar>] = []
        names.reserveCapacity(folder.entries.count)
        for entry in folder.entries {
            names.append(entry.path + folder.nameOffset)
        }
        let tracked = TrackedNames(names)
        var seen = [Bool](repeating: false, count: tracked.count)
        var seenCount = 0
        // The root as given (it may be reached through a link); a subfolder was checked to be a
        // real folder by its parent's scan, and O_NOFOLLOW keeps it one.
        let descriptor = path.isEmpty ? open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            : open(root + "/" + path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        switch Self.statTracked(folder, path: path, descriptor: descriptor) {
        case .judged(let found):
            close(descriptor)
            return found
        case .cannotJudge:
            close(descriptor)
            return nil
        case .needsListing:
            break
        }
        guard let stream = fdopendir(descriptor) else {
            close(descriptor)
            return nil
        }
        defer { closedir(stream) }
        var found = Found()
        let prefix = path.isEmpty ? "" : path + "/"
        while let item = readdir(stream) {
            let capacity = MemoryLayout.size(ofValue: item.pointee.d_name)
            let judged = withUnsafePointer(to: &item.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: capacity) { name -> Bool in
                    let length = strlen(name)
                    if Self.isDotOrDotDot(name, length: length) || (path.isEmpty && strcmp(name, ".git") == 0) { return true }
                    // A name that is not UTF-8 could not be named to the status exactly: left to the full one.
                    guard Self.isUTF8(name, length: length) else { return false }
                    var status = stat()
                    guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
                    if let position = tracked.position(of: name, length: length) {
                        if !seen[position] { (seen[position], seenCount) = (true, seenCount + 1) }
                        if folder.racy[position] || !Self.matches(folder.entries[position], status) {
                            found.changed.append(prefix + String(cString: name))
                        }
                        return true
                    }
                    let text = String(cString: name)
                    let kind = status.st_mode & S_IFMT
                    if folder.subfolders.contains(text) { return kind == S_IFDIR }
                    // A `.git` below the root: a nested repository (or a stray one), left to status.
                    if text == ".git" { return false }
                    found.untracked.append(Untracked(path: prefix + text, isFolder: kind == S_IFDIR))
                    return true
                }
            }
            guard judged else { return nil }
        }
        if seenCount < tracked.count {
            for position in seen.indices where !seen[position] {  // deleted
                let name = tracked.name(at: position)
                guard Self.isUTF8(name.bytes, length: name.length) else { return nil }
                found.changed.append(prefix + String(cString: name.bytes))
            }
        }
        return found
    }

    private static func isDotOrDotDot(_ name: UnsafePointer<CChar>, length: Int) -> Bool {
        (length == 1 && name[0] == 0x2E) || (length == 2 && name[0] == 0x2E && name[1] == 0x2E)
    }

    /// Whether the `length` bytes at `name` are UTF-8 (ASCII at once, anything else checked).
    private static func isUTF8(_ name: UnsafePointer<CChar>, length: Int) -> Bool {
        for offset in 0..<length where name[offset] < 0 {
            return String(validatingCString: name) != nil
        }
        return true
    }

    /// Whether `status` (an `lstat`) is exactly what `entry` recorded, field by field as
    /// libgit2 fills an entry from a stat (32-bit fields truncated the same way).
    static func matches(_ entry: IndexFile.Entry, _ status: stat) -> Bool {
        guard status.st_mode & S_IFMT == S_IFREG,
              (status.st_mode & 0o100 != 0) == (entry.mode == 0o100755) else { return false }
        return entry.mtimeSeconds == UInt32(truncatingIfNeeded: status.st_mtim.tv_sec)
            && entry.mtimeNanoseconds == UInt32(truncatingIfNeeded: status.st_mtim.tv_nsec)
            && entry.ctimeSeconds == UInt32(truncatingIfNeeded: status.st_ctim.tv_sec)
            && entry.ctimeNanoseconds == UInt32(truncatingIfNeeded: status.st_ctim.tv_nsec)
            && entry.size == UInt32(truncatingIfNeeded: status.st_size)
            && entry.inode == UInt32(truncatingIfNeeded: status.st_ino)
            && entry.uid == status.st_uid && entry.gid == status.st_gid
    }
}

/// `body(0)` … `body(iterations - 1)` on every core, returning when all have run. The iterations
/// of `TrackedFolders.scan` read shared state, write disjoint slots and guard their one flag with
/// a lock, which the compiler cannot see: this is the one place that says so.
private func onEveryCore(iterations: Int, _ body: (Int) -> Void) {
    withoutActuallyEscaping(body) { work in
        let shared = SharedWork(body: work)
        DispatchQueue.concurrentPerform(iterations: iterations) { shared.body($0) }
    }
}

/// The loop body handed to the worker threads of `onEveryCore`.
private struct SharedWork: @unchecked Sendable {
    let body: (Int) -> Void
}
