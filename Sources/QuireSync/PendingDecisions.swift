import Foundation
import QuireGit

/// Decisions taken outside a sync that the next sync's commit records, as it records those of
/// the pending merges (`SyncState.pendingConflictTrailers`): an editor's unsaved buffer merged
/// with a change of its file on disk, where the buffer's text won a collision. So `quire
/// conflicts` lists them on every device once that commit is pushed.
public enum PendingDecisions {
    /// Adds `decisions` (about the note at `path`, whose losing version is `losing`) to the
    /// trailers of the next sync's commit. The losing version is named by its commit when HEAD
    /// holds it at `path` (a sync brought it), else it is the commit's parent's; the dropped words
    /// are in each decision either way. Takes the vault lock: throws `SyncError.locked` while a
    /// sync runs (its state would be written over), for the caller to try again.
    public static func record(_ decisions: [MergeDecision], path: String, losing: Data, vaultRoot: URL) throws {
        guard !decisions.isEmpty else { return }
        let lock = try VaultLock(vaultRoot: vaultRoot)
        defer { withExtendedLifetime(lock) {} }
        let commit = try committing(losing, at: path, vaultRoot: vaultRoot)
        var state = try SyncState.load(vaultRoot: vaultRoot)
        state.pendingConflictTrailers = (state.pendingConflictTrailers ?? [])
            + decisions.map { ConflictTrailer.line(for: $0, theirs: commit) }
        try state.save(vaultRoot: vaultRoot)
    }

    /// HEAD, when its version of `path` is `data` (as git stores it, through the filters).
    private static func committing(_ data: Data, at path: String, vaultRoot: URL) throws -> OID? {
        let repository = try Repository.open(at: vaultRoot)
        guard let head = try repository.headCommitID(),
              let entry = try repository.entry(atPath: path, inTree: try repository.treeID(ofCommit: head)) else { return nil }
        return entry.id.hex == BlobHash.hex(try repository.cleanData(data, path: path)) ? head : nil
    }
}
