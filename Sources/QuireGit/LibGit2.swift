import CLibGit2

/// Loads and initialises libgit2 exactly once for the life of the process (never shut down:
/// handles may outlive any scope we could pick). libgit2 is opened with `dlopen` on first use,
/// not linked (Sources/CLibGit2/loader.c): commands that never touch git never pay for loading
/// it and its dependencies.
enum LibGit2 {
    /// nil once libgit2 is loaded and `git_libgit2_init()` has run; else why it could not be loaded.
    static let initialization: GitError? = {
        if let problem = quire_git_load() {
            let library = String(cString: quire_git_library_name())
            return GitError(function: "dlopen \(library)", code: .other(-1), errorClass: "os",
                            message: "cannot load libgit2: \(String(cString: problem))", reason: .libraryUnavailable)
        }
        _ = git_libgit2_init()
        // Packs are read through windows of 32 MB, at most 64 MB of them mapped while none is
        // in use (libgit2's defaults, 1 GB and 8 GB, let a sync that reads 10,000 blobs and a
        // history walk keep a 100,000-note vault's whole pack in its memory). A hint: when it is
        // refused, the defaults stay.
        _ = quire_set_pack_window_limits(packWindowSize, packMappedLimit)
        // Objects read are not hashed again to check their ids, as git reads them: libgit2's
        // check hashed every tree and blob a commit, a diff or a push reads (a tenth of a
        // one-note sync's CPU at 100,000 notes). Packs are still checked where they arrive (the
        // indexer of a fetch or clone hashes every object), and zlib checks what it inflates.
        _ = quire_set_strict_hash_verification(0)
        // A folder's tree is kept parsed once read, up to `treeCacheLimit` (libgit2 keeps none
        // over 4 KB, so a folder of 7,000 notes, a 300 KB tree, was read, inflated from its
        // delta chain and parsed again by each step of a sync: the scan, the diff, the push).
        _ = quire_set_tree_cache_limit(treeCacheLimit)
        return nil
    }()

    /// The largest tree kept in libgit2's object cache (whose whole size stays libgit2's, 256 MB).
    static let treeCacheLimit = 16 << 20

    /// Bytes of a pack file one mapped window holds.
    static let packWindowSize = 32 << 20
    /// Bytes of pack windows kept mapped at most (windows in use stay mapped).
    static let packMappedLimit = 64 << 20

    /// Makes sure libgit2 is loaded and initialised; call before the first libgit2 function.
    /// Throws when the library cannot be loaded (not installed, or another version).
    static func ensure() throws(GitError) {
        if let failure = initialization { throw failure }
    }
}
