import Foundation
import QuireCore
import QuireSync

/// `quire undo`: the vault back to how it was before the last merge of a sync, as a new commit
/// (QuireSync `Syncer.undo`): nothing already pushed is rewritten, edits not synced yet are
/// kept (an uncommitted edit of a file the sync changed loses the sync's change, three ways,
/// or the undo is refused naming it), and a file changed again after that sync is reverted only
/// with `force`.
public enum SyncUndo {
    /// Undoes the newest backup's sync in `vault`; returns what it did. `environment`
    /// gives the device name and the clock (`QUIRE_DEVICE`, `QUIRE_NOW`).
    public static func run(_ vault: Vault, force: Bool = false, environment: [String: String]) throws -> UndoReport {
        let sync = SyncEnvironment(device: vault.deviceName(environment: environment),
                                   now: try QuireClock.now(environment: environment), variables: environment)
        let syncer = try Syncer(vault: vault, environment: sync,
                                transfer: TransferSettings.options(vault: vault, environment: environment))
        return try syncer.undo(force: force)
    }
}
