import Foundation
import QuireGit

/// One commit that touched a note.
public struct HistoryEntry: Equatable, Sendable {
    /// The commit.
    public var commit: OID
    /// The note's path in that commit (it may have been renamed since).
    public var path: String
    /// What the commit did to the note.
    public var change: ChangeKind
    /// When the commit was made (committer time).
    public var time: Date
    /// The device that made it (`Quire-Device:` trailer), else the author's name.
    public var device: String
    /// The first line of the commit message.
    public var summary: String
}

/// A note deleted in history and absent from the current tree.
public struct DeletedNote: Equatable, Sendable {
    /// Its path when it was deleted.
    public var path: String
    /// The commit that deleted it.
    public var deletedIn: OID
    /// The commit before the deletion (its last version is there).
    public var lastCommit: OID
    /// When it was deleted.
    public var time: Date
    /// The device that deleted it.
    public var device: String
}

/// Reads the history of notes from the repository: the commits that touched a note (following
/// renames), deleted notes, and a note's bytes at any revision.
public struct NoteHistory {
    let repository: Repository

    /// Reads history from `repository`.
    public init(repository: Repository) {
        self.repository = repository
    }

    /// The commits that touched `path`, newest first, following renames back to its creation.
    public func entries(for path: String, limit: Int? = nil) throws -> [HistoryEntry] {
        guard let head = try repository.headCommitID() else { return [] }
        var current = path
        var entries: [HistoryEntry] = []
        for commit in try repository.log(from: head) {
            let parentTree = try commit.parents.first.map { try repository.commit($0).tree }
            let deltas = try repository.diff(from: parentTree, to: commit.tree)
            guard let delta = deltas.first(where: { $0.newPath == current && $0.kind != .deleted })
                ?? deltas.first(where: { $0.oldPath == current && $0.kind == .deleted }) else { continue }
            entries.append(entry(commit, path: current, change: delta.kind))
            if let limit, entries.count >= limit { break }
            if delta.kind == .renamed { current = delta.oldPath }
            if delta.kind == .added { break }
        }
        return entries
    }

    /// Notes deleted in history that are not in the current tree, most recently deleted first
    /// (one entry per path).
    public func deletedNotes() throws -> [DeletedNote] {
        guard let head = try repository.headCommitID() else { return [] }
        let headTree = try repository.treeID(ofCommit: head)
        var seen = Set<String>()
        var result: [DeletedNote] = []
        for commit in try repository.log(from: head) {
            guard let parent = commit.parents.first else { continue }
            let deltas = try repository.diff(from: repository.commit(parent).tree, to: commit.tree)
            for delta in deltas where delta.kind == .deleted && delta.oldPath.hasSuffix(".md") {
                guard !seen.contains(delta.oldPath),
                      try repository.entry(atPath: delta.oldPath, inTree: headTree) == nil else { continue }
                seen.insert(delta.oldPath)
                let info = entry(commit, path: delta.oldPath, change: .deleted)
                result.append(DeletedNote(path: delta.oldPath, deletedIn: commit.id, lastCommit: parent,
                                          time: info.time, device: info.device))
            }
        }
        return result
    }

    /// The bytes of `path` in the commit `revision` names; nil when the note is not there.
    public func version(of path: String, at revision: String) throws -> Data? {
        let commit = try repository.resolveCommit(revision)
        return try version(of: path, in: commit)
    }

    /// The bytes of `path` in `commit`; nil when the note is not there.
    public func version(of path: String, in commit: OID) throws -> Data? {
        guard let entry = try repository.entry(atPath: path, inTree: repository.treeID(ofCommit: commit)) else {
            return nil
        }
        return try repository.blobData(entry.id)
    }

    private func entry(_ commit: CommitInfo, path: String, change: ChangeKind) -> HistoryEntry {
        let summary = commit.message.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return HistoryEntry(commit: commit.id, path: path, change: change, time: commit.committer.time,
                            device: CommitTrailers.value("Quire-Device", in: commit.message) ?? commit.author.name,
                            summary: summary)
    }
}

/// Reads `Key: value` trailers from the last paragraph of a commit message.
public enum CommitTrailers {
    /// Every value of trailer `key`, in order.
    public static func values(_ key: String, in message: String) -> [String] {
        let prefix = key.lowercased() + ":"
        return message.split(separator: "\n").compactMap { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.lowercased().hasPrefix(prefix) else { return nil }
            return text.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
        }
    }

    /// The first value of trailer `key`.
    public static func value(_ key: String, in message: String) -> String? {
        values(key, in: message).first
    }
}
