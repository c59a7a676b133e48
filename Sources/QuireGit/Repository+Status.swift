import CLibGit2

/// How a path differs between HEAD, the index and the work tree.
public enum ChangeKind: String, Equatable, Sendable {
    /// New (untracked or newly staged).
    case added
    /// Content or mode changed.
    case modified
    /// Removed.
    case deleted
    /// Moved (with `oldPath`).
    case renamed
    /// Changed between file, link and submodule.
    case typeChanged
    /// Unresolved merge conflict.
    case conflicted
}

/// One changed path reported by `status()`.
public struct StatusEntry: Equatable, Sendable {
    /// The path now (relative to the work tree).
    public var path: String
    /// The previous path for a rename.
    public var oldPath: String?
    /// What happened.
    public var kind: ChangeKind
    /// Whether the change is in the work tree (true) or only staged in the index (false).
    public var inWorkTree: Bool
}

extension Repository {
    /// Every path that differs from HEAD, in the index or the work tree (untracked files
    /// included, ignored files left out), sorted by path. With `detectRenames`, a file moved
    /// (staged or not) is one `.renamed` entry with its `oldPath`, paired by git's rename
    /// detection as a commit's diff pairs it, instead of a deletion and an addition. With
    /// `refreshingIndex`, files whose stat data the index had out of date but whose content is
    /// unchanged (a copied or restored repository) get their stat data written back to the index,
    /// as `git status` does, so the next check needs no content comparison; it takes the index
    /// lock (`GitError.Code.locked` while a git command holds it).
    ///
    /// `paths` (vault-relative, taken literally: no glob) limits the look to those files and
    /// folders (everything under a folder named): what a stat scan (`changeCandidates`) found
    /// costs its size, not the vault's. nil looks at the whole work tree.
    public func status(detectRenames: Bool = false, refreshingIndex: Bool = false,
                       paths: [String]? = nil) throws -> [StatusEntry] {
        guard let paths else { return try status(detectRenames: detectRenames, refreshingIndex: refreshingIndex, pathspec: nil) }
        guard !paths.isEmpty else { return [] }
        return try StringArray.with(paths) { array in
            try status(detectRenames: detectRenames, refreshingIndex: refreshingIndex, pathspec: array)
        }
    }

    private func status(detectRenames: Bool, refreshingIndex: Bool,
                        pathspec: UnsafeMutablePointer<git_strarray>?) throws -> [StatusEntry] {
        var options = git_status_options()
        try check(git_status_options_init(&options, UInt32(GIT_STATUS_OPTIONS_VERSION)), "git_status_options_init")
        options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR
        options.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED.rawValue | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS.rawValue
            | GIT_STATUS_OPT_EXCLUDE_SUBMODULES.rawValue
        if detectRenames {
            options.flags |= GIT_STATUS_OPT_RENAMES_HEAD_TO_INDEX.rawValue | GIT_STATUS_OPT_RENAMES_INDEX_TO_WORKDIR.rawValue
        }
        if refreshingIndex { options.flags |= GIT_STATUS_OPT_UPDATE_INDEX.rawValue }
        if let pathspec {
            options.pathspec = pathspec.pointee
            options.flags |= GIT_STATUS_OPT_DISABLE_PATHSPEC_MATCH.rawValue
        }
        var list: OpaquePointer?
        try check(git_status_list_new(&list, pointer, &options), "git_status_list_new")
        defer { git_status_list_free(list) }
        var result: [StatusEntry] = []
        for index in 0..<git_status_list_entrycount(list) {
            guard let entry = git_status_byindex(list, index) else { continue }
            let flags = entry.pointee.status.rawValue
            let delta = entry.pointee.index_to_workdir ?? entry.pointee.head_to_index
            guard let delta else { continue }
            let newPath = delta.pointee.new_file.path.map { String(cString: $0) } ?? ""
            let oldPath = delta.pointee.old_file.path.map { String(cString: $0) } ?? newPath
            let inWorkTree = entry.pointee.index_to_workdir != nil
            let kind: ChangeKind
            if flags & GIT_STATUS_CONFLICTED.rawValue != 0 {
                kind = .conflicted
            } else if flags & (GIT_STATUS_WT_NEW.rawValue | GIT_STATUS_INDEX_NEW.rawValue) != 0 {
                kind = .added
            } else if flags & (GIT_STATUS_WT_DELETED.rawValue | GIT_STATUS_INDEX_DELETED.rawValue) != 0 {
                kind = .deleted
            } else if flags & (GIT_STATUS_WT_RENAMED.rawValue | GIT_STATUS_INDEX_RENAMED.rawValue) != 0 {
                kind = .renamed
            } else if flags & (GIT_STATUS_WT_TYPECHANGE.rawValue | GIT_STATUS_INDEX_TYPECHANGE.rawValue) != 0 {
                kind = .typeChanged
            } else if flags & (GIT_STATUS_WT_MODIFIED.rawValue | GIT_STATUS_INDEX_MODIFIED.rawValue) != 0 {
                kind = .modified
            } else {
                continue
            }
            result.append(StatusEntry(path: newPath, oldPath: oldPath == newPath ? nil : oldPath,
                                      kind: kind, inWorkTree: inWorkTree))
        }
        return result.sorted { $0.path < $1.path }
    }
}
