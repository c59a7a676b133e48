/// A file the indexer could not read as a note.
public struct IndexFailure: Equatable, Sendable {
    /// Why a file failed.
    public enum Reason: Error, Equatable, Sendable, CustomStringConvertible {
        /// The file could not be read: the system's message.
        case cannotRead(String)
        /// The path is not a regular file (a directory, a link, a device).
        case notAFile
        /// The parser refused the file: its message.
        case unparsable(String)

        /// A readable, lowercase description.
        public var description: String {
            switch self {
            case .cannotRead(let message): return "cannot read: \(message)"
            case .notAFile: return "not a regular file"
            case .unparsable(let message): return "cannot parse: \(message)"
            }
        }
    }

    /// Vault-relative path.
    public var path: String
    /// Why.
    public var reason: Reason

    /// Creates a failure record.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }
}

/// What one indexing pass did.
public struct IndexReport: Equatable, Sendable {
    /// Notes new to the catalog, by path.
    public var added: [String] = []
    /// Notes whose content changed and were parsed again.
    public var changed: [String] = []
    /// Notes gone from the vault.
    public var removed: [String] = []
    /// Files that could not be indexed; readable-but-broken notes are listed with their problems
    /// instead (see `notesWithProblems`).
    public var failed: [IndexFailure] = []
    /// Files whose stamp changed but whose content did not (not parsed again).
    public var touched: Int = 0
    /// Notes in the catalog after the pass.
    public var total: Int = 0
    /// Notes in the catalog with problems (e.g. unreadable front matter).
    public var notesWithProblems: Int = 0
    /// Why the cache was not used, when it was not (nil: it was used).
    public var cacheIssue: CacheError?
    /// Whether the cache file was written.
    public var cacheWritten: Bool = false

    /// Creates an empty report.
    public init() {}

    /// Whether the pass changed the catalog.
    public var hasChanges: Bool { !added.isEmpty || !changed.isEmpty || !removed.isEmpty }
}
