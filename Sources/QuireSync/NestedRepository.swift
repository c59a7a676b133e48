import QuireGit

/// A git repository inside the vault — a folder with its own `.git`, or a submodule entry
/// (a gitlink) another client committed. quire neither stages it nor checks it out: the sync
/// skips it with a warning and goes on with everything else.
enum NestedRepository {
    /// The reason shown by `quire sync` and `quire status`.
    static let reason = "a git repository of its own; quire does not sync it (use git inside it)"

    /// Whether a status entry is such a repository: libgit2 lists an untracked folder holding
    /// its own `.git` as one entry whose path ends with `/` (every other untracked file alone).
    static func isNested(_ entry: StatusEntry) -> Bool { entry.path.hasSuffix("/") }
}
