import Foundation
import QuireCore
import QuireGit

/// What `quire status` shows: the remote, the branch, uncommitted changes, commits waiting on
/// either side (as of the last fetch), and the last sync's outcome.
public struct SyncStatus: Sendable {
    /// The remote URL with credentials hidden, if one is set.
    public var remote: String?
    /// The branch HEAD is on.
    public var branch: String?
    /// Uncommitted changes as a sync commits them (`A path`, `M path`, `D path`, `R old -> new`).
    public var uncommitted: [String]
    /// Local commits not on the remote yet.
    public var ahead: Int
    /// Remote commits not merged yet (as of the last fetch).
    public var behind: Int
    /// The last sync's state (time, outcome, error, notes kept for the next merge).
    public var state: SyncState
    /// Conflicts listed by `quire conflicts` (not dismissed) that dropped text and whose losing
    /// text is not back in the vault (`ConflictAttention`).
    public var conflicts: Int
    /// Conflicts listed (not dismissed) that dropped no text: a deletion undone because the other
    /// side changed the note.
    public var undoneDeletions: Int = 0
    /// Whether a sync stopped while updating the work tree (its journal is still there): the
    /// tree is partly updated until the next `quire sync` finishes the update.
    public var interrupted: Bool

    /// Reads the status of the vault at `vaultRoot` (no network).
    public static func read(vaultRoot: URL) throws -> SyncStatus {
        let repository = try Repository.open(at: vaultRoot)
        let remote = try repository.remote(named: "origin").map { Credentials.redact($0.url) }
        let branch = try repository.headBranchName()
        // What a sync would commit: never a new temporary file (`quire check` lists those), nor a
        // nested repository (a folder entry: the sync skips it and says so).
        let uncommitted = try repository.status(detectRenames: true).filter(Syncer.wouldStage)
            .map { Syncer.describe($0.kind, path: $0.path, oldPath: $0.oldPath) }
        var ahead = 0
        var behind = 0
        let local = try repository.headCommitID()
        let localBranch = branch ?? "refs/heads/main"
        let upstream = try Upstream.recorded(for: localBranch, in: repository) ?? localBranch
        let tracking = try repository.referenceTarget(Upstream.tracking(of: upstream))
        switch (local, tracking) {
        case let (local?, tracking?):
            (ahead, behind) = try repository.aheadBehind(local: local, upstream: tracking)
        case let (local?, nil):
            ahead = try repository.log(from: local).count
        case let (nil, tracking?):
            behind = try repository.log(from: tracking).count
        case (nil, nil):
            break
        }
        let log = try ConflictLog(vaultRoot: vaultRoot)
        let records = try log.records()
        let conflicts = try ConflictAttention.open(records.filter(\.dropsText), log: log, vaultRoot: vaultRoot).count
        return SyncStatus(remote: remote, branch: branch, uncommitted: uncommitted, ahead: ahead, behind: behind,
                          state: try SyncState.load(vaultRoot: vaultRoot), conflicts: conflicts,
                          undoneDeletions: records.filter { !$0.dropsText }.count,
                          interrupted: FileManager.default.fileExists(atPath: Journal.url(vaultRoot).path))
    }
}
