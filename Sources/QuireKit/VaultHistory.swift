import Foundation
import QuireCore
import QuireGit
import QuireSync

/// A vault's history as front ends show it (`quire history`, `quire show --at`, `quire restore`):
/// the commits that touched a note, the deleted notes, and a note as it was in a commit.
public struct VaultHistory {
    /// One commit that touched a note.
    public struct Change: Equatable, Sendable {
        /// The commit.
        public var commit: CommitID
        /// The note's path in that commit (it may have been renamed since).
        public var path: String
        /// What the commit did to the note.
        public var change: ChangeKind
        /// When the commit was made (committer time).
        public var time: Date
        /// The device that made it.
        public var device: String
        /// The first line of the commit message.
        public var summary: String
        /// For a merge commit: the device whose changes it merged in.
        public var mergedFrom: String?
        /// What happened, in words (`edited on laptop`, `merged from phone (on laptop)`).
        public var what: String
    }

    /// A note deleted in history and absent from the current tree.
    public struct Deleted: Equatable, Sendable {
        /// Its path when it was deleted.
        public var path: String
        /// The commit that deleted it.
        public var deletedIn: CommitID
        /// The commit before the deletion (its last version is there).
        public var lastCommit: CommitID
        /// When it was deleted.
        public var time: Date
        /// The device that deleted it.
        public var device: String
    }

    let repository: Repository
    let history: NoteHistory

    /// Opens the history of `vault`'s repository.
    public init(vault: Vault) throws {
        try self.init(repository: Repository.open(at: vault.root))
    }

    init(repository: Repository) {
        self.repository = repository
        history = NoteHistory(repository: repository)
    }

    /// The commits that touched `path` (following renames), newest first; at most `limit`.
    public func changes(of path: String, limit: Int? = nil) throws -> [Change] {
        try history.entries(for: path, limit: limit).map {
            Change(commit: CommitID($0.commit), path: $0.path, change: $0.change, time: $0.time, device: $0.device,
                   summary: $0.summary, mergedFrom: $0.mergedFrom, what: $0.what)
        }
    }

    /// The notes deleted in history, newest first; at most `limit`.
    public func deletedNotes(limit: Int? = nil) throws -> [Deleted] {
        var notes = try history.deletedNotes()
        if let limit { notes = Array(notes.prefix(limit)) }
        return notes.map {
            Deleted(path: $0.path, deletedIn: CommitID($0.deletedIn), lastCommit: CommitID($0.lastCommit), time: $0.time,
                    device: $0.device)
        }
    }

    /// The note at `path` as it was in the commit `revision` names (an id, a prefix, `HEAD~2`),
    /// or under a name it had before a rename; `KitError.unknownRevision` or `.notInCommit`.
    public func version(of path: String, at revision: String) throws -> (data: Data, commit: CommitID) {
        let commit = try commit(named: revision)
        guard let data = try version(of: path, in: commit) else { throw KitError.notInCommit(path: path, revision: revision) }
        return (data, CommitID(commit))
    }

    /// The commit a revision names; an unknown one is `KitError.unknownRevision`.
    func commit(named revision: String) throws -> OID {
        do {
            return try repository.resolveCommit(revision)
        } catch let error as GitError where error.code == .notFound || error.code == .invalidSpec || error.code == .ambiguous {
            throw KitError.unknownRevision(revision)
        }
    }

    /// The note at `path` in `commit`, or at a path it had before a rename.
    func version(of path: String, in commit: OID) throws -> Data? {
        if let data = try history.version(of: path, in: commit) { return data }
        var tried: Set<String> = [path]
        for entry in try history.entries(for: path) where tried.insert(entry.path).inserted {
            if let data = try history.version(of: entry.path, in: commit) { return data }
        }
        return nil
    }

    /// Whether the note at `path` is in the last commit's tree exactly as `data` (so history
    /// keeps every byte of it). A note with uncommitted changes is not: those would be lost.
    func isCommittedUnchanged(_ path: String, data: Data) throws -> Bool {
        guard let entry = try committedEntry(path) else { return false }
        return try repository.blobData(entry.id) == data
    }

    /// The entry of `path` in the last commit's tree; nil when there is none (or no commit).
    func committedEntry(_ path: String) throws -> TreeEntry? {
        guard let head = try repository.headCommitID() else { return nil }
        return try repository.entry(atPath: path, inTree: repository.treeID(ofCommit: head))
    }
}
