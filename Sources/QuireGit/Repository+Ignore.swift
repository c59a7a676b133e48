import CLibGit2
import Foundation

extension Repository {
    /// Whether git ignores each path of one walk of the work tree (see `IgnoreMatcher`).
    public func ignoreMatcher() throws -> (_ path: String, _ isFolder: Bool) -> Bool {
        let matcher = try IgnoreMatcher(repository: self)
        return { matcher.isIgnored($0, isFolder: $1) }
    }

    /// Whether git ignores the one file `path` (work-tree-relative): not tracked, and hidden by
    /// the rules (libgit2 reads the rule files of every folder above it: for a few paths only).
    public func isIgnoredFile(_ path: String) throws -> Bool {
        try IgnoreMatcher(repository: self).isIgnored(path, isFolder: false)
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
