import Foundation
import QuireCore
import QuireGit

/// Walks commits oldest first and keeps, for each note (`.md`) path, when it was added and last
/// changed: an added path starts (the earlier creation kept when another branch added it
/// too), a modified one is updated (to the latest of its commits' times), a renamed one keeps
/// its creation (an exact rename is no change of the note), a deleted one goes. A merge applies
/// only what neither of its other parents already held (their commits were walked). The result
/// is limited to the notes of the last commit, with their blobs there.
struct HistoryWalk {
    let repository: Repository
    /// By path.
    var entries: [String: HistoryDates.Entry] = [:]

    init(repository: Repository) {
        self.repository = repository
    }

    /// Walks every commit reachable from `head`.
    mutating func walk(to head: OID) throws {
        let last = try forEachNoteChange(to: head, from: nil) { delta, time in apply(delta, at: time) }.last
        var kept: [String: HistoryDates.Entry] = [:]
        for entry in try repository.treeEntries(repository.commit(head).tree) where Self.isNote(entry.path) {
            kept[entry.path] = Self.finished(entries[entry.path], blob: entry.id, last: last)
        }
        entries = kept
    }

    /// The dates that changed from `old` to `head` (`old` one of its ancestors), for the notes
    /// the commits between them touched, by path (nil: the note is gone): their dates before are
    /// asked of `kept` (by the set of paths), no other note's are read. Returns the entries
    /// that differ from those before. One tree diff per commit: the diff of `old` and `head`
    /// is read too only when a merge lies between them (its other parents' changes, not
    /// walked, may differ from `old`); a line of commits touches every path that differs.
    mutating func update(to head: OID, from old: OID,
                         kept: (Set<String>) -> [String: HistoryDates.Entry]?) throws -> [String: HistoryDates.Entry?]? {
        var changes: [(DiffDelta, Date)] = []
        var touched = Set<String>()
        let (last, merged) = try forEachNoteChange(to: head, from: old) { delta, time in
            changes.append((delta, time))
            touched.formUnion([delta.oldPath, delta.newPath].filter(Self.isNote))
        }
        let headTree = try repository.commit(head).tree
        if merged {
            for delta in try repository.diff(from: repository.commit(old).tree, to: headTree, detectRenames: false) {
                touched.formUnion([delta.oldPath, delta.newPath].filter(Self.isNote))
            }
        }
        guard let before = kept(touched) else { return nil }
        entries = before
        for (delta, time) in changes { apply(delta, at: time) }
        let inHead = try repository.entries(atPaths: touched.sorted(), inTree: headTree)
        var result: [String: HistoryDates.Entry?] = [:]
        for path in touched {
            var value: HistoryDates.Entry?
            if let entry = inHead[path], entry.kind != .tree { value = Self.finished(entries[path], blob: entry.id, last: last) }
            if value != before[path] { result[path] = .some(value) }
        }
        return result
    }

    /// Calls `body` with each change of a note in the commits reachable from `head` but not
    /// from `start` (all of them when nil), oldest first; returns the time of the last one and
    /// whether one of them is a merge.
    private func forEachNoteChange(to head: OID, from start: OID?,
                                   _ body: (DiffDelta, Date) throws -> Void) throws -> (last: Date?, merged: Bool) {
        let commits = try repository.log(from: head, excluding: start).reversed()
        var trees: [OID: OID] = [:]
        for commit in commits { trees[commit.id] = commit.tree }
        for commit in commits {
            var parentTree: OID?
            if let parent = commit.parents.first { parentTree = try trees[parent] ?? repository.commit(parent).tree }
            let others = try commit.parents.dropFirst().map { try trees[$0] ?? repository.commit($0).tree }
            for delta in try repository.diff(from: parentTree, to: commit.tree) where Self.isNote(delta.newPath) || Self.isNote(delta.oldPath) {
                if let blob = delta.newID, !others.isEmpty,
                   try others.contains(where: { try repository.entry(atPath: delta.newPath, inTree: $0)?.id == blob }) {
                    continue
                }
                try body(delta, commit.author.time)
            }
        }
        return (commits.last?.author.time, commits.contains { $0.parents.count > 1 })
    }

    /// A note's dates in the last commit: those walked with its blob there; a note the walk
    /// missed (a history cut short) counts as added by the last commit.
    private static func finished(_ walked: HistoryDates.Entry?, blob: OID, last: Date?) -> HistoryDates.Entry {
        var dates = walked ?? HistoryDates.Entry(created: Date(timeIntervalSince1970: 0), updated: Date(timeIntervalSince1970: 0), blob: "")
        if dates.blob.isEmpty, let last { (dates.created, dates.updated) = (last, last) }
        dates.blob = blob.hex
        return dates
    }

    private mutating func apply(_ delta: DiffDelta, at time: Date) {
        switch delta.kind {
        case .deleted:
            entries[delta.oldPath] = nil
        case .renamed:
            let before = entries.removeValue(forKey: delta.oldPath)
            guard Self.isNote(delta.newPath) else { return }
            let changed = delta.oldID != delta.newID
            entries[delta.newPath] = HistoryDates.Entry(created: before?.created ?? time,
                                                        updated: changed ? time : before?.updated ?? time, blob: delta.newID?.hex ?? "")
        default:
            guard Self.isNote(delta.newPath) else { return }
            let before = entries[delta.newPath]
            // Added on two branches: the earlier creation. Changed on two: the later change.
            let created = before.map { delta.kind == .added ? min($0.created, time) : $0.created } ?? time
            entries[delta.newPath] = HistoryDates.Entry(created: created, updated: max(before?.updated ?? time, time),
                                                        blob: delta.newID?.hex ?? "")
        }
    }

    /// Whether a path names a note (`.md`, any case).
    static func isNote(_ path: String) -> Bool {
        path.lowercased().hasSuffix(".md")
    }
}
