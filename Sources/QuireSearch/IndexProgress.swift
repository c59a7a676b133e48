import Synchronization

/// How far a catalog refresh has got, for a progress line: the phase and, while notes are
/// read, how many of how many. The indexer writes it from its worker threads through atomic
/// counters (a rebuild adds per 64 notes, never a lock per note); a reader — the CLI's timer —
/// reads it whenever it likes. `onPhase` is called on the indexing thread when a phase begins.
public final class IndexProgress: Sendable {
    /// The steps of a refresh, in the order they happen.
    public enum Phase: Int, Sendable {
        /// Listing the vault's notes and their stamps.
        case scanning
        /// Reading, parsing and indexing notes (`done` of `total`).
        case indexing
        /// Building and writing the catalog snapshot.
        case writing

        /// The phase's name on a progress line.
        public var name: String {
            switch self {
            case .scanning: return "scanning the vault"
            case .indexing: return "indexing"
            case .writing: return "writing the catalog"
            }
        }
    }

    private let phaseValue = Atomic<Int>(Phase.scanning.rawValue)
    private let doneValue = Atomic<Int>(0)
    private let totalValue = Atomic<Int>(0)
    private let onPhase: @Sendable (Phase) -> Void

    /// `onPhase` hears each phase as it begins (on the indexing thread; keep it short).
    public init(onPhase: @escaping @Sendable (Phase) -> Void = { _ in }) {
        self.onPhase = onPhase
    }

    /// The current phase.
    public var phase: Phase { Phase(rawValue: phaseValue.load(ordering: .relaxed)) ?? .scanning }
    /// Notes looked at so far in the indexing phase.
    public var done: Int { doneValue.load(ordering: .relaxed) }
    /// Notes the indexing phase looks at (0 outside it).
    public var total: Int { totalValue.load(ordering: .relaxed) }

    /// Starts `phase`; `total` is how many notes it will count.
    public func begin(_ phase: Phase, total: Int = 0) {
        doneValue.store(0, ordering: .relaxed)
        totalValue.store(total, ordering: .relaxed)
        phaseValue.store(phase.rawValue, ordering: .relaxed)
        onPhase(phase)
    }

    /// Counts `count` more notes done.
    public func advance(by count: Int) {
        doneValue.add(count, ordering: .relaxed)
    }
}
