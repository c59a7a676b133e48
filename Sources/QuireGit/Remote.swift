import CLibGit2
import Foundation

/// A named remote of a repository: owns one `git_remote` handle, freed in `deinit`.
public final class Remote {
    /// The owned handle; freed with `git_remote_free` in `deinit`.
    private let pointer: OpaquePointer
    /// Keeps the repository alive while the remote is in use.
    private let repository: Repository

    init(pointer: OpaquePointer, repository: Repository) {
        self.pointer = pointer
        self.repository = repository
    }

    deinit {
        git_remote_free(pointer)
    }

    /// The remote's name (e.g. `origin`).
    public var name: String { git_remote_name(pointer).map { String(cString: $0) } ?? "" }

    /// The fetch URL as configured (may hold credentials: redact before showing).
    public var url: String { git_remote_url(pointer).map { String(cString: $0) } ?? "" }

    /// Downloads new objects and updates the remote-tracking branches
    /// (`refs/remotes/<name>/*`). Throws `GitError` (see `category` for offline, auth, not found).
    public func fetch(options: TransferOptions = TransferOptions()) throws {
        try checkAddress("git_remote_fetch")
        try options.trust.apply(url: url, repository: repository)
        var fetchOptions = git_fetch_options()
        try check(git_fetch_options_init(&fetchOptions, UInt32(GIT_FETCH_OPTIONS_VERSION)), "git_fetch_options_init")
        fetchOptions.prune = GIT_FETCH_PRUNE
        let box = RemoteCallbackBox(options: options, url: url)
        box.install(into: &fetchOptions.callbacks)
        let result = withExtendedLifetime(box) { git_remote_fetch(pointer, nil, &fetchOptions, nil) }
        box.deadline?.stop()
        try box.finish(result, "git_remote_fetch")
    }

    /// The branch the remote's HEAD names (e.g. `refs/heads/master`), from the reference list it
    /// advertised at the last connection (a `fetch`; the list outlives the connection). nil when
    /// the remote has no branches or its HEAD names none of them (an unborn default branch).
    /// Throws when this remote never connected.
    public func defaultBranch() throws -> String? {
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        let result = git_remote_default_branch(&buffer, pointer)
        if result == GIT_ENOTFOUND.rawValue { return nil }
        try check(result, "git_remote_default_branch")
        return buffer.ptr.map { String(cString: $0) }
    }

    /// Pushes `refspecs` (e.g. `refs/heads/main:refs/heads/main`). A reference the server
    /// refuses throws `.pushRejected` even though libgit2 reports success: with the reason
    /// `.refusedByServer` for the server's own rule, without one when the branch moved on the
    /// server since the push read it (`RefRejection`), which a fetch and a merge cure.
    public func push(refspecs: [String], options: TransferOptions = TransferOptions()) throws {
        try checkAddress("git_remote_push")
        try options.trust.apply(url: url, repository: repository)
        var pushOptions = git_push_options()
        try check(git_push_options_init(&pushOptions, UInt32(GIT_PUSH_OPTIONS_VERSION)), "git_push_options_init")
        pushOptions.pb_parallelism = 0  // build the pack on every core (libgit2's default is 1)
        let box = RemoteCallbackBox(options: options, url: url)
        box.install(into: &pushOptions.callbacks)
        let result = withExtendedLifetime(box) {
            StringArray.with(refspecs) { array in git_remote_push(pointer, array, &pushOptions) }
        }
        box.deadline?.stop()
        try box.finish(result, "git_remote_push")
        if let rejection = box.rejections.first {
            let said = box.serverLines.isEmpty ? "" : "; the server said: " + box.serverLines.joined(separator: " / ")
            // A push that lost a race with another one is a non-fast-forward in effect (no reason:
            // the caller fetches, merges and pushes again); anything else is the server's rule.
            let moved = rejection.remoteMoved(serverLines: box.serverLines)
            throw GitError(function: "git_remote_push", code: .pushRejected,
                           message: "the remote rejected \(rejection.reference): \(rejection.status)"
                               + (moved ? " (it moved since the last fetch)" : "") + said,
                           reason: moved ? nil : .refusedByServer)
        }
    }

    /// Pushes the local `branch` to the remote's branch `destination` (each a name or a full
    /// `refs/heads/…` name; nil: the same name), only if the remote branch still points at
    /// `expected` (nil: it must not exist yet); otherwise throws `.pushRejected`, and the
    /// caller fetches and merges again.
    ///
    /// A smart server checks this itself (the old value travels with the push). libgit2's
    /// transport for a remote on a local path does not: it moves the branch unconditionally,
    /// so of two devices pushing at once the second would silently replace the first's
    /// commits. There the objects are pushed to a private staging reference and the branch is
    /// then moved with a compare-and-swap in the remote repository.
    public func push(branch: String, to destination: String? = nil, expected: OID?,
                     options: TransferOptions = TransferOptions()) throws {
        func full(_ name: String) -> String { name.hasPrefix("refs/") ? name : "refs/heads/\(name)" }
        let name = full(branch)
        let target = full(destination ?? branch)
        guard let path = Remote.localPath(url) else {
            try push(refspecs: ["\(name):\(target)"], options: options)
            return
        }
        guard let local = try repository.referenceTarget(name) else {
            throw GitError(function: "git_reference_name_to_id", code: .notFound, message: "no local branch \(name)")
        }
        // Held until the staging reference is gone: what a killed push left is then litter.
        let lock = try LocalRemoteLock(path: path, timeout: options.timeout)
        let remoteRepository = try Repository.open(at: URL(fileURLWithPath: path))
        if lock.isHeld {
            LocalRemoteLock.removeTemporaryPacks(in: path)
            LocalRemoteLock.removeStagingLocks(in: path)
            for left in try remoteRepository.references(matching: "refs/quire/incoming/*") {
                // Litter that cannot go now blocks nothing (it only keeps its objects): the
                // next push tries again.
                try? remoteRepository.deleteReference(left.name)
            }
        }
        let staging = "refs/quire/incoming/\(UUID().uuidString.lowercased())"
        let rejected = GitError(function: "git_remote_push", code: .pushRejected,
                                message: "the remote rejected \(target): it moved since the last fetch")
        try withExtendedLifetime(lock) {
            defer { try? remoteRepository.deleteReference(staging) }
            try push(refspecs: ["\(name):\(staging)"], options: options)
            // A lock file on the branch: a plain git writing it, or what a killed push left
            // (`waitForReferenceLock`), waited for a few times before the push counts as lost.
            let referenceLock = remoteRepository.gitDirectory.appendingPathComponent(target + ".lock").path
            var waits = 0
            while true {
                do {
                    if let expected {
                        try remoteRepository.setReference(target, to: local, expected: expected, message: "push")
                    } else {
                        try remoteRepository.setReference(target, to: local, force: false, message: "push")
                    }
                    return
                } catch let error as GitError where error.code == .locked {
                    waits += 1
                    guard waits <= 4, lock.waitForReferenceLock(at: referenceLock, staleAfter: 2) else { throw rejected }
                } catch let error as GitError where error.code == .modified || error.code == .exists {
                    throw rejected
                }
            }
        }
    }

    /// The directory of a remote given as a local path or `file://` URL; nil for a network one.
    static func localPath(_ address: String) -> String? {
        if address.hasPrefix("file://") {
            return URL(string: address)?.path ?? String(address.dropFirst("file://".count))
        }
        return address.hasPrefix("/") ? address : nil
    }

    /// The URL schemes libgit2 1.5 has transports for (its `transports` table).
    static let supportedSchemes: Set<String> = ["git", "http", "https", "ssh", "ssh+git", "git+ssh", "file"]

    /// libgit2 reports a missing local path, and a scheme it has no transport for, only as an
    /// "unsupported URL protocol": say which it is before asking it.
    private func checkAddress(_ function: String) throws {
        try Remote.checkAddress(url, function)
    }

    /// Throws `.notFound` when `address` is a local path (or `file://` URL) that does not exist,
    /// and `.unsupportedTransport` when it is a URL whose scheme libgit2 has no transport for.
    static func checkAddress(_ address: String, _ function: String) throws {
        var path = address
        if path.hasPrefix("file://") { path = String(path.dropFirst("file://".count)) }
        let isURL = path.contains("://")
        if isURL, let scheme = path.range(of: "://").map({ path[..<$0.lowerBound].lowercased() }),
           !supportedSchemes.contains(scheme) {
            throw GitError(function: function, code: .other(-1), errorClass: "net",
                           message: "unsupported URL protocol '\(scheme)': \(address)", reason: .unsupportedTransport)
        }
        let isScpLike = !path.hasPrefix("/") && !path.hasPrefix(".")
            && path.split(separator: ":").first.map { !$0.contains("/") } == true && path.contains(":")
        guard !isURL, !isScpLike else { return }
        if !FileManager.default.fileExists(atPath: path) {
            throw GitError(function: function, code: .notFound, errorClass: "repository",
                           message: "remote repository not found: \(path)")
        }
    }
}

extension Repository {
    /// The remote called `name`, or nil when there is none.
    public func remote(named name: String) throws -> Remote? {
        var raw: OpaquePointer?
        let result = git_remote_lookup(&raw, pointer, name)
        if result == GIT_ENOTFOUND.rawValue || result == GIT_EINVALIDSPEC.rawValue { return nil }
        try check(result, "git_remote_lookup")
        guard let raw else { return nil }
        return Remote(pointer: raw, repository: self)
    }

    /// Adds a remote with the default fetch refspec (`+refs/heads/*:refs/remotes/<name>/*`).
    @discardableResult
    public func createRemote(named name: String, url: String) throws -> Remote {
        var raw: OpaquePointer?
        try check(git_remote_create(&raw, pointer, name, url), "git_remote_create")
        guard let raw else {
            throw GitError(function: "git_remote_create", code: .other(-1), message: "no remote")
        }
        return Remote(pointer: raw, repository: self)
    }

    /// Changes the URL of remote `name` (fetch and push).
    public func setRemoteURL(named name: String, url: String) throws {
        try check(git_remote_set_url(pointer, name, url), "git_remote_set_url")
        let cleared = git_remote_set_pushurl(pointer, name, nil)
        if cleared != GIT_ENOTFOUND.rawValue { try check(cleared, "git_remote_set_pushurl") }
    }
}
