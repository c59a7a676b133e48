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
        return nil
    }()

    /// Makes sure libgit2 is loaded and initialised; call before the first libgit2 function.
    /// Throws when the library cannot be loaded (not installed, or another version).
    static func ensure() throws(GitError) {
        if let failure = initialization { throw failure }
    }
}
