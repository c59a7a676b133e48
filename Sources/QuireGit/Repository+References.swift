import CLibGit2

/// A reference name and the commit it resolves to, as a plain value.
public struct Reference: Equatable, Sendable {
    /// Full name, e.g. `refs/heads/main`.
    public var name: String
    /// The object id it points at (after following symbolic references).
    public var target: OID
}

extension Repository {
    /// The full name of HEAD's branch (e.g. `refs/heads/main`), also when it is unborn;
    /// nil when HEAD is detached.
    public func headBranchName() throws -> String? {
        if isHeadDetached { return nil }
        var ref: OpaquePointer?
        try check(git_reference_lookup(&ref, pointer, "HEAD"), "git_reference_lookup")
        defer { git_reference_free(ref) }
        guard let target = git_reference_symbolic_target(ref) else { return nil }
        return String(cString: target)
    }

    /// The commit HEAD points at, or nil when the branch is unborn.
    public func headCommitID() throws -> OID? {
        var ref: OpaquePointer?
        let result = git_repository_head(&ref, pointer)
        if result == GIT_EUNBORNBRANCH.rawValue || result == GIT_ENOTFOUND.rawValue { return nil }
        try check(result, "git_repository_head")
        defer { git_reference_free(ref) }
        guard let oid = git_reference_target(ref) else { return nil }
        return OID(oid)
    }

    /// The object a reference resolves to, or nil when the reference does not exist.
    public func referenceTarget(_ name: String) throws -> OID? {
        var oid = git_oid()
        let result = git_reference_name_to_id(&oid, pointer, name)
        if result == GIT_ENOTFOUND.rawValue { return nil }
        try check(result, "git_reference_name_to_id")
        return OID(oid)
    }

    /// Every commit reference `name` was set to, as its reflog remembers (empty when it has none:
    /// `core.logAllRefUpdates` off, or the log expired).
    public func reflogTargets(of name: String) throws -> Set<OID> {
        var reflog: OpaquePointer?
        try check(git_reflog_read(&reflog, pointer, name), "git_reflog_read")
        defer { git_reflog_free(reflog) }
        var targets = Set<OID>()
        for index in 0..<git_reflog_entrycount(reflog) {
            guard let entry = git_reflog_entry_byindex(reflog, index), let id = git_reflog_entry_id_new(entry) else { continue }
            targets.insert(OID(id))
        }
        return targets
    }

    /// Creates or moves a direct reference to `target`. With `expected`, the update only
    /// happens when the reference still points there (else `.modified`); pass nil for any.
    public func setReference(_ name: String, to target: OID, expected: OID? = nil, force: Bool = true,
                             message: String = "quire") throws {
        var ref: OpaquePointer?
        defer { git_reference_free(ref) }
        var targetRaw = target.raw
        if let expected {
            var expectedRaw = expected.raw
            try check(git_reference_create_matching(&ref, pointer, name, &targetRaw, 1, &expectedRaw, message),
                      "git_reference_create_matching")
        } else {
            try check(git_reference_create(&ref, pointer, name, &targetRaw, force ? 1 : 0, message),
                      "git_reference_create")
        }
    }

    /// Deletes a reference; deleting one that does not exist is not an error.
    public func deleteReference(_ name: String) throws {
        var ref: OpaquePointer?
        let result = git_reference_lookup(&ref, pointer, name)
        if result == GIT_ENOTFOUND.rawValue { return }
        try check(result, "git_reference_lookup")
        defer { git_reference_free(ref) }
        try check(git_reference_delete(ref), "git_reference_delete")
    }

    /// Points HEAD at a branch (symbolic), which may be unborn.
    public func setHead(branch name: String) throws {
        try check(git_repository_set_head(pointer, name), "git_repository_set_head")
    }

    /// All references whose names match `glob` (e.g. `refs/quire/backup/*`), sorted by name.
    public func references(matching glob: String) throws -> [Reference] {
        var iterator: OpaquePointer?
        try check(git_reference_iterator_glob_new(&iterator, pointer, glob), "git_reference_iterator_glob_new")
        defer { git_reference_iterator_free(iterator) }
        var result: [Reference] = []
        while true {
            var ref: OpaquePointer?
            let status = git_reference_next(&ref, iterator)
            if status == GIT_ITEROVER.rawValue { break }
            try check(status, "git_reference_next")
            defer { git_reference_free(ref) }
            let name = String(cString: git_reference_name(ref))
            var resolved: OpaquePointer?
            try check(git_reference_resolve(&resolved, ref), "git_reference_resolve")
            defer { git_reference_free(resolved) }
            if let oid = git_reference_target(resolved) {
                result.append(Reference(name: name, target: OID(oid)))
            }
        }
        return result.sorted { $0.name < $1.name }
    }

    /// Local branch names (`refs/heads/...`), sorted.
    public func branches() throws -> [Reference] {
        try references(matching: "refs/heads/*")
    }
}
