/// Progress of a fetch or push, as reported by libgit2.
public struct TransferProgress: Equatable, Sendable {
    /// What the transfer is doing; `receivedObjects` of `totalObjects` count its steps.
    public enum Phase: String, Equatable, Sendable {
        /// A fetch receiving objects.
        case receiving = "receiving"
        /// A fetch resolving the deltas of the pack it received.
        case resolving = "resolving deltas"
        /// A push counting the objects it will send (`totalObjects` is 0: the count so far is
        /// all there is).
        case counting = "counting"
        /// A push building its pack.
        case packing = "packing"
        /// A push sending its pack.
        case sending = "sending"
    }

    /// What the transfer is doing.
    public var phase: Phase = .receiving
    /// Objects the server will send (fetch) or objects to send (push).
    public var totalObjects: Int
    /// Objects received (fetch) or sent (push) so far.
    public var receivedObjects: Int
    /// Objects indexed so far (fetch).
    public var indexedObjects: Int
    /// Bytes received or sent so far.
    public var bytes: Int
}

/// Options for one fetch or push.
public struct TransferOptions: Sendable {
    /// Where credentials come from.
    public var credentials: Credentials
    /// Seconds after which a stalled transfer is abandoned (`GitError.Code.timedOut`);
    /// nil waits forever (libgit2 1.5.1 itself has no timeout).
    public var timeout: Double?
    /// Called on libgit2's thread as data moves; keep it quick.
    public var progress: (@Sendable (TransferProgress) -> Void)?
    /// The TLS authorities and pinned certificates https transfers trust.
    public var trust: TLSTrust
    /// Asked as data moves: true stops the transfer (`GitError.Code.user`), as when the user
    /// interrupts a clone. nil never stops.
    public var shouldStop: (@Sendable () -> Bool)?

    /// Creates options; the defaults read the environment and wait 60 seconds at most.
    public init(credentials: Credentials = Credentials(), timeout: Double? = 60,
                progress: (@Sendable (TransferProgress) -> Void)? = nil, trust: TLSTrust = TLSTrust()) {
        self.credentials = credentials
        self.timeout = timeout
        self.progress = progress
        self.trust = trust
    }
}
