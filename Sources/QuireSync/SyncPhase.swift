/// The step of a sync cycle under way, for a progress display (`SyncOptions.phaseStarted`).
public enum SyncPhase: String, Sendable {
    /// Looking for notes changed since the last commit, stamping `updatedAt`.
    case scanning = "scanning the vault"
    /// Committing this device's changes.
    case committing = "committing"
    /// Fetching the remote's commits.
    case fetching = "fetching"
    /// Merging them and updating the work tree.
    case merging = "merging"
    /// Pushing the result.
    case pushing = "pushing"
}
