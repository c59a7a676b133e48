import Foundation

/// Options of one sync.
public struct SyncOptions: Sendable {
    /// The strategy for every note changed on both sides (nil: the config's rules, else newest).
    public var strategy: MergeStrategy?
    /// Commit and merge, but do not push.
    public var push: Bool
    /// Commit nothing, change nothing but the remote-tracking refs; say what would happen.
    public var dryRun: Bool
    /// How many times to fetch, merge and push again when the remote moved meanwhile.
    public var pushAttempts: Int
    /// Called once (not in a dry run), when the first round's commit and merge have left the
    /// work tree as this sync makes it and before anything is pushed, with the report so far:
    /// the caller can bring its own view of the notes (the search catalog) up to date while the
    /// push runs. A later round (the remote moved meanwhile) may update files again: compare
    /// with the final report.
    public var workTreeSettled: (@Sendable (SyncReport) -> Void)?
    /// Called as each step of the cycle starts (on the syncing thread; keep it quick).
    public var phaseStarted: (@Sendable (SyncPhase) -> Void)?
    /// Fetch, merge and push after the commit. false: commit this device's changes and stop; the
    /// remote is not contacted and the sync state keeps the last outcome with the remote (the
    /// sync daemon's commits while it backs off).
    public var network = true

    /// Creates options.
    public init(strategy: MergeStrategy? = nil, push: Bool = true, dryRun: Bool = false, pushAttempts: Int = 4) {
        self.strategy = strategy
        self.push = push
        self.dryRun = dryRun
        self.pushAttempts = pushAttempts
    }
}

/// What one sync did.
public struct SyncReport: Sendable {
    /// Notes whose `updatedAt` was stamped because they were edited outside quire.
    public var stamped: [String] = []
    /// Paths committed from this device (`A path`, `M path`, `D path`, `R old -> new`).
    public var committed: [String] = []
    /// The local commit made, if any.
    public var commit: String?
    /// How the remote's changes came in: `none`, `fast-forward`, `merge`, `up-to-date`.
    public var integration: String = "none"
    /// Paths updated in the work tree from the remote.
    public var updatedFromRemote: [String] = []
    /// What a fast-forward brought, one line a path as `committed` (`A path`, `M path`, `D path`,
    /// `R old -> new`); empty after a merge (`merged` says what it did).
    public var arrived: [String] = []
    /// Incoming notes that hold git's conflict markers (`path:line`), warned about at once.
    public var incomingMarkers: [String] = []
    /// Lines describing merged notes.
    public var merged: [String] = []
    /// Decisions that dropped text (listed by `quire conflicts`).
    public var conflicts: [MergeDecision] = []
    /// Notes the user edited while the sync ran: left as written, merged at the next sync.
    public var keptUserEdits: [String] = []
    /// Whether a push happened (and was accepted).
    public var pushed: Bool = false
    /// Commits pushed.
    public var pushedCommits: Int = 0
    /// Fetch-merge-push rounds needed (more than 1 when the remote moved meanwhile).
    public var attempts: Int = 0
    /// Local changes that would be committed (dry run).
    public var wouldCommit: [String] = []
    /// Remote commits that would be merged (dry run).
    public var incomingCommits: Int = 0
    /// Local commits that would be pushed (dry run).
    public var outgoingCommits: Int = 0
    /// The backup reference written before merging.
    public var backup: String?
    /// Whether the vault has no remote (`origin`): the changes were committed, nothing was fetched
    /// or pushed.
    public var noRemote = false
    /// Whether the remote was left alone on purpose (`SyncOptions.network` false): the changes
    /// were committed, nothing was fetched or pushed.
    public var localOnly = false
    /// Paths left alone (refused from the remote, nested repositories, behind a symlink).
    public var skipped: [SkippedPath] = []
    /// Another device that syncs under this device's name, met in the commits that arrived.
    public var namesake: Namesake?
    /// A remote whose HEAD named no branch it has (`Syncer.settleRemoteHead`), nil otherwise.
    public var remoteHead: RemoteHead?

    /// What the sync did about a remote whose HEAD named no branch it has (a plain `git clone`
    /// of it checks out nothing).
    public enum RemoteHead: Equatable, Sendable {
        /// HEAD now names `branch` (a remote on a local path or `file://`).
        case pointed(branch: String)
        /// HEAD still names no branch: the transport cannot set it; it is set on the server.
        case unborn(branch: String)
    }

    /// An empty report.
    public init() {}
}
