import Foundation
import QuireGit

/// The bare repository, inside the vault's `.git/quire/carrier-<remote>/` (never synced), that
/// holds the host's side of an encrypted remote: its branch `main` is a tree of `keyring`,
/// `manifest` and `packs/<hash>`, one commit per manifest. It fetches and pushes through the
/// same QuireGit remote code as a plain remote (every transport, every credential), under the
/// vault remote's URL.
final class Carrier {
    /// The branch the host holds.
    static let branch = "refs/heads/main"
    /// Its remote-tracking branch in the carrier.
    static let tracking = "refs/remotes/origin/main"
    /// Carrier commits tell the host nothing of the user: a fixed identity, date and message.
    static let signature = Signature(name: "quire", email: "quire@quire.invalid", time: Date(timeIntervalSince1970: 946_684_800))
    /// Their message.
    static let message = "quire encrypted vault\n"

    /// The carrier's own repository.
    let repository: Repository
    /// Its directory (also holds `state.json`).
    let directory: URL

    /// The carrier of `remoteName` for `vault` (the vault's repository), made when missing, its
    /// `origin` pointed at `url`.
    init(for vault: Repository, remoteName: String, url: String) throws {
        directory = vault.gitDirectory.appendingPathComponent("quire/carrier-\(remoteName)")
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent("HEAD").path) {
            repository = try Repository.open(at: directory)
        } else {
            repository = try Repository.create(at: directory, initialBranch: "main", bare: true)
        }
        if let remote = try repository.remote(named: "origin") {
            if remote.url != url { try repository.setRemoteURL(named: "origin", url: url) }
        } else {
            try repository.createRemote(named: "origin", url: url)
        }
    }

    /// The remote the carrier fetches from and pushes to.
    func remote() throws -> Remote {
        guard let remote = try repository.remote(named: "origin") else { throw SyncError.noRemote }
        return remote
    }

    /// The host's tip, as the last fetch saw it.
    func fetchedTip() throws -> OID? {
        try repository.referenceTarget(Self.tracking)
    }

    /// The files of carrier commit `commit`: path → blob id (`keyring`, `manifest`, `packs/…`).
    func files(of commit: OID) throws -> [String: OID] {
        var files: [String: OID] = [:]
        for entry in try repository.treeEntries(repository.treeID(ofCommit: commit)) {
            files[entry.path] = entry.id
        }
        return files
    }

    /// Writes a carrier commit of `files` (path → bytes or an existing blob) on top of `parent`
    /// and points the carrier's `main` at it.
    func commit(files: [String: OID], parent: OID?) throws -> OID {
        let tree = try repository.writeTree(entries: files.map { TreeEntry(path: $0.key, id: $0.value) })
        let commit = try repository.createCommit(tree: tree, parents: parent.map { [$0] } ?? [], message: Self.message,
                                                 author: Self.signature, committer: Self.signature)
        try repository.setReference(Self.branch, to: commit, message: "quire: carrier commit")
        return commit
    }
}
