import CLibGit2

extension Repository {
    /// The commit a revision names (`HEAD`, `HEAD~2`, `main`, a full or abbreviated id, a ref).
    /// Throws `GitError` with code `.notFound`, `.ambiguous` or `.invalidSpec` for a bad name.
    public func resolveCommit(_ revision: String) throws -> OID {
        var object: OpaquePointer?
        try check(git_revparse_single(&object, pointer, revision), "git_revparse_single")
        defer { git_object_free(object) }
        var commit: OpaquePointer?
        try check(git_object_peel(&commit, object, GIT_OBJECT_COMMIT), "git_object_peel")
        defer { git_object_free(commit) }
        guard let id = git_object_id(commit) else {
            throw GitError(function: "git_object_id", code: .notFound, message: "no id for \(revision)")
        }
        return OID(id.pointee)
    }
}
