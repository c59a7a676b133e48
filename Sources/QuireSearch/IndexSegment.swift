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
    /// `title << 24 | other` occurrences of the term in the document.
    let postingFrequencies: Column
    /// Each posting's token positions, relative to its document's start in `forward`: term by
    /// term, each term's postings one after another, each with as many positions as its
    /// frequencies say (or `positionOverflow`, when they are capped).
    let positions: Column
    /// `terms.count + 1` offsets into `positions`: where each term's positions begin.
    let termPositionStarts: Column
    /// The postings whose frequencies are capped (255 in the title, 0xFFFFFF elsewhere) with
    /// their real number of positions: (slot, count) pairs, slots ascending.
    let positionOverflow: Column
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

    /// Calls `visit(document, titleOccurrences, otherOccurrences)` for every document of this
    /// segment holding `term` (within the title only for `.title`), documents ascending.
    func forEachMatch(_ term: TextTerm, _ visit: (Int, Int, Int) -> Void) {
        guard let ranges = idRanges(term) else { return }
        if ranges.count == 1 {
            forEachPosting(ranges[0], titleOnly: term.scope == .title, visit)
            return
        }
        // A phrase: documents holding every exact token (postings intersected, rarest first)
        // are the candidates; the forward index decides, scanning for the rarest token.
        let exact = ranges.indices.filter { ranges[$0].count == 1 }.sorted {
            postingCount(ranges[$0].lowerBound) < postingCount(ranges[$1].lowerBound)
        }
        guard let rarest = exact.first else { return }
        var candidates = postingDocuments(ranges[rarest].lowerBound, titleOnly: term.scope == .title)
        for index in exact.dropFirst() where !candidates.isEmpty {
            candidates = intersect(candidates, ranges[index].lowerBound)
        }
        let bounds = ranges.map { (UInt32($0.lowerBound), UInt32($0.upperBound)) }
        for (document, anchorPositions) in candidates {
            let (title, other) = phraseOccurrences(document, anchorPositions, bounds, anchor: rarest,
                                                   titleOnly: term.scope == .title)
            if title + other > 0 { visit(document, title, other) }
        }
    }

    /// The postings of term `id` (empty for an id out of range or damaged offsets).
    @inline(__always)
    func postings(_ id: Int) -> Range<Int> {
        postingStarts.span(id, limit: postingDocs.count)
    }

    private func postingCount(_ id: Int) -> Int {
        postings(id).count
    }

    /// The documents of a term's postings (with a title occurrence, for `titleOnly`), each with
    /// the range of its positions: the term's postings hold their positions one after another.
    private func postingDocuments(_ id: Int, titleOnly: Bool) -> [(Int, Range<Int>)] {
        let termPositions = termPositionStarts.span(id, limit: positions.count)
        var next = termPositions.lowerBound
        var documents: [(Int, Range<Int>)] = []
        for posting in postings(id) {
            let frequencies = postingFrequencies[posting]
            let start = next
            next = min(start + positionCount(posting, frequencies), termPositions.upperBound)
            let document = Int(postingDocs[posting])
            guard document < count else { continue }  // a damaged cache never reads out of bounds
            if titleOnly && frequencies >> 24 == 0 { continue }
            documents.append((document, start..<next))
        }
        return documents
    }

    /// The number of positions of the posting at `slot`: its occurrences, unless capped.
    @inline(__always)
    private func positionCount(_ slot: Int, _ frequencies: UInt32) -> Int {
        let title = frequencies >> 24
        let other = frequencies & 0xFF_FFFF
        guard title == 255 || other == 0xFF_FFFF else { return Int(title + other) }
        var low = 0
        var high = positionOverflow.count / 2
        while low < high {
            let middle = (low + high) / 2
            if Int(positionOverflow[middle * 2]) < slot { low = middle + 1 } else { high = middle }
        }
        let found = low < positionOverflow.count / 2 && Int(positionOverflow[low * 2]) == slot
        return found ? Int(positionOverflow[low * 2 + 1]) : Int(title + other)
    }

    /// The documents of `documents` (ascending) that also hold term `id`.
    private func intersect(_ documents: [(Int, Range<Int>)], _ id: Int) -> [(Int, Range<Int>)] {
        var result: [(Int, Range<Int>)] = []
        var posting = postings(id).lowerBound
        let end = postings(id).upperBound
        for candidate in documents {
            while posting < end && Int(postingDocs[posting]) < candidate.0 { posting += 1 }
            if posting == end { break }
            if Int(postingDocs[posting]) == candidate.0 { result.append(candidate) }
        }
        return result
    }

    private func forEachPosting(_ ids: Range<Int>, titleOnly: Bool, _ visit: (Int, Int, Int) -> Void) {
        if ids.count == 1 {
            for posting in postings(ids.lowerBound) {
                let frequencies = postingFrequencies[posting]
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
            for posting in postings(id) {
                let document = Int(postingDocs[posting])
                guard document < count else { continue }
                let frequencies = postingFrequencies[posting]
                if title[document] == 0 && other[document] == 0 { touched.append(document) }
                title[document] += Int32(frequencies >> 24)
                if !titleOnly { other[document] += Int32(frequencies & 0xFF_FFFF) }
            }
        }
        touched.sort()
        for document in touched where title[document] + other[document] > 0 {
            visit(document, Int(title[document]), Int(other[document]))
        }
    }

    /// Occurrences of a phrase in a document, in the title and elsewhere: each position of the
    /// token at `anchor` (exact; `anchorPositions` are its positions in the document) is
    /// checked against its neighbours in the forward index.
    private func phraseOccurrences(_ document: Int, _ anchorPositions: Range<Int>, _ bounds: [(UInt32, UInt32)], anchor: Int,
                                   titleOnly: Bool) -> (Int, Int) {
        let tokenRange = forwardStarts.span(document, limit: forward.count)
        let start = tokenRange.lowerBound
        let span = tokenRange.count
        let titleLength = min(Int(titleLengths[document]), span)
        let limit = titleOnly ? titleLength : span
        var title = 0
        var other = 0
        let tokens = forward.pointer + start
        for index in anchorPositions {
            let first = Int(positions[index]) - anchor
            guard first >= 0, first + bounds.count <= limit else { continue }
            var matched = true
            for (offset, bound) in bounds.enumerated() where offset != anchor {
                let neighbour = tokens[first + offset]
                if neighbour < bound.0 || neighbour >= bound.1 { matched = false; break }
            }
            if matched {
                if first < titleLength { title += 1 } else { other += 1 }
            }
        }
        return (title, other)
    }

    /// The fields of a document as a token stream (to move it into another segment).
    func analyzed(_ document: Int) -> AnalyzedNote {
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
        return AnalyzedNote(record: records[document], stream: stream)
    }
}
