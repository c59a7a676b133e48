import Foundation

extension SyncDaemon {
    /// Whether the daemon is waiting out a backoff at `now`: a cycle failed and the time to try
    /// the remote again has not come. Meanwhile a cycle commits this device's changes only.
    func inBackoff(now: Double) -> Bool {
        failures > 0 && now < nextFetch
    }

    /// The wait after the `failures`-th failure in a row: `syncBackoffStart` doubled for each
    /// failure before it, at most `syncBackoffMax`, of which a random share between half and all
    /// is taken (jitter: devices that failed together do not all come back at the same moment).
    func backoffWait(failures: Int) -> Double {
        let ceiling = min(settings.backoffMax, settings.backoffStart * pow(2, Double(min(max(failures, 1) - 1, 30))))
        let share = min(1, max(0, jitter()))
        return ceiling * (0.5 + 0.5 * share)
    }
}
