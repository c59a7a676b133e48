import QuireSync
import Synchronization

/// The steps one sync cycle started (`SyncOptions.phaseStarted`, heard on the syncing thread),
/// so that a failure can be told as coming before the commit or after it.
final class SyncPhaseRecord: Sendable {
    private let seen = Mutex<Set<SyncPhase>>([])

    /// Notes that `phase` started.
    func record(_ phase: SyncPhase) {
        seen.withLock { _ = $0.insert(phase) }
    }

    /// Whether the cycle went on to the remote (fetching or later): its commit was made.
    var reachedRemote: Bool {
        seen.withLock { !$0.isDisjoint(with: [.fetching, .merging, .pushing]) }
    }
}
