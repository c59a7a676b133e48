import Foundation
import QuireCore
import QuireSync

/// One automatic merge decision that dropped text and is not dismissed, as a front end shows
/// it (QuireSync's `ConflictRecord` without the commit plumbing).
public struct SyncConflict: Equatable, Sendable {
    /// The conflict's id (`quire conflicts show ID`).
    public var id: String
    /// The note's vault-relative path after the merge.
    public var path: String
    /// When the merge was made.
    public var time: Date
    /// The device that made the merge.
    public var device: String
    /// Which side's text won (`ours` or `theirs`).
    public var winner: String
    /// Why, in words.
    public var reason: String
}

/// The vault's unresolved sync conflicts, read from history (`QuireSync.ConflictLog`), for
/// front ends that may not import QuireSync or QuireGit themselves.
public enum SyncConflicts {
    /// Every conflict not dismissed, newest first; none when the vault has no history yet.
    public static func unresolved(in vault: Vault) throws -> [SyncConflict] {
        let log = try ConflictLog(vaultRoot: vault.root)
        return try log.records().map { record in
            SyncConflict(id: record.id, path: record.path, time: record.time, device: record.device,
                         winner: record.winner.rawValue, reason: record.reason)
        }
    }

    /// The losing version of conflict `id` (a prefix of at least 4 characters), stamped with
    /// `updatedAt` = `now` as `quire restore --conflict ID --whole` writes it; nil when the
    /// losing side deleted the note.
    public static func losingVersion(_ id: String, in vault: Vault, now: Date) throws -> Data? {
        let log = try ConflictLog(vaultRoot: vault.root)
        guard let data = try log.losingVersion(of: try log.record(id)) else { return nil }
        return try NoteStamp.stampingReplacement(data, at: now)
    }
}
