import QuireCore

/// One part of a segment being built: consecutive documents folded into a forward index of
/// slice-local term ids (first appearance order) as their tokens arrive, with what the
/// `SegmentBuilder` needs to place them in the segment — each local term's documents and
/// occurrences. No token list outlives its note, and slices fill on several cores at once.
struct SegmentSlice: TokenSink {
    private(set) var table = TermTable()
    /// Local term ids, fields separated by a separator (see `LocalTokens`).
    private(set) var forward = LocalTokens()
    /// `count + 1` offsets into `forward`.
    private(set) var forwardStarts: [UInt32] = [0]
    private(set) var titleLengths: [UInt32] = []
    private(set) var lengths: [UInt32] = []
    /// The documents' records, encoded as in a cache file (`BinaryWriter.record`), with each
    /// one's offset, flag byte (`RecordTable`) and sort keys (`IndexSegment.sortKeys`).
    private(set) var records = BinaryWriter()
    private(set) var recordOffsets: [UInt64] = []
    private(set) var flags: [UInt8] = []
    private(set) var sortKeys: [Double] = []
    /// Per local term: the documents holding it and its occurrences, once the slice is
    /// complete (`sealTerms`).
    private(set) var termCounts: [TermCount] = []
    private var termsSealed = false
    /// Whether the table and the forward index are this value's own, between `beginDocument`
    /// and `finishDocument` (no copy of a slice can be made while it adds a document).
    private var exclusive = false
    private var folded: [UInt8] = []
    /// Terms waiting for their ids: looked up together (`TermTable.exclusiveIDs`) when
    /// `batchSize` are there and at each field's end. An ASCII word is copied in lowercased on
    /// the way, eight bytes at a time; no second copy through `folded`.
    private var pending = PendingTerms(batchSize: SegmentSlice.batchSize)
    private var needsSeparator = false
    private var fieldsClosed = 0
    private var titleLength = 0
    private var documentTokens = 0
    private var textLength = 0

    /// Number of documents.
    var count: Int { forwardStarts.count - 1 }

    /// Makes room for the notes of about `bytes` bytes of Markdown: about a token per six bytes
    /// and a third of the bytes for the encoded records (generous: the pages that stay unused
    /// are never touched), so that the forward index and the records grow without copies — a
    /// copy holds both the old and the new array for a while. At most 1 GiB each is reserved
    /// (an enormous file must not ask for more address space than the machine will give).
    mutating func reserve(markdownBytes bytes: Int) {
        forward.reserveCapacity(min(bytes / 6 + 1024, 1 << 29))
        records.bytes.reserveCapacity(min(bytes / 3 + 4096, 1 << 30))
    }

    /// Adds a parsed note.
    mutating func add(_ note: Note) {
        let record = NoteRecord(note: note)
        beginDocument()
        appendFields(of: record, body: note.body, headingTitle: note.headingTitle)
        finishDocument(record)
    }

    /// Adds an analyzed note (its tokens replayed).
    mutating func add(_ note: AnalyzedNote) {
        beginDocument()
        note.stream.replay(into: &self)
        finishDocument(note.record)
    }

    /// Makes the term table and the forward index this slice's own for the document's tokens
    /// (a slice copied before shares them until either changes): once per document, not per token.
    private mutating func beginDocument() {
        table.makeExclusive()
        forward.makeExclusive()
        makePendingExclusive()
        exclusive = true
    }

    /// Gives this slice its own terms waiting when a copy shares them.
    private mutating func makePendingExclusive() {
        if !isKnownUniquelyReferenced(&pending) { pending = PendingTerms(copying: pending) }
    }

    mutating func appendToken(_ token: UnsafeBufferPointer<UInt8>, isASCII: Bool, isCJK: Bool) {
        if isASCII {
            // Lowercased as copied (most words of most notes already are).
            appendTerm(token, ascii: true)
            return
        }
        folded.removeAll(keepingCapacity: true)
        Tokenizer.appendFolded(token, isASCII: isASCII, isCJK: isCJK, to: &folded)
        folded.withUnsafeBufferPointer { appendTerm($0) }
    }

    /// How many terms are looked up together: enough for their cache misses to overlap, few
    /// enough for their slots to stay in the core's first-level cache until they are used (64
    /// slots' lines are 4 KB). At 100,000 notes a slice's slots are tens of megabytes and the
    /// lookups took 1.02 s of CPU sixteen at a time, 0.68 s sixty-four at a time (perf).
    static let batchSize = 64

    @inline(__always)
    mutating func appendTerm(_ term: UnsafeBufferPointer<UInt8>) {
        appendTerm(term, ascii: false)
    }

    /// `appendTerm` of `term`, its ASCII capitals lowercased on the way when `ascii` (a word of
    /// ASCII bytes alone).
    @inline(__always)
    private mutating func appendTerm(_ term: UnsafeBufferPointer<UInt8>, ascii: Bool) {
        if needsSeparator {
            forward.appendSeparator()  // no term waits: a field's are looked up at its end
            needsSeparator = false
        }
        if !exclusive { makePendingExclusive() }  // a token outside `add`: checked each time
        pending.append(term, ascii: ascii)
        // Its slot asked for now: in the cache by the time the batch is looked up.
        pending.keys[pending.terms - 1] = table.prefetchKey(pending.last)
        documentTokens += 1
        if term.first != Attribute.marker { textLength += 1 }
        if pending.terms == Self.batchSize { lookUpPending() }
    }

    /// Gives the waiting terms their ids in the forward index, in order.
    private mutating func lookUpPending() {
        let waiting = pending
        guard waiting.terms > 0 else { return }
        if !exclusive {  // a token outside `add`: checked each time
            table.makeExclusive()
            forward.makeExclusive()
        }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: waiting.terms) { ids in
            table.exclusiveIDs(of: UnsafeBufferPointer(start: waiting.bytes, count: waiting.count),
                               ends: UnsafeBufferPointer(start: waiting.ends, count: waiting.terms),
                               keys: UnsafeBufferPointer(start: waiting.keys, count: waiting.terms), into: ids)
            for id in ids { forward.appendExclusive(id) }
        }
        waiting.removeAll()
    }

    mutating func endField() {
        lookUpPending()
        if needsSeparator { forward.appendSeparator() }
        needsSeparator = true
        if fieldsClosed == 0 { titleLength = documentTokens }
        fieldsClosed += 1
    }

    private mutating func finishDocument(_ record: NoteRecord) {
        lookUpPending()
        recordOffsets.append(UInt64(records.bytes.count))
        records.record(record)
        flags.append(RecordTable.flag(of: record))
        sortKeys.append(record.updatedAt?.timeIntervalSince1970 ?? .nan)
        sortKeys.append(record.createdAt?.timeIntervalSince1970 ?? .nan)
        sortKeys.append(Double(record.words))
        forwardStarts.append(UInt32(forward.count))
        titleLengths.append(UInt32(titleLength))
        lengths.append(UInt32(textLength))
        needsSeparator = false
        exclusive = false
        fieldsClosed = 0
        titleLength = 0
        documentTokens = 0
        textLength = 0
    }

    /// Counts each term's documents and occurrences from the forward index, and the term table
    /// gives up its slots, most of its memory: to be called once every document is added (and
    /// before the builder plans the segment, which calls it otherwise), so that a slice that is
    /// done holds less while others still fill. Counted here in one pass over the ids, not per
    /// token as they arrive: the table's slots stay half as large (`TermTable`).
    mutating func sealTerms() {
        guard !termsSealed else { return }
        lookUpPending()
        termCounts = Self.termCounts(of: forward, starts: forwardStarts, terms: table.count)
        table.releaseSlots()
        termsSealed = true
    }

    /// Per local term of `forward` (`starts`: each document's first token, and the end): how
    /// many documents hold it and how often it occurs.
    static func termCounts(of forward: LocalTokens, starts: [UInt32], terms: Int) -> [TermCount] {
        var counts = [TermCount](repeating: TermCount(), count: terms)
        var last = [Int32](repeating: -1, count: terms)
        func count<ID: FixedWidthInteger>(_ ids: UnsafeBufferPointer<ID>) {
            counts.withUnsafeMutableBufferPointer { counts in
                last.withUnsafeMutableBufferPointer { last in
                    for document in 0..<max(starts.count - 1, 0) {
                        let mark = Int32(truncatingIfNeeded: document)
                        for index in Int(starts[document])..<Int(starts[document + 1]) {
                            let id = ids[index]
                            guard id != ID.max else { continue }  // a field separator
                            let term = Int(truncatingIfNeeded: id)
                            counts[term].occurrences &+= 1
                            if last[term] != mark {
                                last[term] = mark
                                counts[term].postings &+= 1
                            }
                        }
                    }
                }
            }
        }
        forward.withIDs(narrow: { count($0) }, wide: { count($0) })
        return counts
    }

    /// Numbers the local terms anew: term `id` becomes `map[id]` in the forward index (the
    /// builder's renumbering in the dictionary's order, once the term table is given up).
    mutating func renumberTerms(_ map: [UInt32]) {
        forward.renumber(map)
    }

    /// Gives up the term table (once the builder has mapped its terms to the dictionary's and
    /// taken their counts, `TermTable.termCounts`).
    mutating func releaseTable() {
        table = TermTable()
        termCounts = []
    }

    /// Gives up the records (once the builder has copied them into the segment).
    mutating func releaseRecords() {
        records = BinaryWriter()
        recordOffsets = []
        flags = []
        sortKeys = []
    }

    /// Gives up the forward index (once the builder has copied it into the segment).
    mutating func releaseForward() {
        forward = LocalTokens()
        forwardStarts = [0]
        titleLengths = []
        lengths = []
    }
}

/// How many documents of a slice hold a term, and how often it occurs in them.
struct TermCount {
    var postings: UInt32 = 0
    var occurrences: UInt32 = 0
}
