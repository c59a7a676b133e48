import CLibGit2
import Foundation

/// The repository's staging area: owns one `git_index` handle, freed in `deinit`.
/// Changes stay in memory until `write()`.
public final class Index {
    /// The owned handle; freed with `git_index_free` in `deinit`.
    let pointer: OpaquePointer
    /// Keeps the repository alive while the index is in use.
    let repository: Repository

    init(repository: Repository) throws {
        var raw: OpaquePointer?
        try check(git_repository_index(&raw, repository.pointer), "git_repository_index")
        guard let raw else {
            throw GitError(function: "git_repository_index", code: .other(-1), message: "no index")
        }
        pointer = raw
        self.repository = repository
        // libgit2 holds the entries now: the copy read for the scan is not kept beside them.
        repository.keptIndexFile = nil
    }

    deinit {
        git_index_free(pointer)
    }

    /// The entry at `path` (stage 0: not a conflict), nil when the index holds none.
    public func entry(atPath path: String) -> TreeEntry? {
        guard let entry = git_index_get_bypath(pointer, path, 0) else { return nil }
        return TreeEntry(path: path, id: OID(entry.pointee.id), kind: EntryKind(mode: git_filemode_t(entry.pointee.mode)))
    }

    /// Re-reads the index file from disk, dropping unsaved in-memory changes.
    public func reload() throws {
        try check(git_index_read(pointer, 1), "git_index_read")
    }

    /// Stages every new and changed file matching `patterns` (ignored files are skipped) and
    /// every deletion: the equivalent of `git add --all`.
    public func addAll(_ patterns: [String] = ["*"]) throws {
        try StringArray.with(patterns) { array in
            try check(git_index_add_all(pointer, array, GIT_INDEX_ADD_DEFAULT.rawValue, nil, nil),
                      "git_index_add_all")
            try check(git_index_update_all(pointer, array, nil, nil), "git_index_update_all")
        }
    }

    /// Stages exactly `paths` (relative to the work tree `root`), as `addAll()` would stage them:
    /// a file there is added (read, hashed, written to the object database), a path with no file
    /// is removed from the index, and so is a path where a folder now is (a file replaced by a
    /// folder of its name: the folder's files come as paths of their own; staging the folder's
    /// name failed, "it is a directory"). For the paths `Repository.status()` reports this is what
    /// `addAll()` does, without walking the whole work tree twice. From `packThreshold` files
    /// on, their blobs go into one pack and each file is read once (see `Index+Bulk.swift`).
    public func update(paths: [String], root: URL) throws {
        let read = try readIntoPack(paths, root: root)
        let direct = try !read.isEmpty && modesFollowTheFiles()
        for path in paths {
            let exists = { root.appendingPathComponent(path).withUnsafeFileSystemRepresentation { name in
                var status = stat()
                return name.map { lstat($0, &status) == 0 && status.st_mode & S_IFMT != S_IFDIR } ?? false
            } }
            guard exists() else {
                try remove(path: path)
                continue
            }
            if direct, let file = read[path], try storesUnfiltered(path) {
                try add(path, readAs: file)
                continue
            }
            do {
                try add(path: path)
            } catch is GitError where !exists() {
                // Deleted after the check: staged as the deletion it now is.
                try remove(path: path)
            }
        }
    }

    /// Stages one file from the work tree.
    /// A link's entry is dropped first: over an entry that is not a regular file libgit2 skips
    /// the eol conversion (`core.autocrlf`, `text`) that git applies, and would store CRLF bytes.
    public func add(path: String) throws {
        if let entry = git_index_get_bypath(pointer, path, 0), entry.pointee.mode == GIT_FILEMODE_LINK.rawValue {
            try remove(path: path)
        }
        try check(git_index_add_bypath(pointer, path), "git_index_add_bypath")
    }

    /// Sets the entry at `entry.path` to a blob already in the object database, without reading
    /// the work tree (the stat data is empty, so git re-reads the file to compare it).
    public func add(entry item: TreeEntry) throws {
        try Index.add(item, to: pointer)
    }

    /// Adds `item` to a borrowed `git_index` (also an in-memory one).
    static func add(_ item: TreeEntry, to index: OpaquePointer) throws {
        var entry = git_index_entry()
        entry.id = item.id.raw
        entry.mode = item.kind.mode.rawValue
        try item.path.withCString { path in
            entry.path = path
            try check(git_index_add(index, &entry), "git_index_add")
        }
    }

    /// Removes one path from the index.
    public func remove(path: String) throws {
        try check(git_index_remove_bypath(pointer, path), "git_index_remove_bypath")
    }

    /// Replaces the index with the contents of `tree` (e.g. after moving the branch).
    public func read(tree: OID) throws {
        var raw = tree.raw
        var object: OpaquePointer?
        try check(git_tree_lookup(&object, repository.pointer, &raw), "git_tree_lookup")
        defer { git_tree_free(object) }
        try check(git_index_read_tree(pointer, object), "git_index_read_tree")
    }

    /// Whether the index holds merge conflicts.
    public var hasConflicts: Bool { git_index_has_conflicts(pointer) == 1 }

    /// Saves the index to disk.
    public func write() throws {
        try check(git_index_write(pointer), "git_index_write")
    }

    /// Writes the index's contents as a tree and returns its id.
    public func writeTree() throws -> OID {
        var result = git_oid()
        try check(git_index_write_tree(&result, pointer), "git_index_write_tree")
        return OID(result)
    }
}

extension Repository {
    /// The repository's index (a new handle each call).
    public func index() throws -> Index {
        try Index(repository: self)
    }
}
