import CLibGit2

/// Initialises libgit2 exactly once for the life of the process (never shut down: handles may
/// outlive any scope we could pick).
enum LibGit2 {
    /// The result of the one `git_libgit2_init()` call.
    static let initialization: Int32 = git_libgit2_init()

    /// Makes sure libgit2 is initialised; call before the first libgit2 function.
    static func ensure() {
        _ = initialization
    }
}
