import Foundation
import QuireSearch
#if canImport(Glibc)
import Glibc
#endif

/// `quire watch stop` as a workflow: asks the vault's watcher to stop (its sync daemon, in the
/// same process, stops with it after the cycle it is in), and returns only once that process is
/// gone — so a script that stops and restarts it never races the old one — or once `timeout`
/// seconds have passed. A sync daemon that holds its lock but whose watcher does not answer
/// (stopped, or its watcher thread gone), or that uses the watcher of another process, gets
/// SIGTERM.
public enum WatcherStop {
    /// What happened.
    public enum Outcome: Equatable, Sendable {
        /// No watcher or sync daemon runs for the vault.
        case notRunning
        /// The processes (their pids) are gone.
        case stopped([Int])
        /// They were asked to stop and still run after the timeout.
        case stillRunning([Int], timeout: Double)
    }

    /// Stops the watcher of the vault at `root` (its real path) and waits up to `timeout`
    /// seconds for its process to end.
    public static func run(root: URL, timeout: Double) -> Outcome {
        let watcher = WatchClient.status(realRoot: root.path)?.processID
        let daemon = SyncDaemonHealth.lockHolder(vaultRoot: root)
        let asked = WatchClient.stop(realRoot: root.path)
        var processes = Set([watcher, daemon].compactMap { $0 })
        if !asked {
            // No answer: only a daemon holding its lock is known to run; a watcher that did not
            // answer may be one being stopped already.
            processes = Set([daemon].compactMap { $0 })
            guard let daemon else { return .notRunning }
            kill(pid_t(daemon), SIGTERM)
        }
        if asked, let daemon, daemon != watcher, daemon > 0 {
            // A daemon using a watcher of another process stops by its signal.
            kill(pid_t(daemon), SIGTERM)
        }
        guard !processes.isEmpty else { return asked ? .stopped([]) : .notRunning }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
        while processes.contains(where: isRunning) {
            guard DispatchTime.now().uptimeNanoseconds < deadline else {
                return .stillRunning(processes.filter(isRunning).sorted(), timeout: timeout)
            }
            usleep(20_000)
        }
        return .stopped(processes.sorted())
    }

    /// Whether process `pid` still runs: it exists and is no zombie waiting for its parent.
    static func isRunning(_ pid: Int) -> Bool {
        guard kill(pid_t(pid), 0) == 0 || errno == EPERM else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces)
        return !state.hasPrefix("Z") && !state.hasPrefix("X")
    }
}
