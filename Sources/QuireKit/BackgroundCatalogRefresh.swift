import Foundation
import QuireCore
import QuireSearch
import QuireSync

/// Brings a vault's search catalog up to date on a background thread, started at most once:
/// a sync starts it when its work tree is settled, so the catalog is refreshed while the push
/// runs. `wait()` joins it and rethrows what the refresh threw.
final class BackgroundCatalogRefresh: @unchecked Sendable {
    private let vault: Vault
    private let environment: [String: String]
    private let finished = DispatchGroup()
    private let lock = NSLock()
    /// The report the refresh started from (nil: not started); guarded by `lock`.
    private var startedAfter: SyncReport?
    /// What the refresh threw; guarded by `lock`, read after `finished`.
    private var failure: Error?

    init(vault: Vault, environment: [String: String]) {
        self.vault = vault
        self.environment = environment
    }

    /// Starts the refresh (the first call only), remembering the sync's report so far.
    func start(after report: SyncReport) {
        let first = lock.withLock { () -> Bool in
            guard startedAfter == nil else { return false }
            startedAfter = report
            return true
        }
        guard first else { return }
        finished.enter()
        Thread.detachNewThread { [self] in
            do {
                try Self.refreshNow(vault: vault, environment: environment, after: report)
            } catch {
                lock.withLock { failure = error }
            }
            finished.leave()
        }
    }

    /// Brings the catalog of `vault` up to date on this thread with what the sync of `report`
    /// wrote (the notes it stamped and those the remote changed) and the notes git's history
    /// dates anew: no walk of the vault (the next command's walk or watcher sees the rest).
    static func refreshNow(vault: Vault, environment: [String: String], after report: SyncReport) throws {
        _ = try VaultSession(vault: vault, environment: environment, changedPaths: report.stamped + report.updatedFromRemote)
    }

    /// Waits for a started refresh to finish; returns the report it started from (nil when it
    /// never started) or rethrows its error.
    func wait() throws -> SyncReport? {
        finished.wait()
        return try lock.withLock {
            if let failure { throw failure }
            return startedAfter
        }
    }
}
