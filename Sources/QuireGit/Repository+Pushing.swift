import CLibGit2
import Foundation

extension Repository {
    /// The settings a handle from `forPushing()` adds, at libgit2's application level (above
    /// every config file, in that handle only).
    static let pushSettings = """
        # Written by quire: read by its own pushes only (libgit2 application level), never by git.
        [pack]
        \t# libgit2 (1.5.1 and since) takes its delta-search size limit from this key
        \t# (src/libgit2/pack-objects.c, packbuilder_config): 1 byte leaves every object out
        \t# of the delta search. For git this key only sizes a cache.
        \tdeltaCacheSize = 1
        \t# Should that ever change: keep the delta window to about one object.
        \twindowMemory = 1

        """

    /// Another handle on this repository, for pushing through it (`remote(named:)` on it):
    /// libgit2 builds the pack it sends without its delta search. Notes are different texts:
    /// across thousands of them the search finds next to no delta (none among the 10,000 of
    /// the sync benchmark), while it took most of a push's time on one thread per core;
    /// libgit2 cannot send deltas against the remote's versions (thin packs) anyway. The pack
    /// holds the same objects, each compressed on its own. The user's config is not touched:
    /// the settings are in `.git/quire-push.config`, added to this handle only.
    public func forPushing() throws -> Repository {
        let path = gitDirectory.appendingPathComponent("quire-push.config").path
        let settings = Data(Self.pushSettings.utf8)
        if FileManager.default.contents(atPath: path) != settings {
            do {
                try settings.write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw GitError(function: "forPushing", code: .other(-1),
                               message: "cannot write \(path): \(error.localizedDescription)")
            }
        }
        let handle = try Repository.open(at: workDirectory ?? gitDirectory)
        var config: OpaquePointer?
        try check(git_repository_config(&config, handle.pointer), "git_repository_config")
        defer { git_config_free(config) }
        try check(git_config_add_file_ondisk(config, path, GIT_CONFIG_LEVEL_APP, handle.pointer, 1),
                  "git_config_add_file_ondisk")
        return handle
    }
}
