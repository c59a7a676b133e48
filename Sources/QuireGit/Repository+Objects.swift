import CLibGit2
import Foundation

/// A commit's metadata, copied out of libgit2.
public struct CommitInfo: Equatable, Sendable {
    /// The commit id.
    public var id: OID
    /// The root tree.
    public var tree: OID
    /// Parent commits, first parent first.
    public var parents: [OID]
    /// Who wrote the change.
    public var author: Signature
    /// Who committed it.
    public var committer: Signature
    /// The full message.
    public var message: String
}

/// What a tree entry holds.
public enum EntryKind: String, Equatable, Sendable {
    /// A regular file.
    case file
    /// An executable file.
    case executable
    /// A symbolic link.
    case link
    /// A subdirectory (only in non-recursive listings).
    case tree
    /// A submodule (gitlink).
    case submodule

    init(mode: git_filemode_t) {
        switch mode {
        case GIT_FILEMODE_BLOB_EXECUTABLE: self = .executable
        case GIT_FILEMODE_LINK: self = .link
        case GIT_FILEMODE_TREE: self = .tree
        case GIT_FILEMODE_COMMIT: self = .submodule
        default: self = .file
        }
    }

    var mode: git_filemode_t {
        switch self {
        case .file: return GIT_FILEMODE_BLOB
        case .executable: return GIT_FILEMODE_BLOB_EXECUTABLE
        case .link: return GIT_FILEMODE_LINK
        case .tree: return GIT_FILEMODE_TREE
        case .submodule: return GIT_FILEMODE_COMMIT
        }
    }
}

/// One entry of a tree listing: its full path from the root, object id and kind.
public struct TreeEntry: Equatable, Sendable {
    /// `/`-separated path from the tree's root.
    public var path: String
    /// The blob (or tree / commit) id.
    public var id: OID
    /// What it is.
    public var kind: EntryKind

    /// Creates an entry (used to build trees).
    public init(path: String, id: OID, kind: EntryKind = .file) {
        self.path = path
        self.id = id
        self.kind = kind
    }
}

extension Repository {
    /// Reads a commit's metadata.
    public func commit(_ id: OID) throws -> CommitInfo {
        var raw = id.raw
        var commit: OpaquePointer?
        try check(git_commit_lookup(&commit, pointer, &raw), "git_commit_lookup")
        defer { git_commit_free(commit) }
        var parents: [OID] = []
        for index in 0..<git_commit_parentcount(commit) {
            if let parent = git_commit_parent_id(commit, index) { parents.append(OID(parent)) }
        }
        guard let treeID = git_commit_tree_id(commit), let author = git_commit_author(commit),
              let committer = git_commit_committer(commit) else {
            throw GitError(function: "git_commit_lookup", code: .other(-1), message: "incomplete commit \(id)")
        }
        let message = git_commit_message(commit).map { String(cString: $0) } ?? ""
        return CommitInfo(id: id, tree: OID(treeID), parents: parents, author: Signature(author),
                          committer: Signature(committer), message: message)
    }

    /// Writes a commit of `tree` with `parents`; with `updateReference` (e.g. `HEAD` or
    /// `refs/heads/main`) that reference moves to it (it must point at the first parent).
    public func createCommit(tree: OID, parents: [OID], message: String, author: Signature,
                             committer: Signature, updateReference: String? = nil) throws -> OID {
        var treeRaw = tree.raw
        var treeObject: OpaquePointer?
        try check(git_tree_lookup(&treeObject, pointer, &treeRaw), "git_tree_lookup")
        defer { git_tree_free(treeObject) }
        var parentObjects: [OpaquePointer?] = []
        defer { parentObjects.forEach { git_commit_free($0) } }
        for parent in parents {
            var raw = parent.raw
            var object: OpaquePointer?
            try check(git_commit_lookup(&object, pointer, &raw), "git_commit_lookup")
            parentObjects.append(object)
        }
        var result = git_oid()
        _ = try author.withRaw { authorRaw in
            try committer.withRaw { committerRaw in
                try parentObjects.withUnsafeMutableBufferPointer { buffer in
                    try check(git_commit_create(&result, pointer, updateReference, authorRaw, committerRaw, nil,
                                                message, treeObject, buffer.count, buffer.baseAddress),
                              "git_commit_create")
                }
            }
        }
        return OID(result)
    }

    /// The bytes of a blob.
    public func blobData(_ id: OID) throws -> Data {
        var raw = id.raw
        var blob: OpaquePointer?
        try check(git_blob_lookup(&blob, pointer, &raw), "git_blob_lookup")
        defer { git_blob_free(blob) }
        let size = Int(git_blob_rawsize(blob))
        guard size > 0, let content = git_blob_rawcontent(blob) else { return Data() }
        return Data(bytes: content, count: size)
    }

    /// Stores `data` as a blob and returns its id.
    public func writeBlob(_ data: Data) throws -> OID {
        var result = git_oid()
        _ = try data.withUnsafeBytes { buffer in
            try check(git_blob_create_from_buffer(&result, pointer, buffer.baseAddress, buffer.count),
                      "git_blob_create_from_buffer")
        }
        return OID(result)
    }

    /// The tree id of a commit.
    public func treeID(ofCommit id: OID) throws -> OID {
        try commit(id).tree
    }

    /// Every blob (and submodule) under `tree`, recursively, sorted by path.
    public func treeEntries(_ tree: OID) throws -> [TreeEntry] {
        var result: [TreeEntry] = []
        try collectEntries(tree, prefix: "", into: &result)
        return result.sorted { $0.path < $1.path }
    }

    private func collectEntries(_ tree: OID, prefix: String, into result: inout [TreeEntry]) throws {
        var raw = tree.raw
        var object: OpaquePointer?
        try check(git_tree_lookup(&object, pointer, &raw), "git_tree_lookup")
        defer { git_tree_free(object) }
        for index in 0..<git_tree_entrycount(object) {
            guard let entry = git_tree_entry_byindex(object, index), let id = git_tree_entry_id(entry) else { continue }
            let name = String(cString: git_tree_entry_name(entry))
            let path = prefix.isEmpty ? name : prefix + "/" + name
            let kind = EntryKind(mode: git_tree_entry_filemode(entry))
            if kind == .tree {
                try collectEntries(OID(id), prefix: path, into: &result)
            } else {
                result.append(TreeEntry(path: path, id: OID(id), kind: kind))
            }
        }
    }

    /// The entry at `path` inside `tree`, or nil when there is none.
    public func entry(atPath path: String, inTree tree: OID) throws -> TreeEntry? {
        var raw = tree.raw
        var object: OpaquePointer?
        try check(git_tree_lookup(&object, pointer, &raw), "git_tree_lookup")
        defer { git_tree_free(object) }
        var entry: OpaquePointer?
        let result = git_tree_entry_bypath(&entry, object, path)
        if result == GIT_ENOTFOUND.rawValue { return nil }
        try check(result, "git_tree_entry_bypath")
        defer { git_tree_entry_free(entry) }
        guard let id = git_tree_entry_id(entry) else { return nil }
        return TreeEntry(path: path, id: OID(id), kind: EntryKind(mode: git_tree_entry_filemode(entry)))
    }

    /// The entries at `paths` inside `tree`, by path (a path with no entry is left out). Each
    /// folder's tree is read once, so looking up thousands of paths costs one pass per folder
    /// rather than a walk from the root per path.
    public func entries(atPaths paths: [String], inTree tree: OID) throws -> [String: TreeEntry] {
        var raw = tree.raw
        var root: OpaquePointer?
        try check(git_tree_lookup(&root, pointer, &raw), "git_tree_lookup")
        // Folder trees looked up here, freed with `git_tree_free` when the lookup ends.
        var folders: [String: OpaquePointer] = [:]
        var missing = Set<String>()
        defer {
            for folder in folders.values { git_tree_free(folder) }
            git_tree_free(root)
        }
        func folderTree(_ folder: String) throws -> OpaquePointer? {
            if folder.isEmpty { return root }
            if let known = folders[folder] { return known }
            if missing.contains(folder) { return nil }
            var entry: OpaquePointer?
            let result = git_tree_entry_bypath(&entry, root, folder)
            if result == GIT_ENOTFOUND.rawValue {
                missing.insert(folder)
                return nil
            }
            try check(result, "git_tree_entry_bypath")
            defer { git_tree_entry_free(entry) }
            guard git_tree_entry_type(entry) == GIT_OBJECT_TREE, let id = git_tree_entry_id(entry) else {
                missing.insert(folder)
                return nil
            }
            var object: OpaquePointer?
            try check(git_tree_lookup(&object, pointer, id), "git_tree_lookup")
            guard let object else { return nil }
            folders[folder] = object
            return object
        }
        var result: [String: TreeEntry] = [:]
        for path in paths {
            let slash = path.lastIndex(of: "/")
            let folder = slash.map { String(path[..<$0]) } ?? ""
            let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
            guard let parent = try folderTree(folder), let entry = git_tree_entry_byname(parent, name),
                  let id = git_tree_entry_id(entry) else { continue }
            result[path] = TreeEntry(path: path, id: OID(id), kind: EntryKind(mode: git_tree_entry_filemode(entry)))
        }
        return result
    }

    /// Writes a tree holding exactly `entries` (nested folders made from the paths) through an
    /// in-memory index, and returns its id.
    public func writeTree(entries: [TreeEntry]) throws -> OID {
        var index: OpaquePointer?
        try check(git_index_new(&index), "git_index_new")
        defer { git_index_free(index) }
        guard let index else {
            throw GitError(function: "git_index_new", code: .other(-1), message: "no index")
        }
        for item in entries.sorted(by: { $0.path < $1.path }) {
            try Index.add(item, to: index)
        }
        var result = git_oid()
        try check(git_index_write_tree_to(&result, index, pointer), "git_index_write_tree_to")
        return OID(result)
    }
}
