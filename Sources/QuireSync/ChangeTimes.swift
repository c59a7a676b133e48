import Foundation
import QuireGit

/// When each path last changed on one side of a merge: the committer time of the newest commit
/// that changed it, following first parents from the side's head down to the merge base (a
/// merge commit counts for what it brought in). The resolver's "commit time" rules (a note
/// without a usable `updatedAt`, a tie between day-only `updatedAt`s) then compare the times
/// each side's change of that note was committed, not the times of the sides' last commits.
/// Paths not met within `limit` commits (or without a head) get `fallback`, the head's time.
struct ChangeTimes {
    private var times: [String: Date] = [:]
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
                    times[path] = commit.committer.time
                }
            }
            guard !missing.isEmpty, let parent = commit.parents.first else { return }
            current = parent
        }
    }

    /// When `path` last changed on this side (the head's time when not found).
    func time(of path: String) -> Date { times[path] ?? fallback }
}
