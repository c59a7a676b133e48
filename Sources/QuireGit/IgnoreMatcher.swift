import CLibGit2

/// Answers "does git ignore this path?" for one walk of a work tree, as `git status --ignored`
/// does: a tracked file is never ignored, so only untracked files and folders are evaluated, by
/// libgit2's own `git_ignore_path_is_ignored` (which applies every rule source: each folder's
/// `.gitignore`, `.git/info/exclude`, `core.excludesFile`, and the rules of the folders above).
/// In a synced vault nearly every note is tracked: those cost a lookup in the index read once,
/// no file access. Errors count as "not ignored" (the path is shown, never hidden by mistake).
public final class IgnoreMatcher {
    private let repository: Repository
    private let index: Index

    /// Reads the index of `repository` once for the walk.
    init(repository: Repository) throws {
        self.repository = repository
        index = try repository.index()
        try check(git_index_read(index.pointer, 0), "git_index_read")
    }

    /// Whether `path` (work-tree-relative; a folder's without a trailing slash) is ignored. A
    /// folder holding a tracked file is entered (its untracked files are asked one by one).
    public func isIgnored(_ path: String, isFolder: Bool) -> Bool {
        var position = 0
        if isFolder {
            guard git_index_find_prefix(&position, index.pointer, path + "/") != 0 else { return false }
            return (try? repository.isIgnored(path + "/")) ?? false
        }
        guard git_index_find(&position, index.pointer, path) != 0 else { return false }
        return (try? repository.isIgnored(path)) ?? false
    }
}
