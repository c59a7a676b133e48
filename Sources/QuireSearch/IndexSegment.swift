import Foundation

/// An immutable, flat full-text index of a set of notes: a sorted term dictionary, postings
/// (document, title and other frequencies) and a forward index (each document's term ids,
/// fields separated by `separator`) used to check phrases.
struct IndexSegment: Sendable {
    /// Marks the border between two fields in the forward index.
    static let separator = UInt32.max

    let records: RecordTable
    let terms: TermDictionary
    /// `terms.count + 1` offsets into `postingDocs` / `postingFrequencies`.
    let postingStarts: Column
    let postingDocs: Column
    /// The occurrences of the term in the document, a byte a posting (`PostingFrequencies`).
    let postingFrequencies: ByteColumn
    /// Each posting's token positions, relative to its document's start in `forward`, in 16
    /// bits (their low 16 bits in a document of more than `longDocument` tokens, whose
    /// positions a phrase finds in the forward index instead): term by term, each term's
    /// postings one after another, each with as many positions as its occurrences.
    let positions: FlatColumn<UInt16>
    /// `terms.count + 1` offsets into `positions`: where each term's positions begin.
    let termPositionStarts: Column
    /// The postings whose occurrences do not fit their byte: (slot, `title << 24 | other`
    /// capped at 255 and 0xFFFFFF, number of positions) triples, slots ascending
    /// (`PostingFrequencies`).
    let postingOverflow: Column
    /// `records.count + 1` offsets into `forward`.
    let forwardStarts: Column
    let forward: Column
    /// Tokens of each document's title.
    let titleLengths: Column
    /// Tokens of each document (all fields).
    let lengths: Column
    /// Per document, the keys the list orders compare: `updatedAt` and `createdAt` in seconds
    /// since 1970 and the word count (NaN when missing), three values a document.
    let sortKeys: FlatColumn<Double>

    /// The most tokens a document may have for its positions to fit in `positions`.
    static let longDocument = Int(UInt16.max)

    /// Which sort key of `sortKeys`.
    enum SortField: Int { case updated = 0, created = 1, words = 2 }

    /// A document's sort key (NaN when missing or out of range).
    @inline(__always)
    func sortKey(_ document: Int, _ field: SortField) -> Double {
        let index = document * 3 + field.rawValue
        return index < sortKeys.count ? sortKeys[index] : .nan
    }

    static let empty = SegmentBuilder.build(notes: [])

    var count: Int { records.count }

    /// The term ids each token of `term` accepts, or nil when a token is in no document.
    func idRanges(_ term: TextTerm) -> [Range<Int>]? {
        var ranges: [Range<Int>] = []
        for (index, token) in term.tokens.enumerated() {
            let range = terms.range(of: token, isPrefix: term.isPrefix && index == term.tokens.count - 1)
            if range.isEmpty { return nil }
            ranges.append(range)
        }
        return ranges
    }

    /// At least as many documents as hold `term` (for reserving room): the postings of its
    /// rarest exact token, or of every term its prefix accepts.
    func matchBound(_ term: TextTerm) -> Int {
        guard let ranges = idRanges(term) else { return 0 }
        return ranges.map { $0.reduce(0) { $0 + postingCount($1) } }.min() ?? 0
    }

    /// Calls `visit(document, titleOccurrences, otherOccurrences)` for every document of this
    /// segment holding `term` (within the title only for `.title`), documents ascending.
    func forEachMatch(_ term: TextTerm, _ visit: (Int, Int, Int) -> Void) {
        guard let ranges = idRanges(term) else { return }
        if ranges.count == 1 {
            forEachPosting(ranges[0], titleOnly: term.scope == .title, visit)
            return
        }
        phraseMatches(ranges, titleOnly: term.scope == .title, visit)
    }

    /// Documents holding a phrase whose tokens accept the term ids of `ranges`, with its
    /// occurrences in the title and elsewhere. The postings of the exact tokens are walked
    /// together, rarest first: each document holding all of them gives one place where the
    /// phrase may start per position of the rarest (the anchor; in a document of more than
    /// `longDocument` tokens, found by a scan of its forward index). The forward index then decides,
    /// a token at a time over every place at once: each pass reads one token per place — reads
    /// that do not wait for one another, though each is likely a cache miss — and keeps the
    /// places where the token fits.
    private func phraseMatches(_ ranges: [Range<Int>], titleOnly: Bool, _ visit: (Int, Int, Int) -> Void) {
        let exact = ranges.indices.filter { ranges[$0].count == 1 }.sorted {
            postingCount(ranges[$0].lowerBound) < postingCount(ranges[$1].lowerBound)
        }
        guard let anchor = exact.first else { return }
        let anchorID = ranges[anchor].lowerBound
        // The other exact tokens' next postings, and where their postings end.
        var cursors = exact.dropFirst().map { postings(ranges[$0].lowerBound) }
        // Places: an index into `forward` where the phrase may start, and its document; checked
        // a chunk at a time (whole documents), so that a phrase of two very common words needs
        // no large buffer.
        var starts: [Int] = []
        var owners: [Int32] = []
        starts.reserveCapacity(Self.placesPerChunk + 1024)
        owners.reserveCapacity(Self.placesPerChunk + 1024)
        let termPositions = termPositionStarts.span(anchorID, limit: positions.count)
        var next = termPositions.lowerBound
        let table = self.frequencies
        let anchorPostings = postings(anchorID)
        var escapes = table.cursor(from: anchorPostings.lowerBound)
        walk: for posting in anchorPostings {
            let (frequencies, positionCount) = table.read(posting, &escapes)
            let anchorPositions = next..<min(next + positionCount, termPositions.upperBound)
            next = anchorPositions.upperBound
            let document = Int(postingDocs[posting])
            guard document < count, !titleOnly || frequencies >> 24 != 0 else { continue }
            for index in cursors.indices {
                var cursor = cursors[index]
                while !cursor.isEmpty && Int(postingDocs[cursor.lowerBound]) < document { cursor = cursor.dropFirst() }
                cursors[index] = cursor
                if cursor.isEmpty { break walk }
                if Int(postingDocs[cursor.lowerBound]) != document { continue walk }
            }
            let tokenRange = forwardStarts.span(document, limit: forward.count)
            let limit = titleOnly ? min(Int(titleLengths[document]), tokenRange.count) : tokenRange.count
            if tokenRange.count > Self.longDocument {
                Self.appendOccurrences(of: UInt32(truncatingIfNeeded: anchorID), in: forward.pointer + tokenRange.lowerBound,
                                       from: anchor, to: limit - (ranges.count - 1 - anchor),
                                       shift: tokenRange.lowerBound - anchor, owner: Int32(truncatingIfNeeded: document),
                                       &starts, &owners)
            } else {
                for index in anchorPositions {
                    let first = Int(positions[index]) - anchor
                    guard first >= 0, first + ranges.count <= limit else { continue }
                    starts.append(tokenRange.lowerBound + first)
                    owners.append(Int32(document))
                }
            }
            if starts.count >= Self.placesPerChunk {
                checkPlaces(&starts, &owners, ranges, anchor: anchor, visit)
            }
        }
        checkPlaces(&starts, &owners, ranges, anchor: anchor, visit)
    }

    /// Appends each place of `token` in `tokens[start..<end]`, plus `shift`, to `starts` (and
    /// `owner` to `owners`), places ascending: sixteen tokens a comparison, a token at a time
    /// only in a run of sixteen that holds it.
    private static func appendOccurrences(of token: UInt32, in tokens: UnsafePointer<UInt32>, from start: Int, to end: Int,
                                          shift: Int, owner: Int32, _ starts: inout [Int], _ owners: inout [Int32]) {
        let wanted = SIMD16<UInt32>(repeating: token)
        var position = start
        while position + 16 <= end {
            let run = UnsafeRawPointer(tokens + position).loadUnaligned(as: SIMD16<UInt32>.self)
            if any(run .== wanted) {
                for place in position..<position + 16 where tokens[place] == token {
                    starts.append(place + shift)
                    owners.append(owner)
                }
            }
            position += 16
        }
        while position < end {
            if tokens[position] == token {
                starts.append(position + shift)
                owners.append(owner)
            }
            position += 1
        }
    }

    /// How many places where a phrase may start are checked together.
    private static let placesPerChunk = 1 << 16

    /// Checks places where a phrase may start (`starts` into `forward`, each with its document in
    /// `owners`, documents ascending) a token at a time, then calls `visit` with each
    /// document's occurrences in the title and elsewhere; empties both.
    private func checkPlaces(_ starts: inout [Int], _ owners: inout [Int32], _ ranges: [Range<Int>], anchor: Int,
                             _ visit: (Int, Int, Int) -> Void) {
        var places = starts.count
        starts.withUnsafeMutableBufferPointer { starts in
            owners.withUnsafeMutableBufferPointer { owners in
                let tokens = forward.pointer
                for (offset, range) in ranges.enumerated() where offset != anchor {
                    let (low, high) = (UInt32(range.lowerBound), UInt32(range.upperBound))
                    var kept = 0
                    for place in 0..<places {
                        let start = starts[place]
                        let token = tokens[start + offset]
                        starts[kept] = start
                        owners[kept] = owners[place]
                        kept += token >= low && token < high ? 1 : 0
                    }
                    places = kept
                }
            }
        }
        // The places left are occurrences, grouped by document.
        var place = 0
        while place < places {
            let document = Int(owners[place])
            let tokenRange = forwardStarts.span(document, limit: forward.count)
            let titleLength = min(Int(titleLengths[document]), tokenRange.count)
            var title = 0
            var other = 0
            while place < places && Int(owners[place]) == document {
                if starts[place] - tokenRange.lowerBound < titleLength { title += 1 } else { other += 1 }
                place += 1
            }
            visit(document, title, other)
        }
        starts.removeAll(keepingCapacity: true)
        owners.removeAll(keepingCapacity: true)
    }

    /// The postings' occurrences, read in place (the columns live as long as this segment).
    var frequencies: PostingFrequencies {
        PostingFrequencies(bytes: postingFrequencies.pointer, count: postingFrequencies.count,
                           overflow: postingOverflow.pointer,
                           overflowCount: postingOverflow.count / PostingFrequencies.entrySize)
    }

    /// The postings of term `id` (empty for an id out of range or damaged offsets).
    @inline(__always)
    func postings(_ id: Int) -> Range<Int> {
        postingStarts.span(id, limit: postingDocs.count)
    }

    private func postingCount(_ id: Int) -> Int {
        postings(id).count
    }

    private func forEachPosting(_ ids: Range<Int>, titleOnly: Bool, _ visit: (Int, Int, Int) -> Void) {
        let table = self.frequencies
        if ids.count == 1 {
            let slots = postings(ids.lowerBound)
            var escapes = table.cursor(from: slots.lowerBound)
            for posting in slots {
                let frequencies = table.read(posting, &escapes).packed
                let title = Int(frequencies >> 24)
                let other = titleOnly ? 0 : Int(frequencies & 0xFF_FFFF)
                let document = Int(postingDocs[posting])
                if title + other > 0 && document < count { visit(document, title, other) }
            }
            return
        }
        // A prefix over several terms: sum each document's occurrences, documents ascending.
        var title = [Int32](repeating: 0, count: count)
        var other = [Int32](repeating: 0, count: count)
        var touched: [Int] = []
        for id in ids {
            let slots = postings(id)
            var escapes = table.cursor(from: slots.lowerBound)
            for posting in slots {
                let document = Int(postingDocs[posting])
                let frequencies = table.read(posting, &escapes).packed
                guard document < count else { continue }
                if title[document] == 0 && other[document] == 0 { touched.append(document) }
                title[document] += Int32(frequencies >> 24)
                if !titleOnly { other[document] += Int32(frequencies & 0xFF_FFFF) }
            }
        }
        // Ascending: a scan of every document when many were touched (no sort), else a sort.
        if touched.count * 8 >= count {
            for document in 0..<count where title[document] + other[document] > 0 {
                visit(document, Int(title[document]), Int(other[document]))
            }
            return
        }
        touched.sort()
        for document in touched where title[document] + other[document] > 0 {
            visit(document, Int(title[document]), Int(other[document]))
        }
    }

    /// The fields of a document as a token stream (to move it into another segment).
    func analyzed(_ document: Int) -> AnalyzedNote { analyzed(document, keepingRecord: true) }

    /// `analyzed(_:)`, the record kept decoded in `records` only when `keepingRecord` says so
    /// (a compaction reads each record once).
    func analyzed(_ document: Int, keepingRecord: Bool) -> AnalyzedNote {
        var stream = TokenStream()
        for position in forwardStarts.span(document, limit: forward.count) {
            let id = Int(forward[position])
            if forward[position] == Self.separator {
                stream.endField()
            } else if id < terms.count {
                let bytes = terms.offsets.span(id, limit: terms.bytes.count)
                stream.appendTerm(UnsafeBufferPointer(start: terms.bytes.pointer + bytes.lowerBound, count: bytes.count))
            }
        }
        stream.endField()
        return AnalyzedNote(record: keepingRecord ? records[document] : records.transientRecord(document), stream: stream)
    }

    /// Gives the pages of the file this segment reads (if any) back to the system
    /// (`ColumnMemory.releaseReadPages`).
    func releaseReadPages() {
        records.releaseReadPages()
        var seen = Set<ObjectIdentifier>()
        for memory in [terms.bytes.memory, terms.offsets.memory, postingStarts.memory, postingDocs.memory,
                       postingFrequencies.memory, positions.memory, termPositionStarts.memory, forwardStarts.memory,
                       forward.memory, sortKeys.memory] where seen.insert(ObjectIdentifier(memory)).inserted {
            memory.releaseReadPages()
        }
    }
}
