import Foundation
import QuireCore
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
    /// For a merge commit: the device whose changes it merged in (its second parent's).
    public var mergedFrom: String? = nil
    /// The commit's author, named beside the device when it is someone else (`edited on laptop
    /// (by Ann)`); empty: the device says who.
    public var author: String = ""
    /// Whether quire made the commit (its message has a `Quire-Device:` trailer); its subject
    /// (`Edit “Plan”`) then adds nothing to `what`.
    public var byQuire = false

    /// What happened, in words: `edited on laptop`, `merged from phone (on laptop)`,
    /// `created on desktop: "Reading list"` (a commit not made by quire adds its message).
    public var what: String {
        var text: String
        if let mergedFrom {
            text = "merged from \(mergedFrom) (on \(device))"
        } else if summary.hasPrefix("quire undo on ") {
            text = "undone on \(device) (back to before a merge)"
        } else {
            switch change {
            case .added: text = "created on \(device)"
            case .modified: text = "edited on \(device)"
            case .deleted: text = "deleted on \(device)"
            case .renamed: text = "renamed on \(device)"
            case .typeChanged: text = "replaced by a link or a file on \(device)"
            case .conflicted: text = "changed on \(device)"
            }
        }
        // Quire's own signature for a device without a git name (`Quire (laptop)`) says nothing more.
        if !author.isEmpty, author != device, author != "Quire (\(device))" { text += " (by \(author))" }
        if !byQuire, !summary.hasPrefix("quire "), !summary.isEmpty, mergedFrom == nil || !summary.hasPrefix("Merge ") {
            text += ": \"\(summary)\""
        }
        return text
    }
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

    /// The commits that touched `path`, newest first, following the note back to its creation
    /// through both parents of every merge: on each line of history its path is followed across
    /// renames (git's rename detection, else the note's `id`; never between two notes whose ids
    /// differ, such as two made from one template), so a rename or an edit made on
    /// another device and merged in is listed as that device's commit. A commit is listed when
    /// the note in it differs from the note in each of its parents — a merge only when it made a
    /// version neither side had, and then as `modified` when it kept a parent's path (the rename,
    /// if any, is that parent's). A path not in HEAD starts at the commit that deleted it.
    public func entries(for path: String, limit: Int? = nil) throws -> [HistoryEntry] {
        guard let head = try repository.headCommitID() else { return [] }
        let log = try repository.log(from: head)
        // Commit → the note's path in it, for the commits on the note's lines of history.
        var places: [OID: String] = [:]
        var noteID: String?
        var entries: [HistoryEntry] = []
        if let entry = try repository.entry(atPath: path, inTree: try repository.treeID(ofCommit: head)) {
            places[head] = path
            noteID = try self.noteID(of: entry.id, path: path)
        }
        for commit in log {
            guard let place = places[commit.id] else {
                // Not in HEAD: the newest commit that deleted it starts the history.
                guard places.isEmpty, noteID == nil, let first = commit.parents.first,
                      try repository.entry(atPath: path, inTree: commit.tree) == nil,
                      let before = try repository.entry(atPath: path, inTree: repository.commit(first).tree) else { continue }
                entries.append(entry(commit, path: path, change: .deleted))
                places[first] = path
                noteID = try self.noteID(of: before.id, path: path)
                if let limit, entries.count >= limit { break }
                continue
            }
            let blob = try repository.entry(atPath: place, inTree: commit.tree)?.id
            var origins: [(path: String, blob: OID)?] = []
            for parent in commit.parents {
                let origin = try self.origin(of: place, in: commit.tree, parentTree: repository.commit(parent).tree, noteID: noteID)
                origins.append(origin)
                if let origin, places[parent] == nil { places[parent] = origin.path }
            }
            // Unchanged from a parent: that parent's commits hold the change, not this one.
            guard !origins.contains(where: { $0?.path == place && $0?.blob == blob }) else { continue }
            let change: ChangeKind
            if origins.allSatisfy({ $0 == nil }) {
                change = .added
            } else if origins.contains(where: { $0?.path == place }) {
                change = .modified
            } else {
                change = .renamed
            }
            entries.append(entry(commit, path: place, change: change))
            if let limit, entries.count >= limit { break }
        }
        return entries
    }

    /// Where the note at `place` in a commit's tree was in a parent's tree, with its blob there:
    /// the same path, else the old path git's rename detection pairs with it, else a note deleted
    /// on the way with the same `id`; nil when the parent does not have it (added).
    /// Two notes whose ids differ are never paired, at one path or across a rename.
    private func origin(of place: String, in tree: OID, parentTree: OID, noteID: String?) throws -> (path: String, blob: OID)? {
        let current = try repository.entry(atPath: place, inTree: tree)
        if let entry = try repository.entry(atPath: place, inTree: parentTree),
           try current.map({ try mayBeOneNote(entry.id, $0.id, path: place, place) }) ?? true {
            return (place, entry.id)
        }
        let deltas = try noteDeltas(from: parentTree, to: tree)
        if let delta = deltas.first(where: { $0.kind == .renamed && $0.newPath == place }),
           let entry = try repository.entry(atPath: delta.oldPath, inTree: parentTree) {
            return (delta.oldPath, entry.id)
        }
        guard let noteID else { return nil }
        for delta in deltas where delta.kind == .deleted && delta.oldPath.hasSuffix(".md") {
            guard let entry = try repository.entry(atPath: delta.oldPath, inTree: parentTree),
                  try self.noteID(of: entry.id, path: delta.oldPath) == noteID else { continue }
            return (delta.oldPath, entry.id)
        }
        return nil
    }

    /// The `id` in the front matter of the note stored as `blob`, lowercased; nil without one.
    func noteID(of blob: OID, path: String) throws -> String? {
        NoteParser.parseFrontMatter(try repository.blobData(blob), path: path).id?.lowercased()
    }

    /// Whether the notes stored as `one` (at `path`) and `other` (at `otherPath`) may be one
    /// note: not when both have an `id` and the ids differ, whatever their likeness.
    func mayBeOneNote(_ one: OID, _ other: OID, path: String, _ otherPath: String) throws -> Bool {
        guard one != other, path.lowercased().hasSuffix(".md"), otherPath.lowercased().hasSuffix(".md"),
              let first = try noteID(of: one, path: path), let second = try noteID(of: other, path: otherPath) else { return true }
        return first == second
    }

    /// The changes between two trees (nil: empty) as notes see them: git's rename detection,
    /// except that a pair of notes whose ids differ is two notes, one deleted and one added (a
    /// note made from the same template as a deleted one looks like its rename to git).
    func noteDeltas(from old: OID?, to new: OID) throws -> [DiffDelta] {
        try repository.diff(from: old, to: new).flatMap { delta -> [DiffDelta] in
            guard delta.kind == .renamed, let before = delta.oldID, let after = delta.newID,
                  try !mayBeOneNote(before, after, path: delta.oldPath, delta.newPath) else { return [delta] }
            return [DiffDelta(kind: .deleted, oldPath: delta.oldPath, newPath: delta.oldPath, oldID: before, newID: nil, similarity: 0),
                    DiffDelta(kind: .added, oldPath: delta.newPath, newPath: delta.newPath, oldID: nil, newID: after, similarity: 0)]
        }
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
            let deltas = try noteDeltas(from: repository.commit(parent).tree, to: commit.tree)
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

    /// The bytes of `path` in `commit`; nil when the note is not there (nothing, or a folder or
    /// a submodule of that name: a file replaced by a folder on one device).
    public func version(of path: String, in commit: OID) throws -> Data? {
        guard let entry = try repository.entry(atPath: path, inTree: repository.treeID(ofCommit: commit)),
              entry.kind != .tree, entry.kind != .submodule else {
            return nil
        }
        return try repository.blobData(entry.id)
    }

    private func entry(_ commit: CommitInfo, path: String, change: ChangeKind) -> HistoryEntry {
        let summary = commit.message.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let device = CommitTrailers.value("Quire-Device", in: commit.message)
        var entry = HistoryEntry(commit: commit.id, path: path, change: change, time: commit.committer.time,
                                 device: device ?? commit.author.name, summary: summary)
        entry.author = commit.author.name
        entry.byQuire = device != nil
        if commit.parents.count > 1, let incoming = try? repository.commit(commit.parents[1]) {
            entry.mergedFrom = CommitTrailers.device(of: incoming)
        }
        return entry
    }
}
