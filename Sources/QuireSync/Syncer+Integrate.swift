import Foundation
import QuireCore
import QuireGit

extension Syncer {
    /// Steps 4–6: brings the remote head into the local branch — fast-forward when possible,
    /// else a merge commit built in memory — and updates the work tree through the journal.
    func integrate(_ remoteTip: OID, selector: MergeStrategySelector, state: inout SyncState,
                   report: inout SyncReport) throws {
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
            return
        }
        let backup = try BackupRefs.record(local, now: environment.now, repository: repository)
        report.backup = backup
        if try repository.isAncestor(local, of: remoteTip) {
            let target = !incoming.changesTree ? remoteTip
                : try incoming.commit(on: [local, remoteTip], repository: repository, environment: environment, vault: vault)
            try moveTo(target, from: local, state: &state, report: &report)
            try BackupRefs.recordResult(of: backup, result: target, repository: repository)
            report.integration = "fast-forward"
            return
        }
        let ours = try repository.commit(local)
        let theirs = try repository.commit(remoteTip)
        let base = try repository.mergeBase(local, remoteTip)
        let baseTree = try base.map { try repository.treeID(ofCommit: $0) }
        let theirsDevice = CommitTrailers.value("Quire-Device", in: theirs.message) ?? theirs.author.name
        let merger = TreeMerger(repository: repository, selector: selector, theirsDevice: theirsDevice,
                                oursDevice: environment.device, now: environment.now)
        let output = try merger.merge(base: baseTree, ours: .init(tree: ours.tree, time: ours.committer.time),
                                      theirs: .init(tree: incoming.tree, time: theirs.committer.time))
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
        try moveTo(merge, from: local, state: &state, report: &report)
        try BackupRefs.recordResult(of: backup, result: merge, repository: repository)
        report.integration = "merge"
    }

    /// Writes the journal, updates the work tree from `from` to `target`, moves the branch,
    /// and removes the journal: a crash at any point is finished by `Journal.replay`.
    func moveTo(_ target: OID, from previous: OID?, state: inout SyncState, report: inout SyncReport) throws {
        try Journal.write(target: target, previous: previous, vaultRoot: vault.root)
        try environment.fault("before-checkout")
        let outcome = try applyTree(of: target, from: previous, state: &state)
        report.updatedFromRemote += outcome.updated
        report.skipped += outcome.skipped
        let kept = outcome.keptUserEdits.keys.sorted().filter { !report.keptUserEdits.contains($0) }  // not twice
        report.keptUserEdits += kept
        try environment.fault("before-ref-update")
        try repository.setReference(branch, to: target, message: "quire sync")
        try Journal.remove(vaultRoot: vault.root)
    }

    /// Updates the work tree and index from commit `previous` (nil: empty) to commit `target`;
    /// `resuming` when it finishes an update a crash interrupted.
    func applyTree(of target: OID, from previous: OID?, resuming: Bool = false,
                   state: inout SyncState) throws -> WorkTreeUpdater.Outcome {
        let oldTree = try previous.map { try repository.treeID(ofCommit: $0) }
        let newTree = try repository.treeID(ofCommit: target)
        let outcome = try WorkTreeUpdater(repository: repository, vault: vault, resuming: resuming, retired: retired)
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
        if repository.isHeadDetached { throw SyncError.detachedHead }
        if let operation = repository.operationInProgress { throw SyncError.operationInProgress(operation) }
    }
}

/// The sync journal (`.quire/local/sync-journal.json`): written before the work tree is updated,
/// removed once the branch points at the new commit. Found at the start of a sync, it is
/// finished first, so a crash never makes the next cycle commit a revert.
enum Journal {
    struct Entry: Codable {
        var target: String
        var previous: String?
    }

    static func url(_ root: URL) -> URL { root.appendingPathComponent(".quire/local/sync-journal.json") }

    static func write(target: OID, previous: OID?, vaultRoot: URL) throws {
        do {
            let data = try JSONEncoder().encode(Entry(target: target.hex, previous: previous?.hex))
            try data.write(to: url(vaultRoot), options: .atomic)
        } catch {
            throw SyncError.file(path: ".quire/local/sync-journal.json", reason: error.localizedDescription)
        }
    }

    static func remove(vaultRoot: URL) throws {
        let file = url(vaultRoot)
        guard FileManager.default.fileExists(atPath: file.path) else { return }
        do {
            try FileManager.default.removeItem(at: file)
        } catch {
            throw SyncError.file(path: ".quire/local/sync-journal.json", reason: error.localizedDescription)
        }
    }

    /// Finishes an interrupted update: when HEAD is still at `previous`, the work tree is brought
    /// to `target` (files already there are left, files the user changed are kept) and HEAD moves.
    /// When the git CLI committed on top of `previous` meanwhile (often the half-updated work
    /// tree itself), `target` is returned, journal kept, for the cycle to merge once the local
    /// changes are committed: dropped, a merge's second parent and its conflict records would
    /// never reach the branch, and the text its decisions dropped would be lost unrecorded.
    static func replay(syncer: Syncer, state: inout SyncState) throws -> OID? {
        let root = syncer.vault.root
        guard let data = try? Data(contentsOf: url(root)) else { return nil }
        guard let entry = try? JSONDecoder().decode(Entry.self, from: data), let target = OID(hex: entry.target) else {
            try remove(vaultRoot: root)
            return nil
        }
        let head = try syncer.repository.headCommitID()
        if let head, head.hex != entry.previous, let previous = entry.previous.flatMap(OID.init(hex:)),
           try syncer.repository.isAncestor(previous, of: head), try !syncer.repository.isAncestor(target, of: head) {
            return target
        }
        if head?.hex == entry.previous {
            // A journal an older quire left may name a commit with paths this device cannot
            // write (a name past 255 bytes made every replay fail): screened like a remote's.
            var target = target
            let screened = try IncomingTree(commit: target, local: head, repository: syncer.repository)
            if screened.changesTree {
                target = try screened.commit(on: [target], repository: syncer.repository, environment: syncer.environment,
                                             vault: syncer.vault)
            }
            _ = try syncer.applyTree(of: target, from: head, resuming: true, state: &state)
            try syncer.repository.setReference(syncer.branch, to: target, message: "quire sync (finished after a crash)")
        }
        try remove(vaultRoot: root)
        return nil
    }
}

/// `.lock` files a dead quire left in `.git/` (the vault lock is ours, so no other quire runs;
/// a lock older than a minute is not a live git command's either).
enum StaleLocks {
    /// Removes git lock files older than `olderThan` seconds (a minute in our own `.git`), and at
    /// once those made since a quire that died holding the vault lock took it
    /// (`deadHolderSince`, a second of slack for the clock's granularity): that quire can no
    /// longer finish them.
    static func clean(gitDirectory: URL, references: [String], deadHolderSince: Date? = nil,
                      olderThan: TimeInterval = 60) {
        let candidates = ["index.lock", "HEAD.lock", "config.lock", "packed-refs.lock"] + references.map { "\($0).lock" }
        for name in candidates {
            let url = gitDirectory.appendingPathComponent(name)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
                  let modified = attributes[.modificationDate] as? Date,
                  Date().timeIntervalSince(modified) > olderThan
                    || deadHolderSince.map({ modified.timeIntervalSince($0) >= -1 }) == true else { continue }
            try? FileManager.default.removeItem(at: url)
        }
    }

    /// The git directory of a remote given as a local path or `file://` URL (a bare repository
    /// or a work tree's `.git`); nil for network remotes.
    static func localGitDirectory(_ remoteURL: String) -> URL? {
        let path: String
        if remoteURL.hasPrefix("file://") {
            path = URL(string: remoteURL)?.path ?? String(remoteURL.dropFirst(7))
        } else if remoteURL.hasPrefix("/") {
            path = remoteURL
        } else {
            return nil
        }
        let nested = URL(fileURLWithPath: path).appendingPathComponent(".git")
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: nested.path, isDirectory: &isDirectory), isDirectory.boolValue { return nested }
        return URL(fileURLWithPath: path)
    }
}

/// Hides credentials in text that may hold URLs (`https://user:secret@host` → `https://user:***@host`).
enum Redaction {
    static func text(_ text: String) -> String {
        guard let pattern = try? NSRegularExpression(pattern: "(://[^/@\\s:]*):[^/@\\s]*@") else { return text }
        let range = NSRange(text.startIndex..., in: text)
        return pattern.stringByReplacingMatches(in: text, range: range, withTemplate: "$1:***@")
    }
}
