import Foundation
import QuireGit

/// The incoming commit's tree as quire may merge it: every path it adds or changes against the
/// local head is checked by `IncomingPath`; the refused entries are left out (a tree without
/// them is written) and recorded, so the rest of the tree syncs and nothing is ever written
/// into `.git` or past a folder.
struct IncomingTree {
    /// The tree to merge in place of the incoming commit's (that very tree when nothing is refused).
    let tree: OID
    /// One decision per refused entry: the local side (without it) wins, the incoming version
    /// stays in history, where `quire conflicts show` finds it.
    let refused: [MergeDecision]

    /// Screens the tree of `commit` against the tree of `local` (nil: an unborn branch, every
    /// entry is new).
    init(commit: OID, local: OID?, repository: Repository) throws {
        let incoming = try repository.treeID(ofCommit: commit)
        let localTree = try local.map { try repository.treeID(ofCommit: $0) }
        var refused: [MergeDecision] = []
        for delta in try repository.diff(from: localTree, to: incoming, detectRenames: false) where delta.kind != .deleted {
            guard let reason = IncomingPath.refusal(delta.newPath) else { continue }
            refused.append(MergeDecision(path: delta.newPath, winner: .ours,
                                         reason: "refused from the remote: \(reason); never written to this vault"))
        }
        self.refused = refused.sorted { $0.path < $1.path }
        guard !refused.isEmpty else {
            tree = incoming
            return
        }
        let paths = Set(refused.map(\.path))
        tree = try repository.writeTree(entries: repository.treeEntries(incoming).filter { !paths.contains($0.path) })
    }
}
