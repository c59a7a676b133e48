import Foundation
import QuireCore
import QuireGit

extension Syncer {
    /// An uncommitted edit of a file `quire undo` changes, merged three ways: the undo's change
    /// (HEAD → the undone tree) applied to the user's file.
    struct UndoneEdit {
        /// The file's path.
        let path: String
        /// What the user's file held when it was read (to leave it alone if saved again since).
        let read: Data
        /// The user's file with the undone merge's change taken out, as the work tree holds it.
        let merged: Data
    }

    /// The uncommitted edits of files that going from HEAD's tree to the tree `target` changes, each merged
    /// three ways (base: HEAD's version, ours: the user's file, theirs: the undone version): the
    /// merge's change comes out, the edit stays. Throws `SyncError.undoCollidesWithEdits` naming
    /// every file where that cannot be done without losing a line — the two touch the same lines,
    /// one side adds or removes the file, or the edit still waits for a sync's merge.
    func mergeUncommittedEdits(from head: OID, toTree target: OID, state: SyncState) throws -> [UndoneEdit] {
        let now = try entriesByPath(repository.treeID(ofCommit: head))
        let undone = try entriesByPath(target)
        var merged: [UndoneEdit] = []
        var collided: [String] = []
        var resolver = MergeResolver(strategy: .ours, sides: MergeSideNames(ours: environment.device, theirs: "the undone merge"))
        resolver.oursWinsBecause = "an uncommitted edit"
        for path in Set(now.keys).union(undone.keys).sorted() where !Self.sameEntry(now[path], undone[path]) {
            let file = try? Data(contentsOf: vault.url(for: path))
            let headData = try now[path].map { try repository.blobData($0.id) }
            let fileData = try file.map { try repository.cleanData($0, path: path) }
            guard fileData != headData else { continue }  // not edited: the undo writes it
            guard let file, let fileData, let headData, let undoneEntry = undone[path], state.pendingBases[path] == nil else {
                collided.append(path)
                continue
            }
            let result = try resolver.merge(path: path, base: headData, ours: MergeSide(data: fileData, commitTime: environment.now),
                                            theirs: MergeSide(data: try repository.blobData(undoneEntry.id), commitTime: environment.now))
            guard result.decisions.isEmpty else {
                collided.append(path)
                continue
            }
            merged.append(UndoneEdit(path: path, read: file, merged: try repository.workTreeData(result.merged, path: path)))
        }
        if !collided.isEmpty { throw SyncError.undoCollidesWithEdits(paths: collided) }
        return merged
    }

    /// Writes the merged edits (each only if its file still holds what was read) and drops the
    /// bases the work-tree update kept for them: each is now an edit of the new HEAD like any
    /// other. Returns the paths written.
    func writeUndoneEdits(_ edits: [UndoneEdit], state: inout SyncState) throws -> [String] {
        guard !edits.isEmpty else { return [] }
        let read = Dictionary(edits.map { ($0.path, $0.read) }, uniquingKeysWith: { first, _ in first })
        let savedAgain = Set(try vault.writeAll(edits.map { ($0.path, $0.merged) }, replaceIf: { path in
            (try? Data(contentsOf: self.vault.url(for: path))) == read[path]
        }, retiring: retired))
        let written = edits.map(\.path).filter { !savedAgain.contains($0) }
        for path in written { state.pendingBases[path] = nil }
        state.pendingHead = state.pendingBases.isEmpty ? nil : state.pendingHead
        try state.save(vaultRoot: vault.root)
        return written
    }
}
