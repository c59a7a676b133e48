import Foundation
import QuireCore
import QuireSearch
#if canImport(Glibc)
import Glibc
#endif

/// Watches every folder a sync commits from, with Linux inotify, for the sync daemon: the whole
/// work tree but `.git`, `.quire/local` and `.quire/cache` and the folders git ignores; folders
/// made later are watched as they appear. Names a change of any file a sync may commit, never
/// one of an editor's scratch files (`EditorScratch`), quire's temporary files or ignored files.
/// Also watches `.quire/local` for `sync-state.json` alone: a sync run by hand shows there.
///
/// Owns the inotify descriptor (closed in `deinit`). Not thread-safe: one owner reads it.
final class SyncTreeWatch {
    /// What one drain saw.
    struct Changes {
        /// Vault-relative paths of files (and folders) changed (by their bytes).
        var paths: Set<ExactPath> = []
        /// `.quire/local/sync-state.json` was replaced (a sync ran, this daemon's or another).
        var syncStateChanged = false
        /// The kernel dropped events: anything may have changed.
        var overflow = false
    }

    let root: String
    /// The inotify descriptor, for `poll`.
    let descriptor: Int32
    private var paths: [Int32: String] = [:]
    /// By path (by its bytes: two folders whose names differ only in Unicode normalization are two).
    private var watches: [ExactPath: Int32] = [:]
    private let rules: (any IgnoreRules)?
    /// The ignore rules as of the last `.gitignore` change (nil: none).
    private var ignored: ((String, Bool) -> Bool)?
    private static let localFolder = ".quire/local"
    private static let skipped: Set<String> = [".git", ".quire/local", ".quire/cache", TemporaryFiles.folder]
    private static let mask = UInt32(IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_FROM | IN_MOVED_TO
        | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW) | UInt32(IN_EXCL_UNLINK)

    /// Watches the vault at `root` (symlinks resolved); `rules` say which folders git ignores.
    init(root: String, rules: (any IgnoreRules)?) throws {
        self.root = root
        self.rules = rules
        ignored = try rules?.ignoreMatcher()
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else {
            throw SyncDaemonError.system(function: "inotify_init1", path: root, message: String(cString: strerror(errno)))
        }
        try addTree("")
        try add(Self.localFolder, mask: UInt32(IN_MOVED_TO | IN_CLOSE_WRITE | IN_ONLYDIR))
    }

    deinit { close(descriptor) }

    /// The number of folders watched.
    var folderCount: Int { watches.count }

    /// Reads every queued event (never blocks).
    func drain() throws -> Changes {
        var changes = Changes()
        let events: [InotifyEvents.Event]
        do throws(InotifyReadError) {
            events = try InotifyEvents.drain(descriptor)
        } catch {
            throw SyncDaemonError.system(function: "read", path: root, message: error.message)
        }
        for event in events {
            try handle(event.watch, event.mask, String(decoding: event.name, as: UTF8.self), &changes)
        }
        return changes
    }

    private func handle(_ wd: Int32, _ mask: UInt32, _ name: String, _ changes: inout Changes) throws {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            changes.overflow = true
            return
        }
        if mask & UInt32(IN_IGNORED) != 0 {
            if let path = paths.removeValue(forKey: wd), watches[ExactPath(path)] == wd { watches[ExactPath(path)] = nil }
            return
        }
        guard let folder = paths[wd] else { return }
        if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
            if folder.isEmpty { throw SyncDaemonError.rootGone(root) }
            return
        }
        guard !name.isEmpty else { return }
        if folder == Self.localFolder {
            if name == "sync-state.json" { changes.syncStateChanged = true }
            return
        }
        let path = folder.isEmpty ? name : folder + "/" + name
        if Self.skipped.contains(path) || EditorScratch.isScratch(path) || TemporaryFiles.isTemporary(path) { return }
        if mask & UInt32(IN_ISDIR) != 0 {
            if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                removeTree(path)
            } else if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                if isIgnored(path, folder: true) { return }
                try addTree(path)
            } else {
                return
            }
            changes.paths.insert(ExactPath(path))
            return
        }
        if name == ".gitignore" { ignored = try rules?.ignoreMatcher() }
        if isIgnored(path, folder: false) { return }
        changes.paths.insert(ExactPath(path))
    }

    private func isIgnored(_ path: String, folder: Bool) -> Bool {
        ignored?(path, folder) ?? false
    }

    private func add(_ relative: String, mask: UInt32) throws {
        let full = relative.isEmpty ? root : root + "/" + relative
        let wd = inotify_add_watch(descriptor, full, mask)
        guard wd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR || (code == EACCES && !relative.isEmpty) { return }
            throw SyncDaemonError.system(function: "inotify_add_watch", path: full, message: String(cString: strerror(code)))
        }
        if let old = paths[wd], watches[ExactPath(old)] == wd { watches[ExactPath(old)] = nil }
        paths[wd] = relative
        watches[ExactPath(relative)] = wd
    }

    /// Watches `relative` ("" for the root) and every folder below it that a sync commits from.
    private func addTree(_ relative: String) throws {
        try add(relative, mask: Self.mask)
        let full = relative.isEmpty ? root : root + "/" + relative
        guard let directory = opendir(full) else { return }
        var folders: [String] = []
        while let entry = readdir(directory) {
            let name = DirectoryEntryName.with(entry) { String(decoding: $0, as: UTF8.self) }
            guard name != ".", name != ".." else { continue }
            let child = relative.isEmpty ? name : relative + "/" + name
            var isFolder = Int32(entry.pointee.d_type) == Int32(DT_DIR)
            if Int32(entry.pointee.d_type) == Int32(DT_UNKNOWN) {
                var status = stat()
                isFolder = lstat(root + "/" + child, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
            }
            guard isFolder, !Self.skipped.contains(child), !isIgnored(child, folder: true) else { continue }
            folders.append(child)
        }
        closedir(directory)
        for folder in folders.sorted() { try addTree(folder) }
    }

    /// Stops watching `relative` and every folder below it (it was deleted or moved away).
    private func removeTree(_ relative: String) {
        for (path, wd) in watches where ExactPath.isWithin(path.string, relative) {
            inotify_rm_watch(descriptor, wd)
            watches[path] = nil
            paths[wd] = nil
        }
    }
}
