import Foundation
import QuireCore
import QuireGit

extension Syncer {
    /// Steps 4–6: brings the remote head into the local branch — fast-forward when possible,
    /// else a merge commit built in memory — and updates the work tree through the journal.
    /// `own`: a commit this device made that never was on its branch (an interrupted merge the
    /// journal names), which no namesake made.
    func integrate(_ remoteTip: OID, selector: MergeStrategySelector, state: inout SyncState,
                   report: inout SyncReport, own: OID? = nil) throws {
        let local = try repository.headCommitID()
        if let local, try local == remoteTip || repository.isAncestor(remoteTip, of: local) {
            if report.integration == "none" { report.integration = "up-to-date" }
            return
        }
        // Paths no device may write (under `.git`, `..`, …) are left out and recorded.
        let incoming = try IncomingTree(commit: remoteTip, local: local, repository: repository)
        report.skipped += incoming.skipped
        guard let local else {
            let target = !incoming.changesTree ? remoteTip
                : try incoming.commit(on: [remoteTip], repository: repository, environment: environment, vault: vault)
            try moveTo(target, from: nil, state: &state, report: &report)
            report.integration = "fast-forward"
            try describeArrival(from: nil, to: target, report: &report)
            return
        }
        // Advisory only: a reflog that cannot be read never stops a sync.
        if report.namesake == nil {
            report.namesake = try? Namesake.find(device: environment.device, arriving: remoteTip, local: local,
                                                 branch: branch, own: own, repository: repository)
        }
        let backup = try BackupRefs.record(local, now: environment.now, repository: repository)
        report.backup = backup
        if try repository.isAncestor(local, of: remoteTip) {
            let target = !incoming.changesTree ? remoteTip
                : try incoming.commit(on: [local, remoteTip], repository: repository, environment: environment, vault: vault)
            try moveTo(target, from: local, state: &state, report: &report)
            try BackupRefs.recordResult(of: backup, result: target, repository: repository)
            report.integration = "fast-forward"
            try describeArrival(from: local, to: target, report: &report)
            return
        }
        let ours = try repository.commit(local)
        let theirs = try repository.commit(remoteTip)
        let base = try repository.mergeBase(local, remoteTip)
        let baseTree = try base.map { try repository.treeID(ofCommit: $0) }
        let theirsDevice = CommitTrailers.device(of: theirs)
        let merger = TreeMerger(repository: repository, selector: selector, theirsDevice: theirsDevice,
                                oursDevice: environment.device, now: environment.now)
        let output = try merger.merge(base: baseTree, baseCommit: base,
                                      ours: .init(tree: ours.tree, time: ours.committer.time, commit: local),
                                      theirs: .init(tree: incoming.tree, time: theirs.committer.time, commit: remoteTip))
        try environment.checkpoint("during-merge")
        let tree = try repository.writeTree(entries: output.entries)
        var message = "quire sync on \(environment.device): merged the changes of \(theirsDevice)\n\n"
        if !output.merged.isEmpty { message += output.merged.joined(separator: "\n") + "\n\n" }
        message += "Quire-Device: \(environment.device)\n"
        for decision in output.decisions + incoming.refused { message += ConflictTrailer.line(for: decision) + "\n" }
        let signature = environment.signature(repository: repository, vault: vault)
        let merge = try repository.createCommit(tree: tree, parents: [local, remoteTip], message: message,
                                                author: signature, committer: signature)
        report.merged += output.merged
        report.conflicts += output.decisions
        report.incomingMarkers += try markers(in: try repository.diff(from: ours.tree, to: tree, detectRenames: false))
        try moveTo(merge, from: local, state: &state, report: &report)
        try BackupRefs.recordResult(of: backup, result: merge, repository: repository)
        report.integration = "merge"
    }

    /// What a fast-forward from `previous` to `target` brought (`SyncReport.arrived`), and the
    /// incoming notes that hold conflict markers.
    private func describeArrival(from previous: OID?, to target: OID, report: inout SyncReport) throws {
        let deltas = try repository.diff(from: try previous.map { try repository.treeID(ofCommit: $0) },
                                         to: try repository.treeID(ofCommit: target))
        for delta in deltas {
            // Two notes with different ids are never one note moved, however alike (a template).
            if delta.kind == .renamed, delta.newPath.hasSuffix(".md"), let old = delta.oldID, let new = delta.newID,
               let oldNote = NoteParser.parse(try repository.blobData(old), path: delta.oldPath).id,
               let newNote = NoteParser.parse(try repository.blobData(new), path: delta.newPath).id, oldNote != newNote {
                report.arrived += ["D \(delta.oldPath)", "A \(delta.newPath)"]
            } else {
                report.arrived.append(Self.describe(delta))
            }
        }
        report.incomingMarkers += try markers(in: deltas)
    }

    /// `path:line` of each added or changed note of `deltas` holding a complete set of git's
    /// conflict markers outside fenced code (`ConflictMarkers`).
    private func markers(in deltas: [DiffDelta]) throws -> [String] {
        try deltas.compactMap { delta -> String? in
            guard delta.kind != .deleted, delta.newPath.hasSuffix(".md"), let id = delta.newID else { return nil }
            let data = try repository.blobData(id)
            let line = data.withUnsafeBytes { raw in ConflictMarkers.firstLine(in: raw.bindMemory(to: UInt8.self)) }
            return line.map { "\(delta.newPath):\($0)" }
        }
    }

    /// Writes the journal, updates the work tree from `from` to `target`, moves the branch,
    /// and removes the journal: a crash at any point is finished by `Journal.replay`.
    func moveTo(_ target: OID, from previous: OID?, state: inout SyncState, report: inout SyncReport) throws {
        try Journal.write(target: target, previous: previous, vaultRoot: vault.root)
        try environment.fault("before-checkout")
        let outcome = try applyTree(of: target, from: previous, state: &state)
        report.updatedFromRemote += outcome.updated
        report.skipped += outcome.skipped
        report.merged += Self.movedAsideLines(outcome)
        let kept = outcome.keptUserEdits.keys.sorted().filter { !report.keptUserEdits.contains($0) }  // not twice
        report.keptUserEdits += kept
        try environment.fault("before-ref-update")
        try repository.setReference(branch, to: target, message: "quire sync")
        try Journal.remove(vaultRoot: vault.root)
    }

    /// How the report lists the files an update moved out of a folder's way (the words of a
    /// merge that keeps a file and a folder of one name, and when the file came).
    static func movedAsideLines(_ outcome: WorkTreeUpdater.Outcome) -> [String] {
        outcome.movedAside.map {
            "a file and a folder at one path, kept both: \($0.path)/ and \($0.to) (the file was saved while the sync ran)"
        }
    }

    /// Updates the work tree and index from commit `previous` (nil: empty) to commit `target`;
    /// `resuming` when it finishes an update a crash interrupted.
    func applyTree(of target: OID, from previous: OID?, resuming: Bool = false,
                   state: inout SyncState) throws -> WorkTreeUpdater.Outcome {
        let oldTree = try previous.map { try repository.treeID(ofCommit: $0) }
        let newTree = try repository.treeID(ofCommit: target)
        let environment = self.environment
        let outcome = try WorkTreeUpdater(repository: repository, vault: vault, resuming: resuming, retired: retired,
                                          afterWrites: { try environment.fault("after-work-tree-writes") },
                                          beforeWrites: { try environment.fault("before-work-tree-writes") })
            .update(from: oldTree, to: newTree)
        // A file already waiting for a merge keeps the base it waits with: the user's edit is
        // based on that version, not on the one this update replaced (which may hold an incoming
        // change the edit lacks — merging against it would revert that change).
        for (path, base) in outcome.keptUserEdits where state.pendingBases[path] == nil { state.pendingBases[path] = base }
        state.pendingHead = state.pendingBases.isEmpty ? nil : target.hex
        try state.save(vaultRoot: vault.root)
        return outcome
    }

    func checkRepositoryState() throws {
        // A rebase detaches HEAD: named first, so that the hint is the rebase's, not `git switch`.
        if let operation = repository.operationInProgress { throw SyncError.operationInProgress(operation) }
        if repository.isHeadDetached { throw SyncError.detachedHead }
        if repository.isShallow { throw SyncError.shallowRepository }
    }
}
