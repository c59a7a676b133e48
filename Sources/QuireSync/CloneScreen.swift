import Foundation
import QuireCore
import QuireGit

/// What `quire clone` checks out: the remote tip's tree screened like every incoming tree
/// (`IncomingTree`) — entries no device may write left out, names too long here shortened — so
/// a hostile or odd history can be cloned as safely as it is synced.
public struct CloneScreen {
    private let incoming: IncomingTree
    private let tip: OID

    /// Screens the tree of the remote's `tip`.
    public init(tip: OID, repository: Repository) throws {
        self.tip = tip
        incoming = try IncomingTree(commit: tip, local: nil, repository: repository)
    }

    /// The tree to check out.
    public var tree: OID { incoming.tree }
    /// The entries left out or renamed, for the command to warn about.
    public var skipped: [SkippedPath] { incoming.skipped }

    /// Once `tree` is checked out and the vault made: the commit to put the branch on — on top
    /// of the tip, recording each refusal — or nil when the tip's own tree was checked out.
    public func commit(repository: Repository, environment: SyncEnvironment, vault: Vault) throws -> OID? {
        guard incoming.changesTree else { return nil }
        return try incoming.commit(on: [tip], repository: repository, environment: environment, vault: vault)
    }
}
