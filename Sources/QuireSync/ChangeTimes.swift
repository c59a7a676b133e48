import Foundation
import QuireGit

/// When each path last changed on one side of a merge: the author time of the newest commit
/// that changed it (when its author made the change, kept through a rebase), following first parents from the side's head down to the merge base (a
/// merge commit counts for what it brought in). The resolver's "commit time" rules (a note
/// without a usable `updatedAt`, a tie between day-only `updatedAt`s) then compare the times
/// each side's change of that note was committed, not the times of the sides' last commits.
/// Paths not met within `limit` commits (or without a head) get `fallback`, the head's time.
struct ChangeTimes {
    private var times: [String: (time: Date, source: String)] = [:]
    private let fallback: Date

    /// Walks from `head` to `base` until every path of `wanted` is dated (or `limit` commits).
    init(head: OID?, base: OID?, wanted: Set<String>, fallback: Date, repository: Repository, limit: Int = 200) throws {
        self.fallback = fallback
        guard var current = head, !wanted.isEmpty else { return }
        var missing = wanted
        for _ in 0..<limit {
            if let base, try current == base || repository.isAncestor(current, of: base) { return }
            let commit = try repository.commit(current)
            let parentTree = try commit.parents.first.map { try repository.commit($0).tree }
            for delta in try repository.diff(from: parentTree, to: commit.tree, detectRenames: false) {
                for path in [delta.oldPath, delta.newPath] where missing.remove(path) != nil {
                    times[path] = (commit.author.time, Self.source(commit))
                }
            }
            guard !missing.isEmpty, let parent = commit.parents.first else { return }
            current = parent
        }
    }

    /// When `path` last changed on this side (the head's time when not found).
    func time(of path: String) -> Date { times[path]?.time ?? fallback }

    /// The side of `path` for the resolver: its bytes, when it changed and which commit says so.
    func side(_ path: String, data: Data) -> MergeSide {
        MergeSide(data: data, commitTime: time(of: path), timeSource: times[path]?.source)
    }

    /// `'Fix the budget' (Ben)`: the commit's subject (shortened) and author.
    static func source(_ commit: CommitInfo) -> String {
        var subject = String(commit.message.prefix { $0 != "\n" }).trimmingCharacters(in: .whitespaces)
        if subject.count > 60 { subject = String(subject.prefix(59)) + "…" }
        return "'\(subject)' (\(commit.author.name))"
    }
}
