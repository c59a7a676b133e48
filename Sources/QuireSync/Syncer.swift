import Foundation
import QuireCore
import QuireGit

/// One `quire sync` cycle (DESIGN.md §4): lock, stamp, commit, back up, fetch, merge in memory,
/// update the work tree without overwriting the user's edits, push with bounded retries, and
/// record the outcome for `quire status`. All git work goes through libgit2.
///
/// Usage: `let report = try Syncer(vault: vault, environment: env, transfer: options).run(SyncOptions())`.
public final class Syncer {
    /// The vault being synced.
    public let vault: Vault
    let repository: Repository
    let environment: SyncEnvironment
    let transfer: TransferOptions
    /// The branch HEAD is on (`refs/heads/main` for a new vault; a clone keeps the remote's name;
    /// the first sync of a new vault may take the remote's, see `settleUpstream`).
    var branch: String
    /// The branch of origin it syncs with (`refs/heads/<name>`): the recorded upstream, else the
    /// same name.
    var upstream: String
    /// Whether `upstream` is settled: recorded in the config, or chosen during this cycle.
    var hasUpstream: Bool
    /// Old versions of the files a cycle replaces, freed in the background while it goes on
    /// (in `.git`, where neither git nor quire looks for notes).
    let retired: RetiredFiles
    /// Its remote-tracking branch, `refs/remotes/origin/<name>`.
    var tracking: String { Upstream.tracking(of: upstream) }

    /// Runs a transfer; one that failed because an interrupt stopped it (`TransferOptions.shouldStop`)
    /// is `SyncError.interrupted` at `point`.
    func stoppable(_ point: String, _ transfer: () throws -> Void) throws {
        do {
            try transfer()
        } catch let error as GitError {
            if let signal = environment.interruption?() { throw SyncError.interrupted(signal: signal, point: point) }
            throw error
        }
    }

    /// Opens the vault's repository.
    public init(vault: Vault, environment: SyncEnvironment, transfer: TransferOptions) throws {
        self.vault = vault
        self.environment = environment
        var transfer = transfer
        if transfer.shouldStop == nil, let interruption = environment.interruption {
            // A transfer stops at an interrupt (a fetch or a push cut off leaves nothing half-done:
            // no ref moves, and a server takes a pack only whole), instead of running to its end.
            transfer.shouldStop = { interruption() != nil }
        }
        // Test hook: `QUIRE_FAULT=during-fetch:stop` (or `during-push`) pauses at the transfer's
        // first progress, so that a test can interrupt it in flight.
        let shown = transfer.progress
        let paused = TransferPause()
        transfer.progress = { [environment] progress in
            let point = [.counting, .packing, .sending].contains(progress.phase) ? "during-push" : "during-fetch"
            if paused.first(point) { try? environment.fault(point) }
            shown?(progress)
        }
        self.transfer = transfer
        repository = try Repository.open(at: vault.root)
        retired = RetiredFiles(directory: repository.gitDirectory.appendingPathComponent("quire-retired").path)
        branch = try repository.headBranchName() ?? "refs/heads/main"
        let recorded = try Upstream.recorded(for: branch, in: repository)
        upstream = recorded ?? branch
        hasUpstream = recorded != nil
    }

    /// Runs one cycle under the vault lock; the outcome (success or the error) is recorded in
    /// `.quire/local/sync-state.json` either way.
    public func run(_ options: SyncOptions = SyncOptions()) throws -> SyncReport {
        // A vault a newer quire migrated is read-only here: nothing is committed or merged.
        try vault.requireWritableFormat()
        let lock = try VaultLock(vaultRoot: vault.root)
        retired.startPurge()  // what a crashed sync left
        TemporaryFiles.removeLeftovers(vaultRoot: vault.root)  // and the temporary files of one killed
        defer { retired.waitForPurge() }
        return try withExtendedLifetime(lock) {
            var state = try SyncState.load(vaultRoot: vault.root)
            do {
                let report = try cycle(options, state: &state, deadHolderSince: lock.deadHolderSince)
                if report.localOnly {
                    // Nothing was asked of the remote: the last outcome with it still stands.
                    try state.save(vaultRoot: vault.root)
                } else if !options.dryRun {
                    state.lastSync = environment.now
                    state.lastOutcome = report.pushed || !options.push ? "ok" : "ok (nothing to push)"
                    if !options.push { state.lastOutcome = "committed and merged; not pushed (--no-push)" }
                    if report.noRemote { state.lastOutcome = "no remote: committed locally, nothing pushed" }
                    state.lastError = nil
                    state.skipped = report.skipped.isEmpty ? nil : report.skipped
                    if options.push && !report.noRemote { state.lastSuccess = environment.now }
                    try state.save(vaultRoot: vault.root)
                }
                return report
            } catch {
                state.lastSync = environment.now
                state.lastOutcome = Self.outcome(of: error)
                state.lastError = Credentials.redact(String(describing: error))
                try? state.save(vaultRoot: vault.root)
                throw error
            }
        }
    }

    static func outcome(of error: Error) -> String {
        if let error = error as? GitError {
            switch error.category {
            case .offline: return "offline"
            case .authentication: return "authentication failed"
            case .repositoryNotFound: return "remote not found"
            case .pushRejected: return "push rejected"
            case .other: return "failed"
            }
        }
        if case SyncError.pushRejectedAfterRetries? = error as? SyncError { return "push rejected" }
        if case SyncError.interrupted? = error as? SyncError { return "interrupted" }
        if case CarrierError.verificationFailed? = error as? CarrierError { return "remote failed verification" }
        return "failed"
    }

    private func cycle(_ options: SyncOptions, state: inout SyncState, deadHolderSince: Date?) throws -> SyncReport {
        var report = SyncReport()
        try checkRepositoryState()
        StaleLocks.clean(gitDirectory: repository.gitDirectory, references: [branch, tracking], deadHolderSince: deadHolderSince)
        let unfinishedMerge = try Journal.replay(syncer: self, state: &state, report: &report)
        let selector = try strategySelector(options)
        let head = try repository.headCommitID()
        if options.dryRun {
            report.wouldCommit = try stageable(repository.status(detectRenames: true).filter { !NestedRepository.isNested($0) }, removing: false)
                .map { Self.describe($0.kind, path: $0.path, oldPath: $0.oldPath) }
        } else {
            try removeCommittedTemporaries()
            let headTree = try head.map { try repository.treeID(ofCommit: $0) }
            let headTime = try head.map { try repository.commit($0).committer.time } ?? environment.now
            options.phaseStarted?(.scanning)
            let stamping = try Stamper(repository: repository, vault: vault, headTree: headTree, headTime: headTime,
                                       environment: environment, retired: retired)
                .run(state: &state, selector: selector)
            report.stamped = stamping.stamped
            report.conflicts += stamping.decisions
            report.keptUserEdits = stamping.waiting
            // Kept with the state until the commit that carries them: a crash in between must not
            // drop the record of what the pending merges dropped.
            // And those the merge driver took in a plain `git pull`, once git committed that merge.
            let driven = try DriverDecisions.pairedTrailers(repository, vaultRoot: vault.root)
            let trailers = (state.pendingConflictTrailers ?? []) + stamping.decisions.map { ConflictTrailer.line(for: $0, theirs: stamping.incomingCommit) }
                + driven.lines
            state.pendingConflictTrailers = trailers.isEmpty ? nil : trailers
            try state.save(vaultRoot: vault.root)
            try driven.forget()
            try environment.checkpoint("after-stamp")
            // Nothing changed (the usual case): no need to scan the work tree again to commit.
            if stamping.changed || head == nil || !trailers.isEmpty {
                options.phaseStarted?(.committing)
                try commitLocalChanges(into: &report, trailers: trailers, leaving: stamping.uncommitted,
                                       looking: head == nil ? nil : stamping.touched)
            }
            if !trailers.isEmpty {
                state.pendingConflictTrailers = nil
                try state.save(vaultRoot: vault.root)
            }
            try environment.checkpoint("after-commit")
            if let unfinishedMerge {
                // This device's own merge, never on its branch (so in no reflog): not a namesake's.
                try integrate(unfinishedMerge, selector: selector, state: &state, report: &report, own: unfinishedMerge)
                try Journal.remove(vaultRoot: vault.root)
            }
        }
        if !options.network && !options.dryRun {
            report.localOnly = true
            return report
        }
        guard let remote = try repository.remote(named: "origin") else {
            // A vault of one device is normal: the commit is the sync.
            report.noRemote = true
            if options.dryRun { try describeDryRun(remoteTip: nil, into: &report) }
            return report
        }
        if !options.dryRun, let local = StaleLocks.localGitDirectory(remote.url) {
            // In a remote on a local path, a push holds a ref lock for milliseconds: one older than
            // a few seconds belongs to a process that died (another device's killed sync).
            StaleLocks.clean(gitDirectory: local, references: [upstream], olderThan: 5, packs: false)
        }
        try settleEstablishedUpstream(dryRun: options.dryRun)
        // An encrypted remote is fetched and pushed through its carrier; its one branch is main.
        let encrypted = try encryptedRemote(remote)
        if encrypted != nil && !hasUpstream { upstream = Carrier.branch }
        var remoteHadBranch = false
        for attempt in 1...max(1, options.pushAttempts) {
            report.attempts = attempt
            try environment.checkpoint("before-fetch")
            options.phaseStarted?(.fetching)
            try stoppable("during-fetch") {
                if let encrypted { try encrypted.fetch(tracking: tracking, options: transfer) } else { try remote.fetch(options: transfer) }
            }
            try environment.checkpoint("after-fetch")
            if !hasUpstream {
                try settleUpstream(remoteHead: encrypted != nil ? Carrier.branch : remote.defaultBranch(), dryRun: options.dryRun)
            }
            let remoteTip = try repository.referenceTarget(tracking)
            remoteHadBranch = remoteTip != nil
            if options.dryRun {
                try describeDryRun(remoteTip: remoteTip, into: &report)
                return report
            }
            if remoteTip != nil { options.phaseStarted?(.merging) }
            if let remoteTip { try integrate(remoteTip, selector: selector, state: &state, report: &report) }
            if attempt == 1 { options.workTreeSettled?(report) }
            guard options.push, let local = try repository.headCommitID(), local != remoteTip else { break }
            let outgoing = try remoteTip.map { try repository.aheadBehind(local: local, upstream: $0).ahead }
                ?? repository.log(from: local).count
            try environment.checkpoint("before-push")
            options.phaseStarted?(.pushing)
            do {
                // Through a handle whose pack building skips libgit2's delta search.
                let handle = try repository.forPushing()
                if let encrypted {
                    try stoppable("during-push") { try encrypted.push(local: local, packing: handle, options: transfer) }
                } else {
                    guard let pushing = try handle.remote(named: "origin") else { throw SyncError.noRemote }
                    try stoppable("during-push") { try pushing.push(branch: branch, to: upstream, expected: remoteTip, options: transfer) }
                }
            } catch let error as GitError where error.category == .pushRejected {
                // The server's own refusal (a hook, a protected branch) is not cured by merging.
                if error.reason == .refusedByServer { throw error }
                if attempt < options.pushAttempts { continue }
                throw SyncError.pushRejectedAfterRetries(attempts: attempt)
            }
            try repository.setReference(tracking, to: local, message: "quire: pushed")
            if !hasUpstream { try recordUpstream() }  // an empty remote: the push made the branch
            try environment.fault("after-push")
            report.pushed = true
            report.pushedCommits = outgoing
            break
        }
        if encrypted == nil { settleRemoteHead(remote, pushedNewBranch: report.pushed && !remoteHadBranch, remoteHadBranch: remoteHadBranch,
                         into: &report) }
        return report
    }

    private func strategySelector(_ options: SyncOptions) throws -> MergeStrategySelector {
        if let strategy = options.strategy { return MergeStrategySelector(rules: [], fallback: strategy) }
        let rules = try vault.config().mergeRules.compactMap { rule -> (pattern: String, strategy: MergeStrategy)? in
            MergeStrategy(rawValue: rule.strategy).map { (rule.pattern, $0) }
        }
        return MergeStrategySelector(rules: rules, fallback: .newest)
    }

    /// Step 3: commits every change in the work tree (adds, edits, deletes, renames), with a
    /// `Quire-Conflict` trailer line for each decision of a pending merge (the loser is the
    /// parent's, or for a deletion undone the commit's own side). Decisions that changed nothing
    /// against HEAD (a note brought back as HEAD has it) still get a commit to carry them.
    /// Paths in `leaving` (pending merges that wait) stay as HEAD has them: uncommitted.
    /// `looking` names every path that can differ from HEAD (what the stamping scanned and
    /// wrote): only those are looked at again; nil looks at the whole work tree.
    private func commitLocalChanges(into report: inout SyncReport, trailers: [String], leaving: [String],
                                    looking paths: [String]?) throws {
        let index = try repository.index()
        // What status reports is what `git add --all` would stage; an unresolved conflict goes
        // through the full walk instead. A folder entry is a git repository of its own (status
        // lists every other untracked file): never staged, reported. New temporary files are
        // never staged (`stageable`).
        var status = try repository.status(paths: paths).filter(\.inWorkTree)
        let nested = status.filter(NestedRepository.isNested)
        report.skipped += nested.map { SkippedPath(path: $0.path, reason: NestedRepository.reason) }
        status.removeAll(where: NestedRepository.isNested)
        var changes = stageable(status)
        let head = try repository.headCommitID()
        let headTree = try head.map { try repository.treeID(ofCommit: $0) }
        // A link where the branch has a folder, that folder's files seen through it, and the
        // files of a repository of its own (once the branch has notes in its folder) stay out.
        let linked = try changes.compactMap { change -> SkippedPath? in
            if let reason = LinkedFolder.obstacle(to: change.path, in: vault) {
                return SkippedPath(path: change.path, reason: reason)
            }
            guard LinkedFolder.isLink(change.path, in: vault) == true, let headTree,
                  try repository.entry(atPath: change.path, inTree: headTree)?.kind == .tree else { return nil }
            return SkippedPath(path: change.path, reason: "a symbolic link where the vault has a folder; not committed over it")
        }
        report.skipped += linked
        let left = Set(linked.map(\.path))
        changes.removeAll { left.contains($0.path) }
        if changes.contains(where: { $0.kind == .conflicted }) && nested.isEmpty && linked.isEmpty {
            try index.addAll()
            for entry in status where entry.kind == .added
                && (TemporaryFiles.isTemporary(entry.path) || EditorScratch.isScratch(entry.path)) {
                try index.remove(path: entry.path)
            }
        } else {
            try index.update(paths: changes.map(\.path), root: vault.root)
        }
        for path in leaving {
            if let headTree, let entry = try repository.entry(atPath: path, inTree: headTree) {
                try index.add(entry: entry)
            } else {
                try index.remove(path: path)
            }
        }
        let tree = try index.writeTree()
        try index.write()
        guard tree != headTree || (head != nil && !trailers.isEmpty) else { return }
        let deltas = try repository.diff(from: headTree, to: tree)
        let lines = deltas.map(Self.describe)
        report.committed = lines
        var message: String
        if lines.isEmpty {
            let count = trailers.count == 1 ? "1 decision" : "\(trailers.count) decisions"
            message = "quire sync on \(environment.device): recorded \(count) of the last update\n"
        } else {
            let count = lines.count == 1 ? "1 change" : "\(lines.count) changes"
            message = try CommitSubject.subject(deltas.map(CommitSubject.Change.init), name: noteTitle) + "\n\n"
            message += "quire sync on \(environment.device): \(count)\n\n"
            message += lines.prefix(100).joined(separator: "\n")
            if lines.count > 100 { message += "\n… and \(lines.count - 100) more" }
            message += "\n"
        }
        message += "\nQuire-Device: \(environment.device)\n"
        message += trailers.map { $0 + "\n" }.joined()
        let signature = environment.signature(repository: repository, vault: vault)
        let commit = try repository.createCommit(tree: tree, parents: head.map { [$0] } ?? [], message: message,
                                                 author: signature, committer: signature, updateReference: "HEAD")
        report.commit = commit.hex
    }

    /// The title of the note a commit's change names (its file name when the blob is gone).
    private func noteTitle(_ change: CommitSubject.Change) throws -> String {
        guard let blob = change.blob else { return NoteParser.stem(of: change.path) }
        return NoteParser.parseFrontMatter(try repository.blobData(blob), path: change.path).title
    }

    static func describe(_ delta: DiffDelta) -> String {
        describe(delta.kind, path: delta.kind == .deleted ? delta.oldPath : delta.newPath, oldPath: delta.oldPath)
    }

    /// One change as sync output, `quire status` and a dry run show it: `A path`, `M path`,
    /// `D path`, `R old -> new`.
    public static func describe(_ kind: ChangeKind, path: String, oldPath: String?) -> String {
        switch kind {
        case .added: return "A \(path)"
        case .deleted: return "D \(path)"
        case .renamed: return "R \(oldPath ?? path) -> \(path)"
        default: return "M \(path)"
        }
    }

    private func describeDryRun(remoteTip: OID?, into report: inout SyncReport) throws {
        guard let local = try repository.headCommitID() else {
            report.incomingCommits = try remoteTip.map { try repository.log(from: $0).count } ?? 0
            return
        }
        guard let remoteTip else {
            report.outgoingCommits = try repository.log(from: local).count
            return
        }
        let counts = try repository.aheadBehind(local: local, upstream: remoteTip)
        report.outgoingCommits = counts.ahead
        report.incomingCommits = counts.behind
    }
}

/// Which transfer phases (`during-fetch`, `during-push`) have been seen, for the test pause.
private final class TransferPause: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: Set<String> = []

    /// Whether `point` is seen for the first time.
    func first(_ point: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return seen.insert(point).inserted
    }
}
