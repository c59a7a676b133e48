import CLibGit2

/// One file's change between two trees, copied out of a `git_diff`.
public struct DiffDelta: Equatable, Sendable {
    /// What happened to the file.
    public var kind: ChangeKind
    /// The path before (equals `newPath` unless renamed).
    public var oldPath: String
    /// The path after.
    public var newPath: String
    /// The blob before (nil when added).
    public var oldID: OID?
    /// The blob after (nil when deleted).
    public var newID: OID?
    /// Rename similarity 0–100 (100 for an exact rename; 0 when not a rename).
    public var similarity: Int

    /// Creates a delta.
    public init(kind: ChangeKind, oldPath: String, newPath: String, oldID: OID?, newID: OID?, similarity: Int) {
        self.kind = kind
        self.oldPath = oldPath
        self.newPath = newPath
        self.oldID = oldID
        self.newID = newID
        self.similarity = similarity
    }
}

extension Repository {
    /// The changes from `old` to `new` (nil = the empty tree), with renames detected
    /// (`git_diff_find_similar`, default 50% threshold); sorted by new path. libgit2 diffs only
    /// the files whose entries differ (`differingPaths`, reading only the subtrees that
    /// differ): a commit of one note in a vault of 100,000 costs the trees on that note's path.
    public func diff(from old: OID?, to new: OID?, detectRenames: Bool = true) throws -> [DiffDelta] {
        guard old != nil && new != nil, let paths = try differingPaths(from: old, to: new) else {
            return try diff(from: old, to: new, detectRenames: detectRenames, pathspec: nil)
        }
        guard !paths.isEmpty else { return [] }
        return try StringArray.with(paths) { array in
            try diff(from: old, to: new, detectRenames: detectRenames, pathspec: array)
        }
    }

    /// `git_diff_tree_to_tree` of `old` and `new`, limited to the literal paths of `pathspec` when given.
    private func diff(from old: OID?, to new: OID?, detectRenames: Bool,
                      pathspec: UnsafeMutablePointer<git_strarray>?) throws -> [DiffDelta] {
        var oldTree: OpaquePointer?
        var newTree: OpaquePointer?
        defer {
            git_tree_free(oldTree)
            git_tree_free(newTree)
        }
        if let old {
            var raw = old.raw
            try check(git_tree_lookup(&oldTree, pointer, &raw), "git_tree_lookup")
        }
        if let new {
            var raw = new.raw
            try check(git_tree_lookup(&newTree, pointer, &raw), "git_tree_lookup")
        }
        var options = git_diff_options()
        try check(git_diff_options_init(&options, UInt32(GIT_DIFF_OPTIONS_VERSION)), "git_diff_options_init")
        if let pathspec {
            options.pathspec = pathspec.pointee
            options.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH.rawValue
        }
        var diff: OpaquePointer?
        try check(git_diff_tree_to_tree(&diff, pointer, oldTree, newTree, &options), "git_diff_tree_to_tree")
        defer { git_diff_free(diff) }
        if detectRenames {
            var find = git_diff_find_options()
            try check(git_diff_find_options_init(&find, UInt32(GIT_DIFF_FIND_OPTIONS_VERSION)),
                      "git_diff_find_options_init")
            find.flags = GIT_DIFF_FIND_RENAMES.rawValue
            try check(git_diff_find_similar(diff, &find), "git_diff_find_similar")
        }
        var result: [DiffDelta] = []
        for index in 0..<git_diff_num_deltas(diff) {
            guard let delta = git_diff_get_delta(diff, index) else { continue }
            let kind: ChangeKind
            switch delta.pointee.status {
            case GIT_DELTA_ADDED: kind = .added
            case GIT_DELTA_DELETED: kind = .deleted
            case GIT_DELTA_RENAMED: kind = .renamed
            case GIT_DELTA_TYPECHANGE: kind = .typeChanged
            case GIT_DELTA_MODIFIED: kind = .modified
            default: continue
            }
            let oldFile = delta.pointee.old_file
            let newFile = delta.pointee.new_file
            let oldPath = oldFile.path.map { String(cString: $0) } ?? ""
            let newPath = newFile.path.map { String(cString: $0) } ?? oldPath
            result.append(DiffDelta(kind: kind, oldPath: oldPath, newPath: newPath,
                                    oldID: kind == .added ? nil : OID(oldFile.id),
                                    newID: kind == .deleted ? nil : OID(newFile.id),
                                    similarity: kind == .renamed ? Int(delta.pointee.similarity) : 0))
        }
        return result.sorted { ($0.newPath, $0.oldPath) < ($1.newPath, $1.oldPath) }
    }
}
