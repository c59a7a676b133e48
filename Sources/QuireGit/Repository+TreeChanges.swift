import CLibGit2

extension Repository {
    /// The paths of the files (blobs, links, submodules) that differ between the trees `old`
    /// and `new` (nil = the empty tree): added, deleted, or changed in id or mode. Only subtrees
    /// whose ids differ are read, so one edited note costs the trees on its path, not the
    /// vault's (libgit2's `git_diff_tree_to_tree` reads every tree of both sides). Unsorted;
    /// nil when a name on the way is not UTF-8 (it could not be named back to libgit2 exactly).
    func differingPaths(from old: OID?, to new: OID?) throws -> [String]? {
        var paths: [String] = []
        do {
            try withTree(old) { oldTree in
                try withTree(new) { newTree in
                    try collectDifferences(oldTree, newTree, prefix: "", into: &paths)
                }
            }
        } catch is NameNotUTF8 {
            return nil
        }
        return paths
    }

    /// Thrown inside `differingPaths` by a name that is not UTF-8.
    private struct NameNotUTF8: Error {}

    /// Runs `body` with the tree `id` looked up (nil for nil), freed after.
    private func withTree<T>(_ id: OID?, _ body: (OpaquePointer?) throws -> T) throws -> T {
        guard let id else { return try body(nil) }
        var raw = id.raw
        var tree: OpaquePointer?
        try check(git_tree_lookup(&tree, pointer, &raw), "git_tree_lookup")
        defer { git_tree_free(tree) }
        return try body(tree)
    }

    /// Appends to `paths` what differs between two trees (either may be nil: everything in the
    /// other one differs); subtrees with equal ids are skipped unread.
    private func collectDifferences(_ old: OpaquePointer?, _ new: OpaquePointer?, prefix: String,
                                    into paths: inout [String]) throws {
        func subtree(_ entry: OpaquePointer?) -> OID? {
            guard let entry, git_tree_entry_type(entry) == GIT_OBJECT_TREE, let id = git_tree_entry_id(entry) else { return nil }
            return OID(id)
        }
        // One side's entry (the other side has none, or another kind): all of it differs.
        func oneSided(_ entry: OpaquePointer, path: String, asOld: Bool) throws {
            guard let tree = subtree(entry) else {
                paths.append(path)
                return
            }
            try withTree(tree) { inner in
                try collectDifferences(asOld ? inner : nil, asOld ? nil : inner, prefix: path + "/", into: &paths)
            }
        }
        if let new {
            for index in 0..<git_tree_entrycount(new) {
                guard let entry = git_tree_entry_byindex(new, index), let name = git_tree_entry_name(entry) else { continue }
                guard let text = String(validatingCString: name) else { throw NameNotUTF8() }
                let path = prefix + text
                guard let old, let previous = git_tree_entry_byname(old, name) else {
                    try oneSided(entry, path: path, asOld: false)
                    continue
                }
                if git_tree_entry_filemode(previous) == git_tree_entry_filemode(entry),
                   let before = git_tree_entry_id(previous), let after = git_tree_entry_id(entry),
                   OID(before) == OID(after) { continue }
                switch (subtree(previous), subtree(entry)) {
                case let (before?, after?):
                    try withTree(before) { oldInner in
                        try withTree(after) { newInner in
                            try collectDifferences(oldInner, newInner, prefix: path + "/", into: &paths)
                        }
                    }
                default:
                    try oneSided(previous, path: path, asOld: true)
                    try oneSided(entry, path: path, asOld: false)
                }
            }
        }
        guard let old else { return }
        for index in 0..<git_tree_entrycount(old) {
            guard let entry = git_tree_entry_byindex(old, index), let name = git_tree_entry_name(entry),
                  new.flatMap({ git_tree_entry_byname($0, name) }) == nil else { continue }
            guard let text = String(validatingCString: name) else { throw NameNotUTF8() }
            try oneSided(entry, path: prefix + text, asOld: true)
        }
    }
}
