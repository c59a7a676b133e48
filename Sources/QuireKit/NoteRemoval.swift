import Foundation
import QuireCore

/// `quire rm`: deletes a note, restorably. A note committed exactly as it is stays in history
/// (`VaultHistory.deletedNotes`, `NoteRestore`); one never committed, or with changes never
/// committed, moves to `.quire/local/trash/<time>/` instead.
public enum NoteRemoval {
    /// What a removal did.
    public enum Report: Equatable, Sendable {
        /// The file was deleted: history keeps every byte of it.
        case removed(path: String)
        /// The file moved to `trashPath` (vault-relative); `committed`: an older version of it
        /// is in the last commit (its latest changes never were).
        case trashed(path: String, trashPath: String, committed: Bool)
    }

    /// Removes the note at the vault-relative `path`; `now` names the trash folder.
    public static func run(path: String, vault: Vault, now: Date) throws -> Report {
        let history = try VaultHistory(vault: vault)
        let data = try vault.readData(path)
        if try history.isCommittedUnchanged(path, data: data) {
            do {
                try FileManager.default.removeItem(at: vault.root.appendingPathComponent(path))
            } catch {
                throw KitError.removeFailed(path: path, reason: error.localizedDescription)
            }
            return .removed(path: path)
        }
        let committed = try history.committedEntry(path) != nil
        let trashPath = TrashStamp.freeTrashPath(for: path, at: now, in: vault)
        try FileMover.move(in: vault, from: path, to: trashPath)
        return .trashed(path: path, trashPath: trashPath, committed: committed)
    }
}
