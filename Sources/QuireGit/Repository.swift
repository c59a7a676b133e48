import CLibGit2
import Foundation

/// An open git repository: the owner of one `git_repository` handle, freed in `deinit`.
/// Not thread-safe: use one instance from one thread at a time.
public final class Repository {
    /// The owned handle; freed with `git_repository_free` in `deinit`.
    let pointer: OpaquePointer
    /// The last `.git/index` read by `IndexFile` and what identified it (`indexFile()`).
    var keptIndexFile: (stamp: IndexFile.Stamp, file: IndexFile)?

    private init(pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        git_repository_free(pointer)
    }

    /// Creates a new repository with a work tree at `url` (directories made as needed) whose
    /// unborn HEAD points at `initialBranch`.
    public static func create(at url: URL, initialBranch: String = "main", bare: Bool = false) throws -> Repository {
        try LibGit2.ensure()
        var options = git_repository_init_options()
        try check(git_repository_init_options_init(&options, UInt32(GIT_REPOSITORY_INIT_OPTIONS_VERSION)),
                  "git_repository_init_options_init")
        var flags = GIT_REPOSITORY_INIT_MKPATH.rawValue
        if bare { flags |= GIT_REPOSITORY_INIT_BARE.rawValue }
        options.flags = flags
        var raw: OpaquePointer?
        let result = initialBranch.withCString { head -> Int32 in
            options.initial_head = head
            return git_repository_init_ext(&raw, url.path, &options)
        }
        try check(result, "git_repository_init_ext")
        return try Repository.wrap(raw, "git_repository_init_ext")
    }

    /// Opens the repository whose work tree (or git directory) is exactly at `url`.
    public static func open(at url: URL) throws -> Repository {
        try LibGit2.ensure()
        var raw: OpaquePointer?
        try check(git_repository_open_ext(&raw, url.path, GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue, nil),
                  "git_repository_open_ext")
        return try Repository.wrap(raw, "git_repository_open_ext")
    }

    /// Walks up from `url` to the enclosing repository and returns its git directory.
    public static func discover(from url: URL) throws -> URL {
        try LibGit2.ensure()
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        try check(git_repository_discover(&buffer, url.path, 0, nil), "git_repository_discover")
        return URL(fileURLWithPath: String(cString: buffer.ptr), isDirectory: true)
    }

    /// Clones `remoteURL` into `url` (remote `origin`, its default branch checked out), with
    /// the same credentials, host-key checks, timeout and progress as `Remote.fetch`.
    public static func clone(from remoteURL: String, to url: URL,
                             options transfer: TransferOptions = TransferOptions()) throws -> Repository {
        try LibGit2.ensure()
        try Remote.checkAddress(remoteURL, "git_remote_fetch")
        try transfer.trust.apply(url: remoteURL, repository: nil)
        var options = git_clone_options()
        try check(git_clone_options_init(&options, UInt32(GIT_CLONE_OPTIONS_VERSION)), "git_clone_options_init")
        let box = RemoteCallbackBox(options: transfer, url: remoteURL)
        box.install(into: &options.fetch_opts.callbacks)
        var raw: OpaquePointer?
        let result = withExtendedLifetime(box) { git_clone(&raw, remoteURL, url.path, &options) }
        box.deadline?.stop()
        try box.finish(result, "git_clone")
        return try Repository.wrap(raw, "git_clone")
    }

    private static func wrap(_ raw: OpaquePointer?, _ function: String) throws -> Repository {
        guard let raw else {
            throw GitError(function: function, code: .other(-1), message: "libgit2 returned no repository")
        }
        return Repository(pointer: raw)
    }

    /// The work tree directory, or nil for a bare repository.
    public var workDirectory: URL? {
        guard let path = git_repository_workdir(pointer) else { return nil }
        return URL(fileURLWithPath: String(cString: path), isDirectory: true)
    }

    /// The `.git` directory (or the bare repository itself).
    public var gitDirectory: URL {
        URL(fileURLWithPath: String(cString: git_repository_path(pointer)), isDirectory: true)
    }

    /// Whether the repository is bare.
    public var isBare: Bool { git_repository_is_bare(pointer) == 1 }

    /// Whether `url` is the root of this repository's work tree (not a subfolder of it).
    public func isWorkTreeRoot(_ url: URL) -> Bool {
        guard let workDirectory else { return false }
        return workDirectory.standardizedFileURL.resolvingSymlinksInPath().path
            == url.standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Whether HEAD is detached (points at a commit, not a branch).
    public var isHeadDetached: Bool { git_repository_head_detached(pointer) == 1 }

    /// Whether the repository is a shallow clone (`git clone --depth`): its oldest commits'
    /// parents are missing, so history cannot be walked to a merge base.
    public var isShallow: Bool { git_repository_is_shallow(pointer) == 1 }

    /// Whether HEAD's branch has no commit yet.
    public var isHeadUnborn: Bool { git_repository_head_unborn(pointer) == 1 }

    /// A merge, rebase, cherry-pick or similar operation left in progress, if any.
    public var operationInProgress: String? {
        switch git_repository_state(pointer) {
        case Int32(GIT_REPOSITORY_STATE_NONE.rawValue): return nil
        case Int32(GIT_REPOSITORY_STATE_MERGE.rawValue): return "merge"
        case Int32(GIT_REPOSITORY_STATE_REVERT.rawValue), Int32(GIT_REPOSITORY_STATE_REVERT_SEQUENCE.rawValue):
            return "revert"
        case Int32(GIT_REPOSITORY_STATE_CHERRYPICK.rawValue),
             Int32(GIT_REPOSITORY_STATE_CHERRYPICK_SEQUENCE.rawValue):
            return "cherry-pick"
        case Int32(GIT_REPOSITORY_STATE_BISECT.rawValue): return "bisect"
        default: return "rebase"
        }
    }

    /// Reads a config value (repository, global and system levels); nil when unset.
    public func configString(_ name: String) throws -> String? {
        var config: OpaquePointer?
        try check(git_repository_config(&config, pointer), "git_repository_config")
        defer { git_config_free(config) }
        return try Repository.configString(name, in: config)
    }

    /// Writes a config value into the repository's own config file.
    public func setConfigString(_ name: String, _ value: String) throws {
        var config: OpaquePointer?
        try check(git_repository_config(&config, pointer), "git_repository_config")
        defer { git_config_free(config) }
        var local: OpaquePointer?
        try check(git_config_open_level(&local, config, GIT_CONFIG_LEVEL_LOCAL), "git_config_open_level")
        defer { git_config_free(local) }
        try check(git_config_set_string(local, name, value), "git_config_set_string")
    }

    /// Whether `path` (relative to the work tree) is ignored by `.gitignore` rules.
    public func isIgnored(_ path: String) throws -> Bool {
        var ignored: Int32 = 0
        try check(git_ignore_path_is_ignored(&ignored, pointer, path), "git_ignore_path_is_ignored")
        return ignored == 1
    }

    /// Removes merge state files (MERGE_HEAD and friends) left by an interrupted operation.
    public func cleanupState() throws {
        try check(git_repository_state_cleanup(pointer), "git_repository_state_cleanup")
    }
}
