import Foundation
import QuireCore
import QuireGit

/// The incoming commit's tree as quire may merge it: every path it adds or changes against the
/// local head is checked by `IncomingPath`; the refused entries are left out (a tree without
/// them is written) and recorded, so the rest of the tree syncs and nothing is ever written
/// into `.git` or past a folder. A name longer than a file system allows (made where names are
/// counted in UTF-16, as on macOS) is merged under a shortened name (`FileNameLimit`).
struct IncomingTree {
    /// The tree to merge in place of the incoming commit's (that very tree when nothing is refused).
    let tree: OID
    /// One decision per refused entry: the local side (without it) wins, the incoming version
    /// stays in history, where `quire conflicts show` finds it.
    let refused: [MergeDecision]
    /// Incoming path → the shortened path it is merged under, for names past the limit.
    let renamed: [String: String]
    /// Whether `tree` differs from the incoming commit's.
    var changesTree: Bool { !refused.isEmpty || !renamed.isEmpty }

    /// Screens the tree of `commit` against the tree of `local` (nil: an unborn branch, every
    /// entry is new).
    init(commit: OID, local: OID?, repository: Repository) throws {
        let incoming = try repository.treeID(ofCommit: commit)
        let localTree = try local.map { try repository.treeID(ofCommit: $0) }
        var refused: [MergeDecision] = []
        var renamed: [String: String] = [:]
        for delta in try repository.diff(from: localTree, to: incoming, detectRenames: false) where delta.kind != .deleted {
            if let reason = IncomingPath.refusal(delta.newPath) {
                refused.append(MergeDecision(path: delta.newPath, winner: .ours,
                                             reason: "refused from the remote: \(reason); never written to this vault"))
            } else if let short = FileNameLimit.shortened(delta.newPath) {
                renamed[delta.newPath] = short
            }
        }
        self.refused = refused.sorted { $0.path < $1.path }
        self.renamed = renamed
        guard !refused.isEmpty || !renamed.isEmpty else {
            tree = incoming
            return
        }
        let paths = Set(refused.map(\.path))
        tree = try repository.writeTree(entries: repository.treeEntries(incoming).compactMap { entry in
            guard !paths.contains(entry.path) else { return nil }
            return renamed[entry.path].map { TreeEntry(path: $0, id: entry.id, kind: entry.kind) } ?? entry
        })
    }

    /// A commit of `tree` on top of `parents` (the incoming commit last), each refusal recorded
    /// like a merge decision (`quire conflicts` lists it; the refused version is the last parent's).
    func commit(on parents: [OID], repository: Repository, environment: SyncEnvironment, vault: Vault) throws -> OID {
        var message = "quire sync on \(environment.device): took the remote's changes but for paths this device cannot write\n\n"
        message += "Quire-Device: \(environment.device)\n"
        for decision in refused { message += ConflictTrailer.line(for: decision) + "\n" }
        let signature = environment.signature(repository: repository, vault: vault)
        return try repository.createCommit(tree: tree, parents: parents, message: message, author: signature, committer: signature)
    }

    /// What `quire sync` and `quire status` show for the entries refused or renamed.
    var skipped: [SkippedPath] {
        refused.map { SkippedPath(path: $0.path, reason: $0.reason) }
            + renamed.sorted { $0.key < $1.key }.map {
                SkippedPath(path: $0.key, reason: "merged as \($0.value): the name passes the \(FileNameLimit.bytes) bytes a file name may have")
            }
    }
}
