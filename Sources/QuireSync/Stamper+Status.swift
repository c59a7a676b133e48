import Foundation
import QuireGit

/// How the Stamper finds what changed and what a kept edit is merged with.
extension Stamper {
    /// The status (of `paths` only, when given; nil: the full status), writing back stat data the
    /// index had out of date (a vault copied with its `.git`: otherwise every later sync would
    /// compare every file's content again). While a git command holds the index lock, the plain
    /// status: the refresh waits for another sync.
    func refreshingStatus(paths: [String]? = nil) throws -> [StatusEntry] {
        do {
            return try repository.status(refreshingIndex: true, paths: paths)
        } catch let error as GitError where error.code == .locked {
            return try repository.status(paths: paths)
        }
    }

    /// The tree of `state.pendingHead` while edits are kept (nil: none, or that commit is gone).
    func pendingTree(_ state: SyncState) throws -> OID? {
        guard !state.pendingBases.isEmpty, let id = state.pendingHead.flatMap(OID.init(hex:)) else { return nil }
        do {
            return try repository.treeID(ofCommit: id)
        } catch let error as GitError where error.code == .notFound {
            return nil  // history rewritten with the git CLI since: HEAD's version stands in
        }
    }

    /// Kept edits the git CLI committed since the update that kept them (`git commit -a` between
    /// two syncs): the work tree matches HEAD, so status lists nothing, but HEAD's version is not
    /// the one that update brought in. Each is merged like any kept edit, sorted.
    func committedKeptEdits(_ entries: [StatusEntry], state: SyncState, incomingTree: OID?) throws -> [String] {
        guard let incomingTree, let headTree, incomingTree != headTree else { return [] }
        let listed = Set(entries.map(\.path))
        let paths = state.pendingBases.keys.sorted().filter { !listed.contains($0) }
        let now = try repository.entries(atPaths: paths, inTree: headTree)
        let then = try repository.entries(atPaths: paths, inTree: incomingTree)
        return paths.filter { path in
            // A folder there now or then (the file became a folder of its name) holds no version
            // to merge: looked up as a blob, it failed every later sync (soak seed 7017).
            guard let committed = now[path], let brought = then[path], committed.holdsBlob, brought.holdsBlob else { return false }
            return committed.id != brought.id
        }
    }
}

extension Stamper {
    /// Where a file whose name a folder took comes back: `Projects-2`, … free on disk and in HEAD.
    func besideFolder(_ path: String, headTree: OID) -> String {
        BesideName.free(beside: path) { candidate in
            BesideName.exists(candidate, in: vault) || (try? repository.entry(atPath: candidate, inTree: headTree)) != nil
        }
    }
}

extension TreeEntry {
    /// Whether the entry is a file or a link (a blob), not a folder or a submodule.
    var holdsBlob: Bool { kind == .file || kind == .executable || kind == .link }
}
