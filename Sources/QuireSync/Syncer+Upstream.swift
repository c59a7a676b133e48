import Foundation
import QuireGit

extension Syncer {
    /// A branch synced before its upstream was recorded (by an older quire): its same-named
    /// remote-tracking branch exists before this sync fetches. It stays the upstream, recorded now.
    func settleEstablishedUpstream(dryRun: Bool) throws {
        guard !hasUpstream, try repository.referenceTarget(tracking) != nil else { return }
        hasUpstream = true
        if !dryRun { try recordUpstream() }
    }

    /// The first sync of a branch with no upstream (a vault made with `quire init`, then pointed
    /// at an existing repository with `quire remote URL`), right after the fetch: the vault follows
    /// the remote's branch (`Upstream.choose`: its HEAD, else its only branch) instead of pushing
    /// a second one beside it (`remoteHead`: the branch the remote's HEAD names). The local
    /// branch takes that name — its commits stay on it and are merged next, like two vaults
    /// started apart — unless a local branch of that name exists already: then it keeps its name
    /// and syncs with the remote one. An empty remote: nothing yet; the push creates the branch
    /// and records it.
    func settleUpstream(remoteHead: String?, dryRun: Bool) throws {
        guard let chosen = try Upstream.choose(for: branch, remoteHead: remoteHead, in: repository) else { return }
        upstream = chosen
        hasUpstream = true
        if dryRun { return }
        if chosen != branch, try repository.referenceTarget(chosen) == nil {
            let previous = branch
            // New name first, HEAD next, old name last: a crash in between leaves HEAD on a branch
            // holding every local commit (and at worst the old name beside it).
            if let head = try repository.headCommitID() {
                try repository.setReference(chosen, to: head,
                                            message: "quire sync: follow origin's \(Upstream.shortName(chosen))")
            }
            try repository.setHead(branch: chosen)
            branch = chosen
            try repository.deleteReference(previous)
        }
        try recordUpstream()
    }

    /// Records `upstream` as the upstream of `branch` in `.git/config` (the git CLI sees it too).
    func recordUpstream() throws {
        try Upstream.record(upstream, for: branch, in: repository)
        hasUpstream = true
    }

    /// The vault's encrypted remote when origin is marked encrypted, else nil; throws
    /// `CarrierError.keyUnavailable` when it is and this device holds no key.
    func encryptedRemote(_ remote: Remote) throws -> EncryptedRemote? {
        guard try EncryptedRemote.isConfigured(in: repository) else { return nil }
        guard let sealing = environment.sealing else { throw CarrierError.keyUnavailable }
        return try EncryptedRemote(vault: repository, url: remote.url, sealing: sealing)
    }
}
