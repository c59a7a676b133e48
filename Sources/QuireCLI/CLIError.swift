/// Exit codes of the `quire` command (DESIGN.md §5).
public enum ExitCode: Int32, Sendable {
    case ok = 0
    case failure = 1
    case usage = 2
    case offline = 3
    case authentication = 4
    case remoteNotFound = 5
    case pushRejected = 6
    case locked = 7
    /// An encrypted remote failed verification (tampered, swapped, missing or rolled back):
    /// refused, nothing local changed.
    case verificationFailed = 8
    /// A sync stopped at a safe point by SIGINT (128 + 2, as shells report it).
    case interrupted = 130
    /// A sync stopped at a safe point by SIGTERM (128 + 15).
    case terminated = 143
}

/// An error a command reports to the user: a message, an optional hint and an exit code.
public struct CLIError: Error, CustomStringConvertible {
    /// What went wrong, lowercase, with the path or detail in parentheses.
    public var message: String
    /// What the user can do about it.
    public var hint: String?
    /// The process exit code.
    public var code: ExitCode
    /// Whether to show the command's usage line (usage errors).
    public var showUsage: Bool

    /// Creates an error.
    public init(_ message: String, hint: String? = nil, code: ExitCode = .failure, showUsage: Bool = false) {
        self.message = message
        self.hint = hint
        self.code = code
        self.showUsage = showUsage
    }

    /// A usage error (exit 2) that shows the usage line and points at `--help`.
    static func usage(_ message: String, hint: String? = nil) -> CLIError {
        CLIError(message, hint: hint, code: .usage, showUsage: true)
    }

    public var description: String { message }
}
