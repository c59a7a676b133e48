import Foundation
import QuireGit

/// The branch of `origin` a local branch syncs with, kept where git keeps it
/// (`branch.<name>.remote = origin`, `branch.<name>.merge = refs/heads/<remote name>`), so the
/// git CLI and `quire status` agree with the sync. `quire clone` records it; a vault made with
/// `quire init` gets it at its first sync (`Syncer.settleUpstream`).
enum Upstream {
    /// The remote branch recorded for `branch` (`refs/heads/…` on origin), or nil when none is
    /// recorded for origin.
    static func recorded(for branch: String, in repository: Repository) throws -> String? {
        let name = shortName(branch)
        guard try repository.configString("branch.\(name).remote") == "origin",
              let merge = try repository.configString("branch.\(name).merge"), merge.hasPrefix("refs/heads/") else { return nil }
        return merge
    }

    /// Records `upstream` as the remote branch of the local `branch`.
    static func record(_ upstream: String, for branch: String, in repository: Repository) throws {
        let name = shortName(branch)
        try repository.setConfigString("branch.\(name).remote", "origin")
        try repository.setConfigString("branch.\(name).merge", upstream)
    }

    /// The remote-tracking reference of `refs/heads/<name>` on origin: `refs/remotes/origin/<name>`.
    static func tracking(of upstream: String) -> String {
        "refs/remotes/origin/" + shortName(upstream)
    }

    /// The remote branch to follow at the first sync of a branch with none recorded, from the
    /// remote-tracking branches of the fetch just made: the one the remote's HEAD names, else the
    /// only one, else the one named like `branch`. nil for an empty remote (the push creates
    /// `branch`); throws `.noDefaultRemoteBranch` when none of these rules picks one.
    static func choose(for branch: String, remoteHead: String?, in repository: Repository) throws -> String? {
        let prefix = "refs/remotes/origin/"
        let names = try repository.references(matching: prefix + "*").map { "refs/heads/" + $0.name.dropFirst(prefix.count) }
            .filter { $0 != "refs/heads/HEAD" }
        guard !names.isEmpty else { return nil }
        if let remoteHead, names.contains(remoteHead) { return remoteHead }
        if names.count == 1 { return names[0] }
        if names.contains(branch) { return branch }
        throw SyncError.noDefaultRemoteBranch(branches: names.map(shortName))
    }

    /// `main` for `refs/heads/main`.
    static func shortName(_ reference: String) -> String {
        reference.hasPrefix("refs/heads/") ? String(reference.dropFirst("refs/heads/".count)) : reference
    }
}
