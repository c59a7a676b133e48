import Foundation
import QuireCore
import QuireSync

/// `quire undo`: the vault back to how it was before the last merge of a sync, as a new commit
/// (QuireSync `Syncer.undo`): nothing already pushed is rewritten, edits not synced yet are
/// kept, and a file changed again after that sync is reverted only with `force`.
public enum SyncUndo {
    /// Undoes the newest backup's sync in `vault`; returns that backup's name. `environment`
    /// gives the device name and the clock (`QUIRE_DEVICE`, `QUIRE_NOW`).
    public static func run(_ vault: Vault, force: Bool = false, environment: [String: String]) throws -> String {
        let sync = SyncEnvironment(device: vault.deviceName(environment: environment),
                                   now: try QuireClock.now(environment: environment), variables: environment)
        let syncer = try Syncer(vault: vault, environment: sync,
                                transfer: TransferSettings.options(vault: vault, environment: environment))
        return try syncer.undo(force: force)
    }
}
