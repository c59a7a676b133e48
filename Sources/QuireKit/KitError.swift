/// Why a QuireKit workflow refused or failed, with the path or name involved. Front ends turn
/// each case into their own words (the CLI: `ErrorTranslator`); git and sync failures arrive as
/// `GitFailure` and QuireSync's `SyncError`, file and vault failures as QuireCore's `CoreError`.
public enum KitError: Error, Equatable, Sendable {
    /// A revision (`--at REV`) names no commit of the vault's history.
    case unknownRevision(String)
    /// The note `path` is not in the commit `revision` names (nor under an earlier name).
    case notInCommit(path: String, revision: String)
    /// Restoring a deleted note, but `path` exists.
    case nothingToRestore(path: String)
    /// `path` is neither a deleted note in history nor in the trash.
    case notDeleted(path: String)
    /// The version to restore at `path` has the id of the note at `other`: restored, it would be
    /// a second note of one id.
    case idInUse(path: String, other: String)
    /// The note has changes not committed yet that the workflow would overwrite (asked without force).
    case unsyncedChanges(path: String)
    /// The note is write-protected (`chmod 444`): its owner made it read-only on purpose.
    case writeProtected(path: String)
    /// The losing side of conflict `id` deleted the note: there is no version to bring back.
    case noLosingVersion(id: String, path: String, reason: String)
    /// The vault's repository has no work tree.
    case noWorkTree
    /// A move inside the vault would replace the file at `to`.
    case moveTargetExists(from: String, to: String)
    /// A move inside the vault failed.
    case moveFailed(from: String, to: String, reason: String)
    /// A note could not be removed.
    case removeFailed(path: String, reason: String)
    /// The vault has no remote (`origin`) yet.
    case noRemote
    /// `quire init` of a folder that is a vault already.
    case alreadyVault(path: String)
    /// A folder could not be created.
    case cannotCreateFolder(path: String, reason: String)
    /// The front matter of the note at `path` cannot be read (at `line`, when known): it is
    /// left as it is.
    case frontMatterUnreadable(path: String, line: Int?, reason: String)
    /// The note at `path` has front matter of a read-only `format` (TOML).
    case frontMatterReadOnly(path: String, format: String)
    /// The note at `path` changed under every try of an edit.
    case noteKeptChanging(path: String)
    /// The note at `path` is gone after an editor had it.
    case noteGone(path: String)
    /// The test hook `QUIRE_FAULT` named `point`.
    case injectedFault(point: String)
    /// A typed value `text` of `key` is not what the key takes (`expected`; nil: YAML cannot read it).
    case invalidValue(key: String, text: String, expected: String?)
    /// The merge driver cannot read the version git named `file`.
    case mergeInputUnreadable(file: String, reason: String)
    /// The merge driver cannot write the merged note over `file`.
    case mergedNoteUnwritable(file: String, reason: String)
    /// No folder `path` exists in the vault (nor has settings).
    case noSuchFolder(String)
    /// A folder rename's target `path` exists already.
    case folderExists(String)
    /// A folder rename would move the folder `path` into itself.
    case folderIntoItself(String)
    /// A move's destination `path` is no folder and is named as a note file is (`b.md`): a new
    /// file name was meant, which a rename gives.
    case folderNamedAsNote(String)
    /// A clone's target folder exists and holds files (`name` as the user gave it).
    case folderNotEmpty(String)
    /// `quire service install`: a systemd unit cannot run the quire at `executable` (its path
    /// shown with control characters and backslashes as C escapes) for `reason`.
    case serviceUnitUnwritable(executable: String, reason: String)
    /// A signal (SIGINT, SIGTERM) stopped a clone into `folder`, which was left as it was.
    case cloneInterrupted(signal: Int32, folder: String)
}
