import Foundation
import QuireGit

/// The sync journal (`.quire/local/sync-journal.json`): written before the work tree is updated,
/// removed once the branch points at the new commit. Found at the start of a sync, it is
/// finished first, so a crash never makes the next cycle commit a revert.
enum Journal {
    struct Entry: Codable {
        var target: String
        var previous: String?
    }

    static func url(_ root: URL) -> URL { root.appendingPathComponent(".quire/local/sync-journal.json") }

    static func write(target: OID, previous: OID?, vaultRoot: URL) throws {
        do {
            let data = try JSONEncoder().encode(Entry(target: target.hex, previous: previous?.hex))
            try data.write(to: url(vaultRoot), options: .atomic)
        } catch {
            throw SyncError.file(path: ".quire/local/sync-journal.json", reason: error.localizedDescription)
        }
    }

    static func remove(vaultRoot: URL) throws {
        let file = url(vaultRoot)
        guard FileManager.default.fileExists(atPath: file.path) else { return }
        do {
            try FileManager.default.removeItem(at: file)
        } catch {
            throw SyncError.file(path: ".quire/local/sync-journal.json", reason: error.localizedDescription)
        }
    }

    /// Finishes an interrupted update: when HEAD is still at `previous`, the work tree is brought
    /// to `target` (files already there are left, files the user changed are kept) and HEAD moves.
    static func replay(syncer: Syncer, state: inout SyncState) throws {
        let root = syncer.vault.root
        guard let data = try? Data(contentsOf: url(root)) else { return }
        guard let entry = try? JSONDecoder().decode(Entry.self, from: data), let target = OID(hex: entry.target) else {
            try remove(vaultRoot: root)
            return
        }
        let head = try syncer.repository.headCommitID()
        if head?.hex == entry.previous {
            // A journal an older quire left may name a commit with paths this device cannot
            // write (a name past 255 bytes made every replay fail): screened like a remote's.
            var target = target
            let screened = try IncomingTree(commit: target, local: head, repository: syncer.repository)
            if screened.changesTree {
                target = try screened.commit(on: [target], repository: syncer.repository, environment: syncer.environment,
                                             vault: syncer.vault)
            }
            _ = try syncer.applyTree(of: target, from: head, resuming: true, state: &state)
            try syncer.repository.setReference(syncer.branch, to: target, message: "quire sync (finished after a crash)")
        }
        try remove(vaultRoot: root)
    }
}
