import Foundation
import QuireCore
import QuireGit

/// A note path that once held a note and holds none now, and where that note lives today.
public struct MovedNote: Equatable, Sendable {
    /// The path the note had.
    public var oldPath: String
    /// Its path now.
    public var newPath: String

    /// Creates a move.
    public init(oldPath: String, newPath: String) {
        self.oldPath = oldPath
        self.newPath = newPath
    }
}

extension NoteHistory {
    /// Where the notes that left a path in history are now: each rename git's rename detection
    /// sees in a commit (between notes whose ids do not differ) is followed (through later renames too) to a path that `exists`; a note
    /// deleted from a path (a rename with too large an edit looks like that) is found by its
    /// `id` with `pathOfID`. Old paths that `exists` (a note lives there again) are left out.
    /// With `base`, only commits that `base` does not reach count: what a sync brought in.
    /// Sorted by old path. `exists` and `pathOfID` are asked only when some note was renamed or
    /// deleted (a caller may load the notes they answer from then).
    public func movedNotes(excluding base: OID? = nil, exists: (String) throws -> Bool,
                           pathOfID: (String) throws -> String?) throws -> [MovedNote] {
        guard let head = try repository.headCommitID() else { return [] }
        var successor: [String: String] = [:]
        var deletedBlob: [String: OID] = [:]
        // Only the commits `base` does not reach are walked (not the whole history twice).
        for commit in try repository.log(from: head, excluding: base) {
            // A merge's changes are its parents' own commits (walked too) or the resolver's.
            guard commit.parents.count == 1, let parent = commit.parents.first else { continue }
            for delta in try noteDeltas(from: repository.commit(parent).tree, to: commit.tree)
            where delta.oldPath.lowercased().hasSuffix(".md") {
                switch delta.kind {
                case .renamed where successor[delta.oldPath] == nil:
                    successor[delta.oldPath] = delta.newPath
                case .deleted where deletedBlob[delta.oldPath] == nil:
                    if let blob = delta.oldID { deletedBlob[delta.oldPath] = blob }
                default: break
                }
            }
        }
        var moves: [MovedNote] = []
        for oldPath in Set(successor.keys).union(deletedBlob.keys).sorted() where try !exists(oldPath) {
            if let found = try follow(oldPath, successor: successor, deletedBlob: deletedBlob,
                                      exists: exists, pathOfID: pathOfID), found != oldPath {
                moves.append(MovedNote(oldPath: oldPath, newPath: found))
            }
        }
        return moves
    }

    /// The living path a chain of renames from `path` ends at, else the note found by the id of
    /// the last version deleted on the way.
    private func follow(_ path: String, successor: [String: String], deletedBlob: [String: OID],
                        exists: (String) throws -> Bool, pathOfID: (String) throws -> String?) throws -> String? {
        var current = path
        var seen: Set<String> = [path]
        while true {
            if try exists(current) { return current }
            if let next = successor[current], seen.insert(next).inserted {
                current = next
                continue
            }
            guard let blob = deletedBlob[current] else { return nil }
            let note = NoteParser.parseFrontMatter(try repository.blobData(blob), path: current)
            return try note.id.flatMap { try pathOfID($0.lowercased()) }
        }
    }
}
