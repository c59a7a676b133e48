import CLibGit2
import Foundation

extension Repository {
    /// Every untracked file and folder of the work tree that git's ignore rules hide, evaluated
    /// by libgit2 in one walk of the work tree (the rules of each folder's `.gitignore`,
    /// `.git/info/exclude` and `core.excludesFile` are read once per folder, not once per
    /// path): the diff of the work tree against an empty index, so no tracked file is hashed.
    /// Ignored folders are not entered. Tracked files are then taken out, as git does.
    public func ignoredPaths() throws -> IgnoredPaths {
        var emptyIndex: OpaquePointer?
        try check(git_index_new(&emptyIndex), "git_index_new")
        defer { git_index_free(emptyIndex) }
        var options = git_diff_options()
        try check(git_diff_options_init(&options, UInt32(GIT_DIFF_OPTIONS_VERSION)), "git_diff_options_init")
        options.flags = GIT_DIFF_INCLUDE_IGNORED.rawValue | GIT_DIFF_INCLUDE_UNTRACKED.rawValue
            | GIT_DIFF_RECURSE_UNTRACKED_DIRS.rawValue
        var diff: OpaquePointer?
        try check(git_diff_index_to_workdir(&diff, pointer, emptyIndex, &options), "git_diff_index_to_workdir")
        defer { git_diff_free(diff) }
        var files: [String] = []
        var folders: [String] = []
        for position in 0..<git_diff_num_deltas(diff) {
            guard let delta = git_diff_get_delta(diff, position), delta.pointee.status == GIT_DELTA_IGNORED,
                  let raw = delta.pointee.new_file.path else { continue }
            let path = String(cString: raw)
            if path.hasSuffix("/") { folders.append(String(path.dropLast())) } else { files.append(path) }
        }
        let index = try self.index()
        try check(git_index_read(index.pointer, 0), "git_index_read")
        var foldersWithTracked: Set<String> = []
        var trackedBelow: Set<String> = []
        for folder in folders {
            let tracked = index.paths(under: folder + "/")
            if !tracked.isEmpty {
                foldersWithTracked.insert(folder)
                trackedBelow.formUnion(tracked)
            }
        }
        return IgnoredPaths(files: Set(files.filter { git_index_get_bypath(index.pointer, $0, 0) == nil }),
                            folders: Set(folders), foldersWithTracked: foldersWithTracked,
                            trackedInIgnoredFolders: trackedBelow)
    }

    /// `ignoredPaths().contains`, for one walk of the work tree.
    public func ignoreMatcher() throws -> @Sendable (_ path: String, _ isFolder: Bool) -> Bool {
        let ignored = try ignoredPaths()
        return { ignored.contains($0, isFolder: $1) }
    }

    /// Whether the rules hide the one file `path` (work-tree-relative) and it is not tracked:
    /// libgit2 reads the rule files of every folder above it, so this is for a few paths only.
    public func isIgnoredFile(_ path: String) throws -> Bool {
        guard try isIgnored(path) else { return false }
        let index = try self.index()
        try check(git_index_read(index.pointer, 0), "git_index_read")
        return git_index_get_bypath(index.pointer, path, 0) == nil
    }

    /// The files outside the work tree's folders that hold ignore rules or name them: the
    /// repository's `info/exclude` and `config`, the user's global and XDG git configuration,
    /// and the excludes file (`core.excludesFile`, else git's default `git/ignore` beside the
    /// XDG configuration). Each may be missing; a watcher of the work tree cannot see them change.
    public func ignoreRuleFiles(environment: [String: String]) throws -> [String] {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let xdg = environment["XDG_CONFIG_HOME"] ?? home + "/.config"
        var files = [gitDirectory.appendingPathComponent("info/exclude").path,
                     gitDirectory.appendingPathComponent("config").path,
                     home + "/.gitconfig", xdg + "/git/config"]
        var config: OpaquePointer?
        try check(git_repository_config_snapshot(&config, pointer), "git_repository_config_snapshot")
        defer { git_config_free(config) }
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        let code = git_config_get_path(&buffer, config, "core.excludesfile")
        if code == GIT_ENOTFOUND.rawValue {
            files.append(xdg + "/git/ignore")
        } else {
            try check(code, "git_config_get_path")
            if let path = buffer.ptr {
                let named = String(cString: path)
                files.append(named.hasPrefix("/") ? named : (workDirectory?.path ?? "") + "/" + named)
            }
        }
        return files
    }
}
