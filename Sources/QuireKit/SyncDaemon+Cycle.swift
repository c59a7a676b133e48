import Foundation
import QuireCore
import QuireGit
import QuireSearch
import QuireSync
#if canImport(Glibc)
import Glibc
#endif

extension SyncDaemon {
    /// How one cycle ended, for the log, the health record and what comes next.
    enum CycleOutcome {
        /// The cycle ran: the report.
        case synced(SyncReport)
        /// During a backoff: this device's changes were committed, the remote was left alone.
        case committedLocally(SyncReport)
        /// Not run now (someone else is working on the vault): why, and when to try again.
        case skipped(String, retryIn: Double)
        /// The remote could not be reached, or another failure retrying may cure: back off.
        /// `committed`: the cycle got past its commit (this device's changes are committed).
        case failed(String, result: String, committed: Bool)
        /// Only the user can help (credentials, host key): stop retrying.
        case needsUser(String, result: String)
        /// A second stop signal stopped the cycle at a safe point.
        case interrupted

        /// The report of a cycle that ran (with the remote or without).
        var report: SyncReport? {
            switch self {
            case .synced(let report), .committedLocally(let report): return report
            default: return nil
            }
        }
    }

    /// Runs one cycle now (the debounce or the timer made it due) and acts on its outcome.
    /// During a backoff only this device's changes are committed; the remote waits for the
    /// backoff to end, however often the user saves.
    func runCycle() {
        let started = clock()
        if let busy = busyReason() {
            finish(.skipped(busy, retryIn: max(1, settings.debounce)), started: started)
            return
        }
        let waiting = pending
        pending = [:]
        firstPending = nil
        var options = VaultSyncOptions(environment: environment)
        let signals = self.signals
        options.interruption = { signals.interruption() }
        options.waitForDaemon = 0
        options.network = !inBackoff(now: started)
        let phases = SyncPhaseRecord()
        options.phaseStarted = { phases.record($0) }
        let outcome: CycleOutcome
        do {
            let synced = try VaultSync.runRepairingLinks(vault, options: options)
            outcome = synced.report.localOnly ? .committedLocally(synced.report) : .synced(synced.report)
            announceLost(synced.lost)
        } catch {
            outcome = Self.classify(error, committed: phases.reachedRemote)
        }
        if let report = outcome.report {
            // The files the cycle itself wrote are no reason for another one; a user's edit
            // made meanwhile is.
            do {
                // By bytes: an edit of a name equal under normalization to one the cycle wrote is the user's.
                try takeChanges(except: Set((report.updatedFromRemote + report.stamped).map(ExactPath.init))
                    .subtracting(report.keptUserEdits.map(ExactPath.init)))
                let now = clock()
                for path in report.keptUserEdits where pending[path] == nil { pending[path] = (1, now) }
                if firstPending == nil, !pending.isEmpty { firstPending = now }
            } catch {
                say("cannot read the file events: \(error)")
            }
        }
        if case .skipped = outcome {
            // Nothing was done: the changes still wait.
            for (path, entry) in waiting where pending[path] == nil { pending[path] = entry }
            if firstPending == nil, !pending.isEmpty { firstPending = started }
        }
        finish(outcome, started: started)
        // What the cycle allocated is freed; between cycles the daemon holds what it keeps.
        FreedMemory.giveBack()
    }

    /// Why a cycle should not start now: a git command run by hand holds the index (a fresh
    /// `.git/index.lock`), or a merge or rebase is in progress.
    func busyReason() -> String? {
        let git = vault.root.appendingPathComponent(".git")
        let index = git.appendingPathComponent("index.lock").path
        if let attributes = try? FileManager.default.attributesOfItem(atPath: index),
           let modified = attributes[.modificationDate] as? Date, Date().timeIntervalSince(modified) < 60 {
            return "a git command is working on the vault (.git/index.lock)"
        }
        return nil
    }

    /// What a cycle's `error` means for the daemon; `committed`: the cycle got past its commit.
    static func classify(_ error: Error, committed: Bool) -> CycleOutcome {
        let text = Credentials.redact(String(describing: error))
        // A full disk is this device's trouble, whichever step met it: never "offline".
        if DiskFull.caused(error) { return .failed(text, result: "disk full", committed: committed) }
        if let error = error as? SyncError {
            switch error {
            case .locked: return .skipped("another quire is syncing the vault", retryIn: 2)
            case .operationInProgress, .detachedHead: return .skipped("waiting for the git command in progress: \(text)", retryIn: 30)
            case .interrupted: return .interrupted
            case .pushRejectedAfterRetries: return .failed(text, result: "push rejected", committed: committed)
            default: return .failed(text, result: "failed", committed: committed)
            }
        }
        if let error = error as? GitError {
            switch error.category {
            case .authentication: return .needsUser(text, result: "authentication failed")
            case .offline: return .failed(text, result: "offline", committed: committed)
            case .repositoryNotFound: return .failed(text, result: "remote not found", committed: committed)
            case .pushRejected: return .failed(text, result: "push rejected", committed: committed)
            case .other:
                if error.code == .locked { return .skipped("a git command holds a lock in the vault", retryIn: 2) }
                return .failed(text, result: "failed", committed: committed)
            }
        }
        return .failed(text, result: "failed", committed: committed)
    }

    /// Records the outcome (health, log, notification) and sets the next due time.
    func finish(_ outcome: CycleOutcome, started: Double) {
        let now = clock()
        let elapsed = String(format: "%.1f s", now - started)
        health.lastCycle = Date()
        switch outcome {
        case .synced(let report):
            failures = 0
            health.backoffSeconds = 0
            health.lastResult = report.noRemote ? "ok (no remote)" : "ok"
            health.lastSummary = Self.summary(report)
            nextFetch = now + settings.fetchInterval
            notBefore = 0
            say("sync ok: \(health.lastSummary ?? "") (\(elapsed))")
            if let namesake = report.namesake {
                say("warning: another device also syncs as \"\(namesake.device)\" (its commit \(namesake.commit.prefix(7)) arrived): "
                    + "the two read alike in 'quire conflicts'; give this device a name of its own: "
                    + "'device: NAME' in .quire/local/config.yml")
            }
            announce(report.conflicts)
        case let .skipped(reason, retryIn):
            health.lastResult = "skipped"
            health.lastSummary = reason
            notBefore = now + retryIn
            nextFetch = max(nextFetch, notBefore)
            say("sync skipped: \(reason); trying again in \(Self.seconds(retryIn))")
        case .committedLocally(let report):
            health.lastSummary = Self.summary(report)
            notBefore = 0
            say("committed here: \(health.lastSummary ?? ""); fetch and push wait for the backoff, "
                + "trying again in \(Self.seconds(max(0, nextFetch - now))) (\(elapsed))")
        case let .failed(message, result, committed):
            failures += 1
            let wait = backoffWait(failures: failures)
            health.backoffSeconds = wait
            health.lastResult = result
            health.lastSummary = nil
            health.lastError = message
            health.lastErrorAt = Date()
            nextFetch = now + wait
            notBefore = 0
            let kept = committed ? "local changes stay committed" : "the failure came before the commit: nothing new is committed"
            say("sync \(result): \(message); \(kept); trying again in \(Self.seconds(wait)) (\(elapsed))")
        case let .needsUser(message, result):
            health.lastResult = result
            health.lastError = message
            health.lastErrorAt = Date()
            health.stoppedBecause = result
            health.backoffSeconds = 0
            let state = try? SyncState.load(vaultRoot: vault.root)
            stoppedAtSync = state?.lastSync
            stoppedStateWasSuccess = state.map(Self.isSuccess) ?? false
            say("sync \(result): \(message); not retrying until the settings change (SIGHUP) or a 'quire sync' by hand succeeds")
        case .interrupted:
            health.lastResult = "interrupted"
            say("sync interrupted at a safe point (stopping)")
        }
        health.pendingChanges = pending.count
        health.nextFetch = health.stoppedBecause == nil ? Date().addingTimeInterval(dueTime(now: now) - now) : nil
        saveHealth()
    }

    /// Whether `sync-state.json` records a successful sync since the daemon stopped for the user:
    /// a success with a newer `lastSync`, or a success where the state at the stop recorded the
    /// failure (both can fall in one second, the resolution of `lastSync`).
    func manualSyncSucceeded() -> Bool {
        guard let state = try? SyncState.load(vaultRoot: vault.root), let last = state.lastSync, Self.isSuccess(state) else {
            return false
        }
        return last != stoppedAtSync || !stoppedStateWasSuccess
    }

    /// Whether a sync state records a sync that ended well.
    static func isSuccess(_ state: SyncState) -> Bool {
        state.lastError == nil && state.lastOutcome?.hasPrefix("ok") == true
    }

    static func summary(_ report: SyncReport) -> String {
        var parts: [String] = []
        if !report.committed.isEmpty { parts.append("committed \(count(report.committed.count, "change"))") }
        if !report.updatedFromRemote.isEmpty { parts.append("\(count(report.updatedFromRemote.count, "file")) from the remote") }
        if !report.conflicts.isEmpty { parts.append("\(count(report.conflicts.count, "collision")) resolved") }
        if report.pushed { parts.append("pushed \(count(report.pushedCommits, "commit"))") }
        if report.attempts > 1 { parts.append("\(report.attempts) push attempts (the remote moved meanwhile)") }
        if !report.keptUserEdits.isEmpty { parts.append("\(count(report.keptUserEdits.count, "edit")) kept for the next cycle") }
        if report.noRemote { parts.append("no remote") }
        return parts.isEmpty ? "up to date" : parts.joined(separator: ", ")
    }

    static func count(_ value: Int, _ noun: String) -> String { value == 1 ? "1 \(noun)" : "\(value) \(noun)s" }

    /// Conflicts of this cycle where this device's text was dropped: a log line each with the
    /// command that brings it back, and one desktop notification for the cycle.
    func announceLost(_ lost: [ConflictRecord]) {
        guard !lost.isEmpty else { return }
        let device = vault.deviceName(environment: environment)
        for record in lost {
            say("your text lost: \(record.path) (\(record.id)): \(record.readableReason(seenBy: device)) — "
                + "'quire restore \(record.path) --conflict \(record.id)' brings it back")
        }
        if settings.notify {
            DesktopNotification.send(title: "Quire: your text lost in \(Self.count(lost.count, "note"))",
                                     body: lost.map(\.path).sorted().prefix(5).joined(separator: ", ") + " — see 'quire conflicts'",
                                     environment: environment)
        }
    }

    /// New conflicts: in the log and the health record.
    func announce(_ conflicts: [MergeDecision]) {
        guard !conflicts.isEmpty else { return }
        for decision in conflicts {
            let readable = decision.readable(localDevice: vault.deviceName(environment: environment))
            let line = "\(decision.path): \(readable.kept) — \(readable.reason)"
            say("conflict resolved: \(line) (the other version: quire conflicts)")
            health.conflicts.append(line)
        }
        health.conflicts = Array(health.conflicts.suffix(50))
    }
}
