import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The test hook `QUIRE_FAULT`, read in one place: a comma-separated list of `<point>` (fail
/// there), `<point>:kill` (SIGKILL there: a crash) and `<point>:stop` (SIGSTOP there, going on at
/// SIGCONT: a test plays the user in between). Harmless in production: the variable is unset.
/// The sync, the clone and note edits name their points (Docs/sync.md).
public struct FaultInjection: Sendable, Equatable {
    /// What happens at a point.
    public enum Action: String, Sendable, Equatable {
        /// The caller fails with its own "injected fault" error.
        case fail
        /// The process is killed with SIGKILL.
        case kill
        /// The process stops with SIGSTOP until SIGCONT.
        case stop
    }

    /// The points named, in written order, each with its action (an unknown action fails).
    public let points: [String: Action]

    /// Reads `QUIRE_FAULT` from `environment` (empty when it is unset or empty).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        var points: [String: Action] = [:]
        for item in (environment["QUIRE_FAULT"] ?? "").split(separator: ",") {
            let parts = item.split(separator: ":", maxSplits: 1).map(String.init)
            guard let point = parts.first, points[point] == nil else { continue }
            points[point] = parts.count > 1 ? Action(rawValue: parts[1]) ?? .fail : .fail
        }
        self.points = points
    }

    /// Acts at `point` when it is named: stops (and returns false once continued), kills, or
    /// returns true for the caller to throw its fault. False when `point` is not named.
    public func trigger(_ point: String) -> Bool {
        switch points[point] {
        case nil: return false
        case .stop?:
            kill(getpid(), SIGSTOP)
            return false
        case .kill?:
            kill(getpid(), SIGKILL)
            return true
        case .fail?: return true
        }
    }
}
