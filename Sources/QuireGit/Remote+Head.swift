import Foundation

extension Remote {
    /// What became of a remote's HEAD after a sync (`pointUnbornHead`).
    public enum HeadOutcome: Equatable, Sendable {
        /// It names a branch the remote has: a plain `git clone` checks that branch out.
        case fine
        /// It named no branch the remote has (a bare repository from `git init --bare`, HEAD at
        /// an unborn `master`); it now names this one (full name, `refs/heads/main`).
        case pointed(at: String)
        /// It names no branch the remote has and the transport cannot change it (ssh, https,
        /// git://): a plain `git clone` checks out nothing until it is set on the server.
        case unborn
    }

    /// Points the remote's HEAD at `branch` (a name or `refs/heads/…`) when HEAD names no
    /// branch the remote has and `branch` is one it has. On a local path or `file://` URL the
    /// remote repository is changed directly; the git protocol has no way to set a remote's HEAD,
    /// so elsewhere this only reports it, from the reference list of the last connection (a
    /// fetch: the remote advertises HEAD only when it names an existing branch).
    public func pointUnbornHead(at branch: String) throws -> HeadOutcome {
        let name = branch.hasPrefix("refs/") ? branch : "refs/heads/\(branch)"
        guard let path = Remote.localPath(url) else {
            return try defaultBranch() == nil ? .unborn : .fine
        }
        let remoteRepository = try Repository.open(at: URL(fileURLWithPath: path))
        guard remoteRepository.isHeadUnborn, try remoteRepository.referenceTarget(name) != nil else { return .fine }
        try remoteRepository.setHead(branch: name)
        return .pointed(at: name)
    }
}
