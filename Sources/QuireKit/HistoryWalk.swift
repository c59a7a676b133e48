import Foundation
import QuireCore
import QuireGit

/// Walks commits oldest first and keeps, for each note (`.md`) path, when it was added and last
/// changed: an added path starts, a modified one is updated, a renamed one keeps its creation
/// (an exact rename is no change of the note), a deleted one goes. A merge applies only what
/// neither of its other parents already held (their commits were walked). The result is
/// limited to the notes of the last commit, with their blobs there.
struct HistoryWalk {
    let repository: Repository
    /// By path.
    var entries: [String: HistoryDates.Entry] = [:]

    init(repository: Repository) {
        self.repository = repository
    }

    /// Walks the commits reachable from `head` but not from `start` (all of them when nil).
    mutating func walk(to head: OID, from start: OID?) throws {
        let commits = try repository.log(from: head, excluding: start).reversed()
        var trees: [OID: OID] = [:]
        for commit in commits { trees[commit.id] = commit.tree }
        for commit in commits {
            let time = commit.author.time
            var parentTree: OID?
            if let parent = commit.parents.first { parentTree = try trees[parent] ?? repository.commit(parent).tree }
            let others = try commit.parents.dropFirst().map { try trees[$0] ?? repository.commit($0).tree }
            for delta in try repository.diff(from: parentTree, to: commit.tree) where Self.isNote(delta.newPath) || Self.isNote(delta.oldPath) {
                if let blob = delta.newID, !others.isEmpty,
                   try others.contains(where: { try repository.entry(atPath: delta.newPath, inTree: $0)?.id == blob }) {
                    continue
                }
                apply(delta, at: time)
            }
        }
        let notes = try repository.treeEntries(repository.commit(head).tree).filter { Self.isNote($0.path) }
        var kept: [String: HistoryDates.Entry] = [:]
        for entry in notes {
            // A note the walk missed (a history cut short) counts as added by the last commit.
            var dates = entries[entry.path] ?? HistoryDates.Entry(created: Date(timeIntervalSince1970: 0), updated: Date(timeIntervalSince1970: 0), blob: "")
            if dates.blob.isEmpty, let last = commits.last?.author.time { (dates.created, dates.updated) = (last, last) }
            dates.blob = entry.id.hex
            kept[entry.path] = dates
        }
        entries = kept
    }

    private mutating func apply(_ delta: DiffDelta, at time: Date) {
        switch delta.kind {
        case .deleted:
            entries[delta.oldPath] = nil
        case .added:
            guard Self.isNote(delta.newPath) else { return }
            entries[delta.newPath] = HistoryDates.Entry(created: time, updated: time, blob: delta.newID?.hex ?? "")
        case .renamed:
            let before = entries.removeValue(forKey: delta.oldPath)
            guard Self.isNote(delta.newPath) else { return }
            let changed = delta.oldID != delta.newID
            entries[delta.newPath] = HistoryDates.Entry(created: before?.created ?? time,
                                                        updated: changed ? time : before?.updated ?? time, blob: delta.newID?.hex ?? "")
        default:
            guard Self.isNote(delta.newPath) else { return }
            let before = entries[delta.newPath]
            entries[delta.newPath] = HistoryDates.Entry(created: before?.created ?? time, updated: time, blob: delta.newID?.hex ?? "")
        }
    }

    /// Whether a path names a note (`.md`, any case).
    static func isNote(_ path: String) -> Bool {
        path.lowercased().hasSuffix(".md")
    }
}
