import Foundation
import QuireCore
import QuireSync

/// What one sync did, in the terms an editor shows (counts and one summary line).
public struct SyncOutcome: Sendable, Equatable {
    /// Notes and files this device committed.
    public var committed: Int
    /// Files the remote's changes updated here.
    public var updatedFromRemote: Int
    /// Notes changed on both sides and merged.
    public var merged: Int
    /// Automatic decisions that dropped text (`quire conflicts`).
    public var conflicts: Int
    /// Whether the push happened (never claimed when it did not).
    public var pushed: Bool
    /// Whether the vault has no remote yet (the commit stays local).
    public var noRemote: Bool

    /// One line for a status message.
    public var summary: String {
        var parts = ["committed \(committed)", "updated \(updatedFromRemote) from the remote", "merged \(merged)"]
        if conflicts > 0 { parts.append("\(conflicts) conflict\(conflicts == 1 ? "" : "s") resolved automatically — 'quire conflicts'") }
        parts.append(noRemote ? "no remote yet ('quire remote URL')" : pushed ? "pushed" : "nothing to push")
        return "sync: " + parts.joined(separator: ", ")
    }
}

/// Where a vault stands with its remote, as `quire status` reads it (no network).
public struct SyncOverview: Sendable, Equatable {
    /// The remote URL with credentials hidden, if one is set.
    public var remote: String?
    /// Uncommitted changes.
    public var uncommitted: Int
    /// Local commits not on the remote yet; remote commits not merged yet (as of the last fetch).
    public var ahead: Int, behind: Int
    /// Unresolved sync conflicts.
    public var conflicts: Int
    /// The last sync: when, its outcome and its error.
    public var lastSync: Date?, lastOutcome: String?, lastError: String?
}

/// Sync for an editor (the language server): `VaultSync`'s cycle with the steps reported as
/// words and a percentage, and the status without QuireSync's types.
public enum EditorSync {
    /// Runs one sync cycle of `vault`; `step` hears each step as it starts (its name and how far
    /// the cycle is, 0–100), on the syncing thread.
    public static func run(_ vault: Vault, environment: [String: String],
                           step: @escaping @Sendable (String, Int) -> Void) throws -> SyncOutcome {
        var options = VaultSyncOptions(environment: environment)
        let phases: [SyncPhase] = [.scanning, .committing, .fetching, .merging, .pushing]
        options.phaseStarted = { phase in step(phase.rawValue, (phases.firstIndex(of: phase) ?? 0) * 100 / phases.count) }
        let report = try VaultSync.run(vault, options: options)
        return SyncOutcome(committed: report.committed.count, updatedFromRemote: report.updatedFromRemote.count,
                           merged: report.merged.count, conflicts: report.conflicts.count, pushed: report.pushed,
                           noRemote: report.noRemote)
    }

    /// The vault's sync status (`quire status` without the network).
    public static func overview(_ vault: Vault) throws -> SyncOverview {
        let status = try SyncStatus.read(vaultRoot: vault.root)
        return SyncOverview(remote: status.remote, uncommitted: status.uncommitted.count, ahead: status.ahead,
                            behind: status.behind, conflicts: status.conflicts, lastSync: status.state.lastSync,
                            lastOutcome: status.state.lastOutcome, lastError: status.state.lastError)
    }
}
