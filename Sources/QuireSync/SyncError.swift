import Foundation

/// Why a sync could not run or finish. Network and authentication failures arrive as
/// `GitError` (see `GitError.category`); these are the conditions the sync itself finds.
public enum SyncError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The vault has no remote named `origin`.
    case noRemote
    /// Another live process holds the vault lock.
    case locked(path: String, holder: String?)
    /// HEAD is detached (not on a branch).
    case detachedHead
    /// A merge, rebase or similar operation was left in progress by the git CLI.
    case operationInProgress(String)
    /// The vault is a shallow clone (`git clone --depth`): no merge base can be found in it.
    case shallowRepository
    /// The push was still rejected after fetching and merging again.
    case pushRejectedAfterRetries(attempts: Int)
    /// A file could not be read or written during the sync.
    case file(path: String, reason: String)
    /// `quire undo` found no merge to undo.
    case nothingToUndo
    /// `quire undo` would also take back changes made after the sync it undoes (`paths`, changed
    /// by that sync and again by `laterCommits` later commits); refused without `--force`.
    case undoWouldRevertLaterWork(backup: String, paths: [String], laterCommits: Int)
    /// `quire undo` cannot take the undone sync's change out of the uncommitted edits of `paths`
    /// without losing a line (both touch the same lines, or one adds or removes the file).
    case undoCollidesWithEdits(paths: [String])
    /// The sync state file cannot be read, or a newer version wrote it: refused rather than read
    /// as empty (it may hold the bases of edits kept during the last sync).
    case unreadableState(path: String, reason: String)
    /// A fault injected by `QUIRE_FAULT` (tests only).
    case injectedFault(String)
    /// The first sync of a branch with no upstream found several branches on the remote and no
    /// default (HEAD) among them, and none named like the local branch.
    case noDefaultRemoteBranch(branches: [String])
    /// A signal (SIGINT, SIGTERM) stopped the sync at the safe point `point` (a `fault` name).
    case interrupted(signal: Int32, point: String)

    /// A readable, lowercase description.
    public var description: String {
        switch self {
        case .noRemote:
            return "this vault has no remote to sync with"
        case let .locked(path, holder):
            return "the vault is locked by another quire (\(holder.map { "process \($0)" } ?? path))"
        case .detachedHead:
            return "HEAD is detached: the vault is not on a branch"
        case let .operationInProgress(kind):
            return "a git \(kind) is in progress in this vault"
        case .shallowRepository:
            return "the vault is a shallow clone (made with git clone --depth): its history is cut, so no sync can merge"
        case let .pushRejectedAfterRetries(attempts):
            return "the remote kept rejecting the push (\(attempts) attempts)"
        case let .file(path, reason):
            return "\(path): \(reason)"
        case .nothingToUndo:
            return "there is no merge to undo"
        case let .undoWouldRevertLaterWork(backup, paths, laterCommits):
            let shown = paths.prefix(5).joined(separator: ", ") + (paths.count > 5 ? ", … (\(paths.count) files)" : "")
            let commits = laterCommits == 1 ? "1 later commit" : "\(laterCommits) later commits"
            return "undoing the sync of \(backup) would also revert \(commits) (already synced or yours) to \(shown)"
        case let .undoCollidesWithEdits(paths):
            let shown = paths.prefix(5).joined(separator: ", ") + (paths.count > 5 ? ", … (\(paths.count) files)" : "")
            return "undo cannot take the merge's change out of your uncommitted edit of \(shown): they touch the same lines"
        case let .unreadableState(path, reason):
            return "cannot read \(path): \(reason)"
        case let .injectedFault(point):
            return "injected fault at \(point)"
        case let .noDefaultRemoteBranch(branches):
            return "the remote has several branches and no default one to follow (\(branches.joined(separator: ", ")))"
        case let .interrupted(signal, point):
            return "interrupted by \(Self.signalName(signal)) \(Self.stage(point))"
        }
    }

    /// `SIGINT`, `SIGTERM`, else `signal N`.
    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case 2: return "SIGINT"
        case 15: return "SIGTERM"
        default: return "signal \(signal)"
        }
    }

    /// Where a sync stopped, in words, from the name of its safe point.
    static func stage(_ point: String) -> String {
        switch point {
        case "after-stamp": return "before committing (notes were stamped, nothing was committed)"
        case "after-commit", "before-fetch": return "after committing, before fetching (nothing was pushed)"
        case "after-fetch", "during-merge": return "after fetching, before merging (nothing was merged or pushed)"
        case "before-push": return "after merging, before pushing (nothing was pushed)"
        case "during-fetch": return "while fetching (nothing was merged or pushed)"
        case "during-push": return "while pushing (your commits are kept; the next sync pushes what the remote lacks)"
        default: return "at \(point)"
        }
    }
}
