import Foundation
import QuireCore

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
    /// The commit the work-tree update that kept those edits moved the branch to: the version
    /// each kept edit lacks, merged in at the next sync even if the git CLI committed the kept
    /// file over it meanwhile (nil when no edit is kept, and for states of older versions).
    public var pendingHead: String?
    /// Conflict ids hidden from `quire conflicts` by `quire conflicts dismiss`.
    public var dismissedConflicts: [String] = []
    /// `Quire-Conflict` trailers of pending merges stamped but not committed yet (a crash between
    /// the two keeps them for the next commit).
    public var pendingConflictTrailers: [String]?
    /// The layout of the file: `SyncState.layout` when written by this version (nil: older ones).
    public var layout: Int?

    /// The layout this version reads and writes; a file with a higher one is refused.
    public static let layout = 1
    /// The file, relative to the vault root.
    public static let relativePath = ".quire/local/sync-state.json"
    /// What the last sync left alone and why (nil: nothing).
    public var skipped: [SkippedPath]?

    /// An empty state.
    public init() {}

    static func url(_ root: URL) -> URL { root.appendingPathComponent(relativePath) }

    /// Reads the state; a missing file is an empty state. A file that cannot be read or decoded,
    /// or that a newer version wrote, throws `SyncError.unreadableState`: it may hold the bases of
    /// edits kept during the last sync, and an empty state would commit those edits as reverts.
    public static func load(vaultRoot root: URL) throws -> SyncState {
        let file = url(root)
        guard FileManager.default.fileExists(atPath: file.path) else { return SyncState() }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .quireISO8601
        do {
            let data = try Data(contentsOf: file)
            // The layout first: a newer version may have changed the rest.
            if let layout = try? decoder.decode(Layout.self, from: data).layout, layout > Self.layout {
                throw SyncError.unreadableState(path: relativePath, reason: "it was written by a newer version of quire (layout \(layout))")
            }
            return try decoder.decode(SyncState.self, from: data)
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError.unreadableState(path: relativePath, reason: Self.describe(error))
        }
    }

    private struct Layout: Decodable {
        var layout: Int?
    }

    private static func describe(_ error: Error) -> String {
        if error is DecodingError { return "it is not a sync state this version can read (damaged, truncated or from another version)" }
        return error.localizedDescription
    }

    /// Writes the state atomically.
    public func save(vaultRoot root: URL) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .quireUTC
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        var state = self
        state.layout = Self.layout
        do {
            let data = try encoder.encode(state)
            try FileManager.default.createDirectory(at: root.appendingPathComponent(".quire/local"),
                                                    withIntermediateDirectories: true)
            try data.write(to: SyncState.url(root), options: .atomic)
        } catch {
            throw SyncError.file(path: Self.relativePath, reason: error.localizedDescription)
        }
    }
}
