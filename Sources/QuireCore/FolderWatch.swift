import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a `FolderWatch` saw change in the vault, as the walk of `VaultWalker` would see it.
public enum FolderChange: Hashable, Sendable {
    /// A note (`*.md`) was created, written, renamed, deleted or had its attributes changed.
    case note(String)
    /// Something only a new walk can settle: a folder was created, deleted, moved or changed
    /// permissions, a `.gitignore` changed, a symlink appeared (the reason says which).
    case structure(String)
    /// The kernel dropped events (its queue overflowed): anything may have changed.
    case overflow
}

/// Why a `FolderWatch` cannot vouch for the vault at all.
public enum FolderWatchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `inotify_init1` or `inotify_add_watch` failed: the function, the path and the reason.
    case system(function: String, path: String, message: String)
    /// The vault root was deleted, moved or unmounted.
    case rootGone

    /// A readable, lowercase description.
    public var description: String {
        switch self {
        case .system(let function, let path, let message):
            return "\(function) failed for \(path.isEmpty ? "the vault root" : path): \(message)"
        case .rootGone: return "the vault folder was deleted, moved or unmounted"
        }
    }
}

/// Watches every folder of a vault with Linux inotify, with the walk's rules: hidden folders
/// (`.git`, `.quire`, …) are not watched, only `*.md` names and `.gitignore` files matter.
/// Symlinks are not followed: one that could lead to a note or a folder is reported as a
/// structure change, so the watch never vouches for what it cannot see.
///
/// Owns the inotify descriptor (closed in `deinit`). Not thread-safe: one owner reads it.
public final class FolderWatch {
    /// The vault root with symlinks resolved.
    public let realRoot: String
    /// The inotify descriptor, for `poll`; readable when events are waiting.
    public let descriptor: Int32
    private var paths: [Int32: String] = [:]
    /// By path (by its bytes: two folders whose names differ only in Unicode normalization are two).
    private var watches: [ExactPath: Int32] = [:]
    private var links: Set<ExactPath> = []
    private var attachments = AttachmentSet()
    private static let mask = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM
        | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW)
        | UInt32(IN_EXCL_UNLINK)

    /// Starts watching every folder below `realRoot` (which must have symlinks resolved).
    /// Throws when inotify is unavailable or a folder cannot be watched (e.g. the per-user
    /// watch limit, `fs.inotify.max_user_watches`, is reached).
    public init(realRoot: String) throws(FolderWatchError) {
        self.realRoot = realRoot
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else {
            throw .system(function: "inotify_init1", path: "", message: String(cString: strerror(errno)))
        }
        var changes: [FolderChange] = []
        try addTree("", &changes)
    }

    deinit { close(descriptor) }

    /// The number of folders watched.
    public var folderCount: Int { watches.count }

    /// Why the watch cannot vouch for the vault right now: a symlink that may lead to a note or
    /// a folder is in it (the walk reaches notes through it under the link's path, which the
    /// watch cannot follow). Nil once every such symlink is gone.
    public var blocker: String? { links.min().map { "symlink \($0.string) in the vault" } }

    /// The vault's attachments as the walk lists them (`VaultListing.attachments`, before the
    /// ignore rules), in `PathOrder`: kept from the folders' listings and every create, delete
    /// and rename since, so no walk is needed for them. Nil while `blocker` is set (the walk
    /// reaches files through a symlink the watch cannot follow).
    public func attachmentPaths() -> [String]? {
        blocker == nil ? attachments.list() : nil
    }

    /// Reads every event the kernel has queued (never blocks) and returns the changes they
    /// name, in order. An event queued before this call started is always among them.
    public func drain() throws(FolderWatchError) -> [FolderChange] {
        var changes: [FolderChange] = []
        let events: [InotifyEvents.Event]
        do throws(InotifyReadError) {
            events = try InotifyEvents.drain(descriptor)
        } catch {
            throw .system(function: "read", path: "", message: error.message)
        }
        for event in events { try handle(event.watch, event.mask, event.name, &changes) }
        if changes.contains(.overflow) {
            // Events were lost: the attachments are listed again, and any folder created
            // meanwhile is watched.
            attachments.removeAll()
            try addTree("", &changes)
        }
        return changes
    }

    private func handle(_ wd: Int32, _ mask: UInt32, _ name: [UInt8],
                        _ changes: inout [FolderChange]) throws(FolderWatchError) {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            changes.append(.overflow)
            return
        }
        if mask & UInt32(IN_IGNORED) != 0 {
            if let path = paths.removeValue(forKey: wd), watches[ExactPath(path)] == wd { watches[ExactPath(path)] = nil }
            return
        }
        guard let folder = paths[wd] else { return }
        if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT) != 0 {
            if folder.isEmpty { throw .rootGone }
            return  // The parent's event names it.
        }
        guard !name.isEmpty else { return }
        let path = folder.isEmpty ? String(decoding: name, as: UTF8.self)
            : folder + "/" + String(decoding: name, as: UTF8.self)
        if Vault.isHidden(name: name) {
            if name == Array(".gitignore".utf8) { changes.append(.structure("\(path) changed")) }
            return
        }
        if mask & UInt32(IN_ISDIR) != 0 {
            if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                removeTree(path)
            } else if mask & UInt32(IN_CREATE | IN_MOVED_TO | IN_ATTRIB) != 0 {
                try addTree(path, &changes)
            } else {
                return
            }
            changes.append(.structure("folder \(path) changed"))
            return
        }
        let isNote = VaultWalker.isNoteName(name[...])
        if !isNote, mask & UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO) != 0 {
            // As the walk lists it: a regular file (not a symlink) whose name is UTF-8.
            var status = stat()
            attachments.set(path, isAttachment: FileNameText.isValid(name) && lstat(realRoot + "/" + path, &status) == 0
                            && status.st_mode & S_IFMT == S_IFREG)
        }
        if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0, links.remove(ExactPath(path)) != nil {
            changes.append(.structure("symlink \(path) removed"))
            return
        }
        if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, isRelevantLink(path, isNote: isNote) {
            links.insert(ExactPath(path))
            changes.append(.structure("symlink \(path) appeared"))
            return
        }
        if isNote { changes.append(.note(path)) }
    }

    /// Watches `relative` (a folder, "" for the root) and every folder below it. A symlink
    /// that could lead to a note or a folder, or a folder that cannot be listed, is reported as
    /// a structure change (a walk deals with it).
    private func addTree(_ relative: String, _ changes: inout [FolderChange]) throws(FolderWatchError) {
        let full = relative.isEmpty ? realRoot : realRoot + "/" + relative
        let wd = inotify_add_watch(descriptor, full, Self.mask)
        guard wd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return }  // Gone again: its parent reports it.
            if code == EACCES && !relative.isEmpty {
                changes.append(.structure("folder \(relative) cannot be read"))
                return
            }
            throw .system(function: "inotify_add_watch", path: relative, message: String(cString: strerror(code)))
        }
        if let old = paths[wd], watches[ExactPath(old)] == wd { watches[ExactPath(old)] = nil }
        paths[wd] = relative
        watches[ExactPath(relative)] = wd
        guard let directory = opendir(full) else {
            changes.append(.structure("folder \(relative) cannot be read"))
            return
        }
        var folders: [String] = []
        while let entry = readdir(directory) {
            let type = Int32(entry.pointee.d_type)
            let name: [UInt8] = DirectoryEntryName.with(entry) { Array($0) }
            guard !name.isEmpty, !Vault.isHidden(name: name) else { continue }
            let child = relative.isEmpty ? String(decoding: name, as: UTF8.self)
                : relative + "/" + String(decoding: name, as: UTF8.self)
            if type == Int32(DT_DIR) {
                folders.append(child)
            } else if type == Int32(DT_REG) {
                if !VaultWalker.isNoteName(name[...]), FileNameText.isValid(name) { attachments.set(child, isAttachment: true) }
            } else if type == Int32(DT_LNK) || type == Int32(DT_UNKNOWN) {
                var status = stat()
                guard lstat(realRoot + "/" + child, &status) == 0 else { continue }
                let kind = status.st_mode & S_IFMT
                if kind == S_IFDIR {
                    folders.append(child)
                } else if kind == S_IFLNK, isRelevantLink(child, isNote: VaultWalker.isNoteName(name[...])) {
                    links.insert(ExactPath(child))
                    changes.append(.structure("symlink \(child) in the vault"))
                }
            }
        }
        closedir(directory)
        for folder in folders { try addTree(folder, &changes) }
    }

    /// Whether `relative` is a symlink the walk could follow to a note or a folder.
    private func isRelevantLink(_ relative: String, isNote: Bool) -> Bool {
        var status = stat()
        guard lstat(realRoot + "/" + relative, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return false }
        if isNote { return true }
        var target = stat()
        return stat(realRoot + "/" + relative, &target) == 0 && target.st_mode & S_IFMT == S_IFDIR
    }

    /// Stops watching `relative` and every folder below it (it was deleted or moved away).
    private func removeTree(_ relative: String) {
        links = links.filter { !ExactPath.isWithin($0.string, relative) }
        attachments.removeAll(within: relative)
        for (path, wd) in watches where ExactPath.isWithin(path.string, relative) {
            inotify_rm_watch(descriptor, wd)
            watches[path] = nil
            paths[wd] = nil
        }
    }

}
