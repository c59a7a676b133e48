import QuireGit

/// How far a fetch or push has got, as a front end draws it (the CLI's `TransferProgressLine`):
/// the phase by name and its counts, and the bytes moved.
public struct TransferActivity: Equatable, Sendable {
    /// What the transfer is doing.
    public enum Phase: String, Equatable, Sendable {
        /// A fetch receiving objects.
        case receiving = "receiving"
        /// A fetch resolving the deltas of the pack it received.
        case resolving = "resolving deltas"
        /// A push counting the objects it will send (no total yet).
        case counting = "counting"
        /// A push building its pack.
        case packing = "packing"
        /// A push sending its pack.
        case sending = "sending"
    }

    /// What the transfer is doing.
    public var phase: Phase
    /// The steps of this phase: objects (deltas while resolving) to receive or send.
    public var total: Int
    /// The steps done so far.
    public var done: Int
    /// Bytes received or sent so far.
    public var bytes: Int

    /// Creates a value.
    public init(phase: Phase, total: Int, done: Int, bytes: Int) {
        self.phase = phase
        self.total = total
        self.done = done
        self.bytes = bytes
    }

    /// The value of one libgit2 progress report.
    public init(_ progress: TransferProgress) {
        let phase: Phase
        switch progress.phase {
        case .receiving: phase = .receiving
        case .resolving: phase = .resolving
        case .counting: phase = .counting
        case .packing: phase = .packing
        case .sending: phase = .sending
        }
        self.init(phase: phase, total: progress.totalObjects, done: progress.receivedObjects, bytes: progress.bytes)
    }
}
