import QuireCore

/// A position in one watcher's stream of changes: which watcher (a random id per process) and
/// how far. A catalog snapshot that stores a token reflects every change up to it.
public struct WatchToken: Equatable, Sendable {
    /// The watcher process's random id.
    public var instance: UInt64
    /// The last change counted.
    public var sequence: UInt64

    /// Creates a token.
    public init(instance: UInt64, sequence: UInt64) {
        self.instance = instance
        self.sequence = sequence
    }
}

/// What a catalog snapshot is up to date with when a watcher kept it fresh: the watcher's
/// token and a fingerprint of the ignore rules outside the vault's folders (the watcher cannot
/// see those change; a different fingerprint means the vault must be walked).
public struct WatchMark: Equatable, Sendable {
    /// The watcher position.
    public var token: WatchToken
    /// The fingerprint of the ignore-rule files (0: none).
    public var rules: UInt64

    /// Creates a mark.
    public init(token: WatchToken, rules: UInt64) {
        self.token = token
        self.rules = rules
    }
}

/// A watcher's answer to "what changed since this token?".
public enum WatchAnswer: Equatable, Sendable {
    /// Only these notes (vault-relative, sorted) can have changed since the token asked about;
    /// the token given covers them.
    case notes([String], WatchToken)
    /// Anything may have changed (the reason says why): walk the whole vault. The token was
    /// taken before the walk, so it covers what the walk sees.
    case full(reason: String, WatchToken)

    /// The token that goes with the answer.
    public var token: WatchToken {
        switch self {
        case .notes(_, let token), .full(_, let token): return token
        }
    }
}

/// What a watcher has seen since it started: the last change of each note, and the last change
/// only a walk can settle. Pure bookkeeping, kept by the watcher process.
struct WatchJournal {
    let instance: UInt64
    private(set) var sequence: UInt64 = 1
    /// Each changed note's last step, by path (by its bytes: `ExactPath`).
    private var notes: [ExactPath: UInt64] = [:]
    private var structureAt: UInt64 = 1
    private var structureReason = "the watcher has just started"
    /// When set, every answer is `full` (the watch cannot vouch for the vault).
    var blocker: String?
    /// Past this many remembered notes the journal forgets them and counts a structure change:
    /// it stays small whatever a long session does.
    static let noteLimit = 200_000

    init(instance: UInt64) {
        self.instance = instance
    }

    /// The number of notes remembered as changed.
    var noteCount: Int { notes.count }

    /// Counts one batch of changes (one step of the sequence).
    mutating func record(_ changes: [FolderChange]) {
        guard !changes.isEmpty else { return }
        sequence += 1
        for change in changes {
            switch change {
            case .note(let path):
                notes[ExactPath(path)] = sequence
            case .structure(let reason):
                structure(reason)
            case .overflow:
                structure("the kernel dropped events (inotify queue overflow)")
            }
        }
        if notes.count > Self.noteLimit {
            notes = [:]
            structure("more than \(Self.noteLimit) notes changed")
        }
    }

    private mutating func structure(_ reason: String) {
        structureAt = sequence
        structureReason = reason
    }

    /// What changed since `token` (nil: a caller with no token, or one for another vault state).
    func answer(since token: WatchToken?) -> WatchAnswer {
        let now = WatchToken(instance: instance, sequence: sequence)
        if let blocker { return .full(reason: blocker, now) }
        guard let token, token.instance == instance, token.sequence <= sequence else {
            return .full(reason: "the catalog was not brought up to date by this watcher", now)
        }
        if token.sequence < structureAt { return .full(reason: structureReason, now) }
        let changed = notes.compactMap { $0.value > token.sequence ? $0.key.string : nil }
        return .notes(changed.sorted { PathOrder.precedes($0, $1) }, now)
    }
}
