import Foundation
import QuireCore
import QuireGit

/// The decisions of merge commits made without quire's record — a `git pull` through quire's
/// merge driver on a device that never runs `quire sync`, or git's own merge — recomputed from
/// the merge's two parents with the rules `quire sync` and the driver follow (`TreeMerger`, each
/// side named by its head commit's device and dated by the commits that changed each note, as
/// `DriverSides` does). A decision counts only where the merge commit holds the note exactly as
/// the recomputation merged it: where a person resolved the merge by hand, the person decided.
/// The result of each merge is kept in `.quire/cache/foreign-merges.json` (rebuildable); every
/// device computes the same decisions, so `quire conflicts` lists them alike everywhere, with the
/// id a record of that merge has (`ConflictLog`).
struct ForeignMerges {
    let repository: Repository
    let vaultRoot: URL

    /// The cache file, relative to the vault root.
    static let relativePath = ".quire/cache/foreign-merges.json"

    /// One decision as cached.
    private struct Entry: Codable {
        var path: String
        var winner: String
        var reason: String
        var lost: String?
    }

    /// Whether `commit` is a merge quire did not record: two parents and no `Quire-Device` trailer.
    static func isForeign(_ commit: CommitInfo) -> Bool {
        commit.parents.count == 2 && CommitTrailers.value("Quire-Device", in: commit.message) == nil
    }

    /// The decisions of each foreign merge of `merges` that dropped text, by merge commit (hex).
    func decisions(of merges: [CommitInfo]) throws -> [String: [MergeDecision]] {
        let foreign = merges.filter(Self.isForeign)
        guard !foreign.isEmpty else { return [:] }
        var cache = load()
        var changed = false
        var result: [String: [MergeDecision]] = [:]
        for merge in foreign {
            if cache[merge.id.hex] == nil {
                // A merge that cannot be recomputed (an object missing from a shallow history)
                // lists nothing rather than stop the listing; it is tried again next time.
                guard let decisions = try? recompute(merge) else { continue }
                cache[merge.id.hex] = decisions.map {
                    Entry(path: $0.path, winner: $0.winner.rawValue, reason: $0.reason, lost: $0.lost)
                }
                changed = true
            }
            result[merge.id.hex] = (cache[merge.id.hex] ?? []).compactMap { entry in
                MergeWinner(rawValue: entry.winner).map { MergeDecision(path: entry.path, winner: $0, reason: entry.reason, lost: entry.lost) }
            }
        }
        if changed { save(cache) }
        return result
    }

    /// The merge of `merge`'s parents as quire makes it, and the decisions whose notes the merge
    /// commit holds as merged.
    private func recompute(_ merge: CommitInfo) throws -> [MergeDecision] {
        let (first, second) = (merge.parents[0], merge.parents[1])
        guard let base = try repository.mergeBase(first, second) else { return [] }
        let ours = try repository.commit(first), theirs = try repository.commit(second)
        // Most merges join changes of different files: nothing to decide, and no tree merge.
        let baseTree = try repository.treeID(ofCommit: base)
        let changedOurs = Set(try repository.diff(from: baseTree, to: ours.tree, detectRenames: false).map(\.newPath))
        let changedTheirs = try repository.diff(from: baseTree, to: theirs.tree, detectRenames: false).map(\.newPath)
        guard changedTheirs.contains(where: changedOurs.contains) else { return [] }
        // The vault's rules as they are now; a config that cannot be read leaves the default (newest).
        let rules = (try? Vault(at: vaultRoot).config().mergeRules) ?? []
        let selector = MergeStrategySelector(rules: rules.compactMap { rule in
            MergeStrategy(rawValue: rule.strategy).map { (pattern: rule.pattern, strategy: $0) }
        })
        let merger = TreeMerger(repository: repository, selector: selector, theirsDevice: CommitTrailers.device(of: theirs),
                                oursDevice: CommitTrailers.device(of: ours), now: merge.committer.time)
        let output = try merger.merge(base: baseTree, baseCommit: base,
                                      ours: .init(tree: ours.tree, time: ours.author.time, commit: first),
                                      theirs: .init(tree: theirs.tree, time: theirs.author.time, commit: second))
        let merged = Dictionary(output.entries.map { ($0.path, $0.id) }, uniquingKeysWith: { first, _ in first })
        return try output.decisions.filter { decision in
            // The merge commit holds the note as recomputed: the driver (or git) decided the same.
            guard let recomputed = merged[decision.path] else { return false }
            return try repository.entry(atPath: decision.path, inTree: merge.tree)?.id == recomputed
        }
    }

    private func load() -> [String: [Entry]] {
        let url = vaultRoot.appendingPathComponent(Self.relativePath)
        guard let data = FileManager.default.contents(atPath: url.path) else { return [:] }
        // A cache that cannot be read is computed again.
        return (try? JSONDecoder().decode([String: [Entry]].self, from: data)) ?? [:]
    }

    private func save(_ cache: [String: [Entry]]) {
        let url = vaultRoot.appendingPathComponent(Self.relativePath)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // A cache that cannot be written is computed again next time: nothing is lost.
        guard let data = try? encoder.encode(cache) else { return }
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: url, options: .atomic)
    }
}
