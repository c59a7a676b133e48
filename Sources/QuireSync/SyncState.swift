import Foundation

/// What this device remembers between syncs, in `.quire/local/sync-state.json` (never tracked):
/// the outcome of the last sync for `quire status`, and notes the user edited while a sync
/// was updating them (merged three ways against `pendingBases` at the next sync).
public struct SyncState: Codable, Equatable, Sendable {
    /// When the last sync ended.
    public var lastSync: Date?
    /// `ok`, `offline`, `failed`, … of the last sync.
    public var lastOutcome: String?
    /// The error of the last sync, if it failed (secrets never appear in it).
    public var lastError: String?
    /// When a sync last completed a push (or found nothing to push).
    public var lastSuccess: Date?
    /// Path → blob id (hex) the user's unsynced edit of that note was based on.
    public var pendingBases: [String: String] = [:]
    /// Conflict ids hidden from `quire conflicts` by `quire conflicts dismiss`.
    public var dismissedConflicts: [String] = []
    /// `Quire-Conflict` trailers of pending merges stamped but not committed yet (a crash between
    /// the two keeps them for the next commit).
    public var pendingConflictTrailers: [String]?
    /// What the last sync left alone and why (nil: nothing).
    public var skipped: [SkippedPath]?

    /// An empty state.
    public init() {}

    static func url(_ root: URL) -> URL { root.appendingPathComponent(".quire/local/sync-state.json") }

    /// Reads the state; a missing or damaged file is an empty state.
    public static func load(vaultRoot root: URL) -> SyncState {
        guard let data = try? Data(contentsOf: url(root)) else { return SyncState() }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return (try? decoder.decode(SyncState.self, from: data)) ?? SyncState()
    }

    /// Writes the state atomically.
    public func save(vaultRoot root: URL) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            let data = try encoder.encode(self)
            try FileManager.default.createDirectory(at: root.appendingPathComponent(".quire/local"),
                                                    withIntermediateDirectories: true)
            try data.write(to: SyncState.url(root), options: .atomic)
        } catch {
            throw SyncError.file(path: ".quire/local/sync-state.json", reason: error.localizedDescription)
        }
    }
}
