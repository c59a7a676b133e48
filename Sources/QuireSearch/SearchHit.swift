/// How results are ordered.
public enum SortKey: String, CaseIterable, Equatable, Sendable {
    /// BM25 score, best first (title matches boosted).
    case relevance
    /// `updatedAt`, newest first.
    case updated
    /// `createdAt`, newest first.
    case created
    /// Title A→Z (case-insensitive).
    case title
    /// Project A→Z (case-insensitive).
    case project
    /// Path A→Z.
    case path
    /// Word count, longest first.
    case words
}

/// How `Catalog.run` orders and cuts its results.
public struct SearchOptions: Equatable, Sendable {
    /// The order; nil: relevance when the query has text terms (and `ranksWords`), else the
    /// list order (pinned first, then `updatedAt` newest first). Notes without the sort value
    /// come last; ties are broken by path A→Z.
    public var sort: SortKey?
    /// Whether a query with text terms and no `sort` is ordered by relevance (`quire search`);
    /// false keeps the list order (`quire list`).
    public var ranksWords: Bool = true
    /// Reverses the order (ties stay by path A→Z; notes without the value stay last).
    public var reverse: Bool
    /// The most hits to return (nil: all).
    public var limit: Int?
    /// The vault's files that are not notes, which links may point at: what the link filters
    /// (`broken-links:`, `orphan:`, `links-to:`) resolve against besides the notes. Fill it
    /// (`Vault.attachmentPaths`) when `NoteQuery.usesLinkFilters`.
    public var attachments: [String] = []
    /// The catalog's resolved links (`CatalogStore.linkTable`), which the link filters read
    /// instead of resolving every link; nil: they resolve at query time.
    public var links: LinkTable?

    /// Creates options.
    public init(sort: SortKey? = nil, reverse: Bool = false, limit: Int? = nil) {
        self.sort = sort
        self.reverse = reverse
        self.limit = limit
    }
}

/// One result of a query.
public struct SearchHit: Equatable, Sendable {
    /// The note's metadata (decoded from the cache when first asked for: printing the paths
    /// of 30,000 hits decodes no record).
    public var record: NoteRecord {
        get {
            switch source {
            case .record(let record): return record
            case .table(let table, let index): return table[index]
            }
        }
        set { source = .record(newValue) }
    }
    /// The first fields of the note's record (`RecordTable.head`: all but its other front-matter
    /// keys, problems and links): what a table of hits shows, without decoding the rest or
    /// keeping it.
    public var recordHead: NoteRecord {
        switch source {
        case .record(let record): return record
        case .table(let table, let index): return table.head(index)
        }
    }
    /// The note's whole record without keeping it in its table (`RecordTable.transientRecord`):
    /// a pass over many hits that needs each once (`--json`) then leaves the table as it was.
    public var transientRecord: NoteRecord {
        switch source {
        case .record(let record): return record
        case .table(let table, let index): return table.transientRecord(index)
        }
    }
    /// The note's path.
    public var path: String {
        switch source {
        case .record(let record): return record.path
        case .table(let table, let index): return table.path(index)
        }
    }
    /// Its BM25 score for the query's text terms (0 when the query has none).
    public var score: Double
    private var source: Source

    /// Where the record is: given (boxed, so that a hit stays a few words), or in a table.
    private enum Source: Sendable {
        indirect case record(NoteRecord)
        case table(RecordTable, Int)
    }

    /// Creates a hit.
    public init(record: NoteRecord, score: Double) {
        self.source = .record(record)
        self.score = score
    }

    /// A hit for record `index` of `table`.
    init(table: RecordTable, index: Int, score: Double) {
        self.source = .table(table, index)
        self.score = score
    }

    public static func == (lhs: SearchHit, rhs: SearchHit) -> Bool {
        lhs.score == rhs.score && lhs.record == rhs.record
    }
}
