import Foundation
import QuireCore
import QuireSync

/// An editor's unsaved buffer meeting a change of its file on disk (a sync brought another
/// device's edit, another program wrote the file): the change merged into the buffer three
/// ways, by the rules sync merges by (`MergeResolver`), from the text the buffer was opened from
/// or last took in. The buffer is this device's unsaved edit: it wins where both changed the
/// same words, as an edit saved while a sync ran does (`Stamper`), and the words of the file it
/// drops are recorded for the next sync's commit, so `quire conflicts` lists them on every device.
public struct BufferMerge: Sendable {
    /// The buffer's text with the file's change merged in.
    public var merged: Data
    /// The note's vault-relative path.
    public var path: String
    let decisions: [MergeDecision]
    let onDisk: Data
    let device: String

    /// Merges the change of the file at `path` from `base` (the disk text the buffer was opened
    /// from or last took in; nil: there was no file) to `onDisk` into `buffer`. `now` dates the
    /// two sides (the buffer wins every collision whatever the times say).
    public static func merge(vault: Vault, path: String, base: Data?, buffer: Data, onDisk: Data, now: Date,
                             environment: [String: String]) throws -> BufferMerge {
        let device = vault.deviceName(environment: environment)
        var resolver = MergeResolver(strategy: .ours, sides: MergeSideNames(ours: device, theirs: "the file on disk"))
        resolver.oursWinsBecause = "an edit not yet saved in the editor on \(device) wins: it exists nowhere else"
        let result = try resolver.merge(path: path, base: base, ours: MergeSide(data: buffer, commitTime: now),
                                        theirs: MergeSide(data: onDisk, commitTime: now))
        return BufferMerge(merged: result.merged, path: path, decisions: result.decisions, onDisk: onDisk, device: device)
    }

    /// What the merge dropped of the file's text, one readable line per decision (empty when
    /// nothing collided).
    public var collisions: [String] {
        decisions.map { $0.readable(localDevice: device).reason }
    }

    /// Records the collisions for the next sync's commit (`PendingDecisions`). False when a sync
    /// holds the vault lock: call again once it is over.
    public func record(in vault: Vault) throws -> Bool {
        do {
            try PendingDecisions.record(decisions, path: path, losing: onDisk, vaultRoot: vault.root)
            return true
        } catch SyncError.locked {
            return false
        }
    }
}
