/// The hits of a query in order, read in place: a document and a score each, its record and
/// path read from the catalog's tables only when asked for. Printing the paths of 30,000 hits
/// (`withPath`) decodes no record and makes no `String`; a `SearchHit` is made per hit only
/// when one is asked for.
public struct SearchResults: RandomAccessCollection, Sendable {
    private let base: RecordTable
    private let delta: RecordTable
    private let baseCount: Int
    /// The documents in order.
    private let documents: [Int]
    /// Per document, its score; empty when the query has no text terms (every score 0).
    private let scores: [Double]

    init(base: RecordTable, delta: RecordTable, documents: [Int], scores: [Double]) {
        self.base = base
        self.delta = delta
        baseCount = base.count
        self.documents = documents
        self.scores = scores
    }

    /// The first position (0).
    public var startIndex: Int { 0 }
    /// The position after the last hit.
    public var endIndex: Int { documents.count }

    /// The hit at `position`.
    public subscript(position: Int) -> SearchHit {
        let document = documents[position]
        let score = scores.isEmpty ? 0 : scores[document]
        return document < baseCount ? SearchHit(table: base, index: document, score: score)
            : SearchHit(table: delta, index: document - baseCount, score: score)
    }

    /// Calls `body` with the UTF-8 bytes of the path of the hit at `position`, as the catalog
    /// holds them (nothing decoded or copied; the bytes are valid only during the call).
    public func withPath<T>(_ position: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        let document = documents[position]
        return body(document < baseCount ? base.pathBytes(document) : delta.pathBytes(document - baseCount))
    }
}
