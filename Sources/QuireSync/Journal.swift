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
    /// When the git CLI committed on top of `previous` meanwhile (often the half-updated work
    /// tree itself), `target` is returned, journal kept, for the cycle to merge once the local
    /// changes are committed: dropped, a merge's second parent and its conflict records would
    /// never reach the branch, and the text its decisions dropped would be lost unrecorded.
    /// What the finished update moved out of a folder's way goes to `report`.
    static func replay(syncer: Syncer, state: inout SyncState, report: inout SyncReport) throws -> OID? {
        let root = syncer.vault.root
        guard let data = try? Data(contentsOf: url(root)) else { return nil }
        guard let entry = try? JSONDecoder().decode(Entry.self, from: data), let target = OID(hex: entry.target) else {
            try remove(vaultRoot: root)
            return nil
        }
        let head = try syncer.repository.headCommitID()
        if let head, head.hex != entry.previous, let previous = entry.previous.flatMap(OID.init(hex:)),
           try syncer.repository.isAncestor(previous, of: head), try !syncer.repository.isAncestor(target, of: head) {
            return target
        }
        if head?.hex == entry.previous {
            // A journal an older quire left may name a commit with paths this device cannot
            // write (a name past 255 bytes made every replay fail): screened like a remote's.
            var target = target
            let screened = try IncomingTree(commit: target, local: head, repository: syncer.repository)
            if screened.changesTree {
                target = try screened.commit(on: [target], repository: syncer.repository, environment: syncer.environment,
                                             vault: syncer.vault)
            }
            let outcome = try syncer.applyTree(of: target, from: head, resuming: true, state: &state)
            report.merged += Syncer.movedAsideLines(outcome)
            try syncer.repository.setReference(syncer.branch, to: target, message: "quire sync (finished after a crash)")
        }
        try remove(vaultRoot: root)
        return nil
    }
}
