/// The files and folders of a work tree that git's ignore rules hide, as libgit2 evaluated them
/// in one pass (see `Repository.ignoredPaths()`). A plain value: asking costs no file access.
/// Tracked files are never ignored, as in `git status --ignored` and `git check-ignore`.
public struct IgnoredPaths: Sendable {
    /// Untracked files the rules hide (work-tree-relative).
    let files: Set<String>
    /// Folders the rules hide (no trailing slash): everything untracked below them is hidden.
    let folders: Set<String>
    /// Ignored folders that still hold tracked files: the walk must enter them.
    let foldersWithTracked: Set<String>
    /// The tracked files below `foldersWithTracked`.
    let trackedInIgnoredFolders: Set<String>

    /// Whether `path` (work-tree-relative, a folder's without a trailing slash) is hidden. A
    /// folder is hidden when the rules ignore it and it holds no tracked file; a file when the
    /// rules ignore it (or a folder above it) and it is not tracked.
    public func contains(_ path: String, isFolder: Bool) -> Bool {
        if isFolder { return folders.contains(path) && !foldersWithTracked.contains(path) }
        if files.contains(path) { return true }
        guard !foldersWithTracked.isEmpty, !trackedInIgnoredFolders.contains(path) else { return false }
        var folder = Substring(path)
        while let slash = folder.lastIndex(of: "/") {
            folder = folder[..<slash]
            if folders.contains(String(folder)) { return true }
        }
        return false
    }
}
