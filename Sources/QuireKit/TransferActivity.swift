import QuireGit

/// How far a fetch or push has got, as a front end draws it (the CLI's `TransferProgressLine`):
/// the phase by name and its counts, and the bytes moved.
public struct TransferActivity: Equatable, Sendable {
    /// What the transfer is doing (libgit2's phases, named once in QuireGit's `TransferProgress`).
    public typealias Phase = TransferProgress.Phase

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
        self.init(phase: progress.phase, total: progress.totalObjects, done: progress.receivedObjects, bytes: progress.bytes)
    }
}
