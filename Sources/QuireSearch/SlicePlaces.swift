/// The columns a slice writes into (each slice to places no other slice writes): all of them
/// in one pass, or some in each of several passes — and of those, a chunk: the postings and
/// positions of a range of terms, or the forward index of a range of documents, each pointer
/// then standing for its column's element `origin` onwards.
struct SlicePlaces: @unchecked Sendable {
    var docs: UnsafeMutablePointer<UInt32>?
    var frequencies: UnsafeMutablePointer<UInt8>?
    var positions: UnsafeMutablePointer<UInt16>?
    var forward: UnsafeMutablePointer<UInt32>?
    /// The terms (final ids) whose postings and positions these places take.
    var termRange: Range<UInt32> = 0..<UInt32.max
    /// The documents (of the segment) whose forward index these places take.
    var documentRange: Range<Int> = 0..<Int.max
    /// The column elements that `docs` and `frequencies`, `positions` and `forward` point at.
    var postingOrigin = 0
    var positionOrigin = 0
    var forwardOrigin = 0

    /// Where a slice's next posting and position of one term go, and the term's occurrences
    /// in the document at hand.
    private struct TermCursor {
        var posting: UInt32
        var position: UInt32
        var lastDocument: Int32 = -1
        var title: UInt32 = 0
        var other: UInt32 = 0
    }

    /// Writes what these places have room for of `slice`'s documents: the postings (document,
    /// occurrences in a byte: `PostingFrequencies`), each posting's positions, the forward
    /// index (final ids). `releasing`: gives the slice's forward index back to the system as it
    /// goes (the last pass). Returns the postings whose occurrences do not fit their byte:
    /// the overflow table's (slot, occurrences, positions) triples.
    func fill(_ slice: SegmentSlice, ids: [UInt32], cursor: (postings: [UInt32], positions: [UInt32]),
              firstDocument: Int, firstToken: Int, releasing: Bool) -> [UInt32] {
        slice.forward.withIDs(
            narrow: { fill(slice, $0, ids: ids, cursor: cursor, firstDocument: firstDocument, firstToken: firstToken,
                           releasing: releasing) },
            wide: { fill(slice, $0, ids: ids, cursor: cursor, firstDocument: firstDocument, firstToken: firstToken,
                         releasing: releasing) })
    }

    /// The slice's local ids (`ids`: their final ids, ascending) whose final ids are in
    /// `range`: the first and how many.
    private static func localRange(of range: Range<UInt32>, in ids: [UInt32]) -> (Int, UInt) {
        func firstIndex(notBelow id: UInt32) -> Int {
            var (low, high) = (0, ids.count)
            while low < high {
                let middle = (low + high) / 2
                if ids[middle] < id { low = middle + 1 } else { high = middle }
            }
            return low
        }
        let first = firstIndex(notBelow: range.lowerBound)
        return (first, UInt(firstIndex(notBelow: range.upperBound) - first))
    }

    /// The first position from `start` on (before `end`) whose id is in `lowest..<lowest + span`
    /// (`end` when none is): most tokens of a pass over a chunk of terms belong to other
    /// chunks, and pass by here in one comparison each. A separator (`ID.max`) is never in the
    /// range, which holds local ids only.
    @inline(__always)
    private static func nextToken<ID: FixedWidthInteger & UnsignedInteger>(
        in source: UnsafeBufferPointer<ID>, from start: Int, end: Int, lowest: ID, span: ID
    ) -> Int {
        guard let base = source.baseAddress else { return end }
        var position = start
        while position < end && base[position] &- lowest >= span { position &+= 1 }
        return position
    }

    /// `fill` over a forward index of local ids of type `ID` (its largest value separates fields).
    private func fill<ID: FixedWidthInteger & UnsignedInteger>(
        _ slice: SegmentSlice, _ source: UnsafeBufferPointer<ID>, ids: [UInt32],
        cursor: (postings: [UInt32], positions: [UInt32]), firstDocument: Int, firstToken: Int, releasing: Bool
    ) -> [UInt32] {
        let postings = docs != nil || frequencies != nil
        let (docs, frequencies, positions, forward) = (self.docs, self.frequencies, self.positions, self.forward)
        // Where a slice's token, a posting and a position land in the places (the pointers stand
        // for their columns' elements `origin` onwards).
        let (forwardShift, postingOrigin, positionOrigin) = (firstToken - forwardOrigin, postingOrigin, positionOrigin)
        let first = min(max(documentRange.lowerBound - firstDocument, 0), slice.count)
        let end = min(max(documentRange.upperBound - firstDocument, first), slice.count)
        guard first < end else { return [] }
        // The slice's terms of this chunk: a range of its ids (numbered in the dictionary's order).
        let (lowestLocal, localSpan): (Int, UInt) = postings || positions != nil
            ? Self.localRange(of: termRange, in: ids) : (0, 0)
        var terms = (lowestLocal..<lowestLocal + Int(localSpan)).map {
            TermCursor(posting: cursor.postings[$0], position: cursor.positions[$0])
        }
        // The terms of the document at hand (at most one per token of the longest document).
        let longest = postings ? zip(slice.forwardStarts.dropFirst(), slice.forwardStarts).map { Int($0 - $1) }.max() ?? 0 : 0
        let touched = UnsafeMutableBufferPointer<Int>.allocate(capacity: max(longest, 1))
        defer { touched.deallocate() }
        var overflow: [UInt32] = []
        // Without a forward index to write, only this chunk's tokens need a look.
        let skips = forward == nil
        let (lowest, span) = (ID(truncatingIfNeeded: lowestLocal), ID(truncatingIfNeeded: localSpan))
        terms.withUnsafeMutableBufferPointer { terms in
            ids.withUnsafeBufferPointer { ids in
                var released = Int(slice.forwardStarts[first])
                for document in first..<end {
                    var touchedCount = 0
                    let start = Int(slice.forwardStarts[document])
                    if releasing { slice.forward.releasePages(before: start, after: &released) }
                    let end = Int(slice.forwardStarts[document + 1])
                    let titleEnd = start + Int(slice.titleLengths[document])
                    var position = start
                    while position < end {
                        defer { position += 1 }
                        if skips {
                            // A pass for terms only: straight to this chunk's next token.
                            position = Self.nextToken(in: source, from: position, end: end, lowest: lowest, span: span)
                            guard position < end else { break }
                        }
                        let local = source[position]
                        guard local != ID.max else {
                            forward?[position + forwardShift] = IndexSegment.separator
                            continue
                        }
                        if let forward { forward[position + forwardShift] = ids[Int(local)] }
                        let chunkTerm = UInt(local) &- UInt(lowestLocal)
                        guard chunkTerm < localSpan else { continue }  // not this chunk's
                        let term = Int(chunkTerm)
                        // Wrapping arithmetic from here on: every count and place is below
                        // 2^32 by the segment's format, so no check would ever fire.
                        if postings {
                            let current = Int32(truncatingIfNeeded: document)
                            if terms[term].lastDocument != current {
                                terms[term].lastDocument = current
                                docs?[Int(terms[term].posting) &- postingOrigin] = UInt32(truncatingIfNeeded: firstDocument &+ document)
                                terms[term].title = 0
                                terms[term].other = 0
                                touched[touchedCount] = term
                                touchedCount &+= 1
                            }
                            if position < titleEnd { terms[term].title &+= 1 } else { terms[term].other &+= 1 }
                        }
                        if let positions {
                            // In 16 bits: a longer document's phrases read its forward index instead.
                            positions[Int(terms[term].position) &- positionOrigin] = UInt16(truncatingIfNeeded: position &- start)
                            terms[term].position &+= 1
                        }
                    }
                    for term in touched[..<touchedCount] {
                        let (title, other) = (terms[term].title, terms[term].other)
                        let byte = PostingFrequencies.byte(title: title, other: other)
                        frequencies?[Int(terms[term].posting) &- postingOrigin] = byte ?? PostingFrequencies.escape
                        if byte == nil {
                            overflow += [terms[term].posting, PostingFrequencies.packed(title: title, other: other), title &+ other]
                        }
                        terms[term].posting &+= 1
                    }
                }
            }
        }
        return overflow
    }
}
