import Foundation
import QuireCore
import QuireGit
#if canImport(Glibc)
import Glibc
#endif

extension Syncer {
    /// Whether a sync would ever stage this change: never a new temporary file or editor scratch
    /// file (`EditorScratch`: swap, backup, lock files), never a nested repository (reported as
    /// skipped instead). What `quire status` lists as uncommitted.
    static func wouldStage(_ entry: StatusEntry) -> Bool {
        !NestedRepository.isNested(entry) && !(entry.kind == .added && EditorScratch.isScratch(entry.path))
            && !(entry.kind == .added && TemporaryFiles.isTemporary(entry.path))
    }

    /// The changes a sync commit may stage: every one but new temporary files (`TemporaryFiles`),
    /// whatever `.gitignore` says. A new temporary file whose writer is gone (a killed quire, an
    /// older version that wrote them beside the notes) is removed from the work tree here; the
    /// deletion of one an older version committed is staged like any deletion. `removing: false`
    /// (a dry run) leaves the files alone.
    func stageable(_ changes: [StatusEntry], removing: Bool = true) -> [StatusEntry] {
        changes.filter { entry in
            // An editor's scratch file is the editor's: left where it is, never committed.
            if entry.kind == .added, EditorScratch.isScratch(entry.path) { return false }
            guard entry.kind == .added, TemporaryFiles.isTemporary(entry.path) else { return true }
            let name = entry.path.split(separator: "/").last.map(String.init) ?? entry.path
            if removing, TemporaryFiles.writerIsGone(name) { unlink(vault.url(for: entry.path).path) }
            return false
        }
    }

    /// Deletes from the work tree the temporary files an older quire committed (it wrote them
    /// beside the notes, and a sync after an interrupt committed them): the commit that follows
    /// records their deletion, which clears them from every device.
    func removeCommittedTemporaries() throws {
        for path in try repository.trackedPaths(withNamePrefix: TemporaryFiles.prefix) {
            unlink(vault.url(for: path).path)
        }
    }
}
