import Foundation
import QuireCore
import QuireGit

extension Syncer {
    /// `quire undo`: a new commit that takes back what the newest backup's sync changed (the
    /// backup is the local head before that sync merged); nothing already pushed is rewritten.
    /// A file changed again after that sync (a later commit, by this device or pushed by another)
    /// and also changed by the sync is not reverted unless `force`: `SyncError.undoWouldRevertLaterWork`
    /// names those files. Files changed later but not by the sync keep their later version.
    /// An uncommitted edit of a file the sync changed is undone three ways: the sync's change
    /// comes out, the edit stays (uncommitted); where that would lose a line, nothing is done and
    /// `SyncError.undoCollidesWithEdits` names the files.
    public func undo(force: Bool = false) throws -> UndoReport {
        let lock = try VaultLock(vaultRoot: vault.root)
        return try withExtendedLifetime(lock) {
            try checkRepositoryState()
            guard let head = try repository.headCommitID(),
                  let backup = try BackupRefs.newest(repository: repository) else {
                throw SyncError.nothingToUndo
            }
            let target = try undoneTree(backup: backup, head: head, force: force)
            guard target != (try repository.treeID(ofCommit: head)) else { throw SyncError.nothingToUndo }
            var state = try SyncState.load(vaultRoot: vault.root)
            let edits = try mergeUncommittedEdits(from: head, toTree: target, state: state)
            let name = String(backup.name.dropFirst(BackupRefs.prefix.count))
            let message = "quire undo on \(environment.device): back to the vault as it was before the merge of \(name)\n\nQuire-Device: \(environment.device)\n"
            let signature = environment.signature(repository: repository, vault: vault)
            let commit = try repository.createCommit(tree: target, parents: [head], message: message,
                                                     author: signature, committer: signature)
            var report = SyncReport()
            try moveTo(commit, from: head, state: &state, report: &report)
            let kept = try writeUndoneEdits(edits, state: &state)
            try BackupRefs.remove(backup.name, repository: repository)
            return UndoReport(backup: name, editsKept: kept)
        }
    }

    /// The tree after undoing `backup`'s sync on top of `head`: per file, three ways between
    /// the sync's result (base), HEAD (ours) and the backup (theirs).
    private func undoneTree(backup: Reference, head: OID, force: Bool) throws -> OID {
        let result = try BackupRefs.result(of: backup.name, repository: repository)
            ?? firstCommitAfter(backup.target, from: head)
        guard let result else { return try repository.treeID(ofCommit: backup.target) }
        let before = try entriesByPath(repository.treeID(ofCommit: backup.target))
        let synced = try entriesByPath(repository.treeID(ofCommit: result))
        let now = try entriesByPath(repository.treeID(ofCommit: head))
        var entries: [TreeEntry] = []
        var later: [String] = []
        for path in Set(before.keys).union(synced.keys).union(now.keys).sorted() {
            let chosen: TreeEntry?
            if Self.sameEntry(now[path], synced[path]) {
                chosen = before[path]  // untouched since the sync: back to before it
            } else if Self.sameEntry(before[path], synced[path]) {
                chosen = now[path]  // changed later, not by the sync: the later version stays
            } else {
                later.append(path)
                chosen = force ? before[path] : now[path]
            }
            if let chosen { entries.append(chosen) }
        }
        if !later.isEmpty && !force {
            let commits = try repository.aheadBehind(local: head, upstream: result).ahead
            throw SyncError.undoWouldRevertLaterWork(backup: String(backup.name.dropFirst(BackupRefs.prefix.count)),
                                                     paths: later, laterCommits: commits)
        }
        return try repository.writeTree(entries: entries)
    }

    /// For a backup an older version wrote (no recorded result): the oldest commit on HEAD's
    /// first-parent line that is not in the backup's history. It is the sync's result or older,
    /// so undo may see more files as changed later (and ask for `force`), never fewer.
    private func firstCommitAfter(_ backup: OID, from head: OID) throws -> OID? {
        var current = head
        var found: OID?
        while current != backup, try !repository.isAncestor(current, of: backup) {
            found = current
            guard let parent = try repository.commit(current).parents.first else { break }
            current = parent
        }
        return found
    }

    /// Whether two tree entries are the same object of the same kind (both nil: the same).
    static func sameEntry(_ one: TreeEntry?, _ other: TreeEntry?) -> Bool {
        one?.id == other?.id && one?.kind == other?.kind
    }

    /// The entries of `tree`, every level, by path.
    func entriesByPath(_ tree: OID) throws -> [String: TreeEntry] {
        var result: [String: TreeEntry] = [:]
        for entry in try repository.treeEntries(tree) { result[entry.path] = entry }
        return result
    }
}
