/// Why the sync daemon cannot run (its cycles' failures are not thrown: they are recorded).
public enum SyncDaemonError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another daemon holds the vault's daemon lock; its pid when known.
    case alreadyRunning(pid: Int?)
    /// A system call failed: the function, the path and the reason.
    case system(function: String, path: String, message: String)
    /// The vault folder was deleted, moved or unmounted.
    case rootGone(String)

    /// A readable, lowercase description.
    public var description: String {
        switch self {
        case .alreadyRunning(let pid):
            return "a sync daemon already runs for this vault" + (pid.map { " (pid \($0))" } ?? "")
        case let .system(function, path, message): return "\(function) failed for \(path): \(message)"
        case .rootGone(let root): return "the vault folder \(root) was deleted, moved or unmounted"
        }
    }
}
