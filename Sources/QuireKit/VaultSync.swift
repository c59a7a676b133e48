import Foundation
import QuireCore
import QuireGit
import QuireSearch
import QuireSync
#if canImport(Glibc)
import Glibc
#endif

/// What one sync of a vault runs with (`VaultSync.run`).
public struct VaultSyncOptions: Sendable {
    /// The strategy for every note changed on both sides (nil: the config's rules, else newest).
    public var strategy: MergeStrategy?
    /// Commit and merge, but do not push.
    public var push = true
    /// Commit nothing; say what would be committed, merged and pushed.
    public var dryRun = false
    /// Fetch-merge-push rounds when the remote moved meanwhile (a rejected push).
    public var pushAttempts = 4
    /// The process environment: the device (`QUIRE_DEVICE`), the clock (`QUIRE_NOW`),
    /// credentials, `QUIRE_TIMEOUT`, `QUIRE_FAULT`.
    public var environment: [String: String]
    /// Bring the search catalog up to date from the sync's changes (step 8 of the cycle); it
    /// starts as soon as the work tree is settled and runs while the push goes on.
    public var refreshCatalog = true
    /// Hears each step of the cycle as it starts (on the syncing thread; keep it quick).
    public var phaseStarted: (@Sendable (SyncPhase) -> Void)?
    /// Hears how the fetch and push go (on libgit2's thread; keep it quick).
    public var transferProgress: (@Sendable (TransferActivity) -> Void)?
    /// Asked at each safe point: a signal number stops the sync there (`SyncError.interrupted`),
    /// nil goes on. `SyncInterrupts.received` is one; nil never stops.
    public var interruption: (@Sendable () -> Int32?)?

    /// While a sync daemon runs for the vault, a vault lock held by its cycle (or by anyone) is
    /// waited for up to this many seconds instead of failing with `SyncError.locked` (0: never
    /// wait).
    public var waitForDaemon: Double = 180
    /// After a cycle that brought remote changes, links written here to notes the remote moved
    /// follow them, committed and pushed by a second cycle (Docs/sync.md "Renamed notes and
    /// links").
    public var repairLinks = true
    /// Fetch, merge and push after the commit (false: commit only, the remote is left alone and
    /// the sync state keeps the last outcome with it; `SyncReport.localOnly` says so).
    public var network = true

    /// Options for a full cycle with the given environment.
    public init(environment: [String: String], strategy: MergeStrategy? = nil, push: Bool = true, dryRun: Bool = false) {
        self.environment = environment
        self.strategy = strategy
        self.push = push
        self.dryRun = dryRun
    }
}

/// A sync and the link repair that may follow it.
public struct VaultSyncOutcome: Sendable {
    /// The cycle's report.
    public var report: SyncReport
    /// Links to notes the remote moved, rewritten here after the cycle (empty when none).
    public var repairs = MoveReport()
    /// The second cycle that committed (and pushed) the repairs; nil when there were none.
    public var repairReport: SyncReport?
    /// The conflicts this sync made or brought in where this device's text was dropped
    /// (`ConflictLog.lost`): what the device that lost is told.
    public var lost: [ConflictRecord] = []

    /// An outcome without repairs.
    public init(report: SyncReport) {
        self.report = report
    }
}

/// The sync workflow of a front end: one cycle of QuireSync's `Syncer` with this device's name,
/// clock, credentials and transfer settings, and the catalog refreshed from what it changed.
/// `quire sync` and the sync daemon (`SyncDaemon`) both run it.
public enum VaultSync {
    /// Runs one cycle. Throws what the cycle throws (`SyncError`, `GitError`, …): the outcome is
    /// recorded in `.quire/local/sync-state.json` either way.
    public static func run(_ vault: Vault, options: VaultSyncOptions) throws -> SyncReport {
        try runRepairingLinks(vault, options: options).report
    }

    /// Runs one cycle (`run`) and then, when it brought remote changes that moved notes, the
    /// link repair and the second cycle that commits it.
    public static func runRepairingLinks(_ vault: Vault, options: VaultSyncOptions) throws -> VaultSyncOutcome {
        let headBefore = !options.dryRun ? try LinkRepair.head(of: vault) : nil
        var outcome = VaultSyncOutcome(report: try cycle(vault, options: options))
        if !options.dryRun, outcome.report.integration == "merge" || outcome.report.integration == "fast-forward" {
            outcome.lost = try ConflictLog(vaultRoot: vault.root)
                .lost(by: vault.deviceName(environment: options.environment), since: headBefore)
        }
        guard options.repairLinks, !options.dryRun, !outcome.report.updatedFromRemote.isEmpty else { return outcome }
        // The catalog is opened only when the commits brought in renamed or deleted a note.
        outcome.repairs = try LinkRepair.afterSync(vault: vault, before: headBefore,
                                                   now: QuireClock.now(environment: options.environment)) {
            let catalog = try VaultSession(vault: vault, environment: options.environment).catalog
            return (catalog.recordHeads.map { Note(record: $0, withFrontMatter: false) }, MoveOptions.linkingNotes(in: catalog))
        }
        if !outcome.repairs.changed.isEmpty {
            outcome.repairReport = try cycle(vault, options: options)
        }
        return outcome
    }

    /// One cycle of the `Syncer`, the catalog refreshed from it.
    private static func cycle(_ vault: Vault, options: VaultSyncOptions) throws -> SyncReport {
        var environment = SyncEnvironment(device: vault.deviceName(environment: options.environment),
                                          now: try QuireClock.now(environment: options.environment),
                                          variables: options.environment, interruption: options.interruption)
        environment.sealing = try RemoteKeys.sealing(for: vault, environment: options.environment)
        var progress: (@Sendable (TransferProgress) -> Void)?
        if let hear = options.transferProgress { progress = { hear(TransferActivity($0)) } }
        let syncer = try Syncer(vault: vault, environment: environment,
                                transfer: TransferSettings.options(vault: vault, environment: options.environment,
                                                                   progress: progress))
        let catalog = BackgroundCatalogRefresh(vault: vault, environment: options.environment)
        var cycle = SyncOptions(strategy: options.strategy, push: options.push, dryRun: options.dryRun,
                                pushAttempts: options.pushAttempts)
        cycle.phaseStarted = options.phaseStarted
        cycle.network = options.network
        if options.refreshCatalog {
            cycle.workTreeSettled = { report in
                if changesNotes(report) { catalog.start(after: report) }
            }
        }
        let report: SyncReport
        do {
            report = try runWaitingForDaemon(syncer, cycle, vault: vault, options: options)
        } catch {
            _ = try? catalog.wait()  // the sync's error is the one to report
            throw error
        }
        let refreshedAfter = try catalog.wait()
        if options.refreshCatalog, changesNotes(report),
           refreshedAfter?.updatedFromRemote != report.updatedFromRemote || refreshedAfter?.stamped != report.stamped {
            // Not refreshed yet, or a later round (the remote moved meanwhile) updated more files.
            try BackgroundCatalogRefresh.refreshNow(vault: vault, environment: options.environment, after: report)
        } else if options.refreshCatalog, !options.dryRun, !HistoryDates.isCurrent(vault: vault) {
            // The sync's commits date notes anew (git's history): done here, where libgit2 is
            // loaded anyway, so that the next search need not load it.
            try BackgroundCatalogRefresh.refreshNow(vault: vault, environment: options.environment, after: SyncReport())
        }
        return report
    }

    /// `syncer.run`, retried while the vault's sync daemon holds the lock (a cycle of its own).
    private static func runWaitingForDaemon(_ syncer: Syncer, _ cycle: SyncOptions, vault: Vault,
                                            options: VaultSyncOptions) throws -> SyncReport {
        let deadline = Date().addingTimeInterval(options.waitForDaemon)
        while true {
            do {
                return try syncer.run(cycle)
            } catch SyncError.locked(let path, let holder) {
                // The holder's pid may read empty for an instant (a lock being taken or given
                // back): while the vault has a daemon, any holder is waited for.
                guard SyncDaemonHealth.lockHolder(vaultRoot: vault.root) != nil, Date() < deadline else {
                    throw SyncError.locked(path: path, holder: holder)
                }
                if let signal = options.interruption?() {
                    throw SyncError.interrupted(signal: signal, point: "waiting for the sync daemon")
                }
                usleep(100_000)
            }
        }
    }

    /// Whether the sync changed notes in the work tree (stamped, or updated from the remote).
    public static func changesNotes(_ report: SyncReport) -> Bool {
        !report.updatedFromRemote.isEmpty || !report.stamped.isEmpty
    }
}
