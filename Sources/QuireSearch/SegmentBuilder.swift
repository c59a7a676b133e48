import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Builds an `IndexSegment` from slices of consecutive documents (`SegmentSlice`), on every
/// core: one dictionary of all their terms, sorted bytewise (so that a prefix is a range of
/// ids), then each slice writes its documents' postings, positions and forward index straight
/// into their final places, since each slice knows in advance where its part of every posting
/// list starts.
enum SegmentBuilder {
    /// How many slices to build `documents` documents in: twice the cores (enough to keep
    /// every core busy when one is slower), fewer when slices would hold less than
    /// `minimumSize` documents. Each slice's term table learns the vocabulary anew, so more
    /// slices cost more: at 10,000 notes 16 slices took about 15 % more CPU time than 4.
    static func sliceCount(documents: Int, minimumSize: Int) -> Int {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return min(max(min(documents / max(minimumSize, 1), 2 * cores), 1), 16)
    }

    /// A segment of `notes`, in the order given, built in `slices` slices (by default as
    /// `sliceCount` says, slices of at least 256 notes).
    static func build(notes: [AnalyzedNote], slices wanted: Int? = nil) -> IndexSegment {
        let count = max(wanted ?? sliceCount(documents: notes.count, minimumSize: 256), 1)
        let size = max((notes.count + count - 1) / count, 1)
        var slices = [SegmentSlice](repeating: SegmentSlice(), count: (notes.count + size - 1) / size)
        slices.withUnsafeMutableBufferPointer { buffer in
            let slots = buffer
            DispatchQueue.concurrentPerform(iterations: slots.count) { slice in
                for index in slice * size..<min(slice * size + size, notes.count) { slots[slice].add(notes[index]) }
            }
        }
        return build(slices: &slices)
    }

    /// A segment of the slices' documents, slice after slice (the slices are used up).
    static func build(slices: inout [SegmentSlice]) -> IndexSegment {
        // 1. The dictionary: every distinct term, sorted; each slice's local ids mapped to it.
        var union = TermTable()
        var unionIDs = slices.map { slice in
            (0..<slice.table.count).map { slice.table.withTerm($0) { union.id(for: $0) } }
        }
        let termCount = union.count
        let order = union.sortedIDs()
        var rank = [UInt32](repeating: 0, count: termCount)
        for (position, id) in order.enumerated() { rank[Int(id)] = UInt32(position) }
        let terms = union.dictionary(order: order)
        union = TermTable()
        let finalIDs = unionIDs.map { $0.map { rank[Int($0)] } }
        unionIDs = []
        rank = []

        // 2. Where each slice's part of each posting list and of its positions begins.
        var postingStarts = [UInt32](repeating: 0, count: termCount + 1)
        var positionTotals = [UInt32](repeating: 0, count: termCount + 1)
        for (slice, ids) in zip(slices, finalIDs) {
            for (local, id) in ids.enumerated() {
                postingStarts[Int(id) + 1] += slice.termCounts[local].postings
                positionTotals[Int(id) + 1] += slice.termCounts[local].occurrences
            }
        }
        for id in 0..<termCount {
            postingStarts[id + 1] += postingStarts[id]
            positionTotals[id + 1] += positionTotals[id]
        }
        var postingFill = postingStarts
        var positionFill = positionTotals
        var cursors: [(postings: [UInt32], positions: [UInt32])] = []
        for (slice, ids) in zip(slices, finalIDs) {
            var postings = [UInt32](repeating: 0, count: ids.count)
            var positions = [UInt32](repeating: 0, count: ids.count)
            for (local, id) in ids.enumerated() {
                postings[local] = postingFill[Int(id)]
                positions[local] = positionFill[Int(id)]
                postingFill[Int(id)] += slice.termCounts[local].postings
                positionFill[Int(id)] += slice.termCounts[local].occurrences
            }
            cursors.append((postings, positions))
        }
        postingFill = []
        positionFill = []
        for index in slices.indices { slices[index].releaseTerms() }

        // 3. Per-document columns and records, slice after slice.
        var firstDocuments: [Int] = [0]
        var firstTokens: [Int] = [0]
        for slice in slices {
            firstDocuments.append(firstDocuments[firstDocuments.count - 1] + slice.count)
            firstTokens.append(firstTokens[firstTokens.count - 1] + slice.forward.count)
        }
        let documentCount = firstDocuments[slices.count]
        let forwardCount = firstTokens[slices.count]
        var forwardStarts: [UInt32] = []
        forwardStarts.reserveCapacity(documentCount + 1)
        var titleLengths: [UInt32] = []
        titleLengths.reserveCapacity(documentCount)
        var lengths: [UInt32] = []
        lengths.reserveCapacity(documentCount)
        var sortKeys: [Double] = []
        sortKeys.reserveCapacity(documentCount * 3)
        for (index, slice) in slices.enumerated() {
            let first = UInt32(firstTokens[index])
            forwardStarts.append(contentsOf: slice.forwardStarts.dropLast().map { $0 + first })
            titleLengths.append(contentsOf: slice.titleLengths)
            lengths.append(contentsOf: slice.lengths)
            sortKeys.append(contentsOf: slice.sortKeys)
        }
        forwardStarts.append(UInt32(forwardCount))
        let records = recordTable(slices)
        for index in slices.indices { slices[index].releaseRecords() }

        // 4. Each slice fills its places, on every core.
        let postingCount = Int(postingStarts[termCount])
        let positionCount = Int(positionTotals[termCount])
        let docs = WritableColumn<UInt32>(count: postingCount)
        let frequencies = WritableColumn<UInt32>(count: postingCount)
        let positions = WritableColumn<UInt32>(count: positionCount)
        let forward = WritableColumn<UInt32>(count: forwardCount)
        let places = SlicePlaces(docs: docs.pointer, frequencies: frequencies.pointer,
                                 positions: positions.pointer,
                                 forward: forward.pointer)
        var overflows = [[UInt32]](repeating: [], count: slices.count)
        overflows.withUnsafeMutableBufferPointer { overflowBuffer in
            let overflowSlots = overflowBuffer
            slices.withUnsafeMutableBufferPointer { buffer in
                let slots = buffer
                DispatchQueue.concurrentPerform(iterations: slots.count) { index in
                    overflowSlots[index] = places.fill(slots[index], ids: finalIDs[index], cursor: cursors[index],
                                                       firstDocument: firstDocuments[index], firstToken: firstTokens[index])
                    slots[index].releaseForward()
                }
            }
        }
        let overflow = Self.sortedPairs(overflows.flatMap { $0 })
        cursors = []
        slices = []
        return IndexSegment(
            records: records, terms: terms,
            postingStarts: Column(postingStarts), postingDocs: docs.column,
            postingFrequencies: frequencies.column, positions: positions.column,
            termPositionStarts: Column(positionTotals), positionOverflow: Column(overflow), forwardStarts: Column(forwardStarts),
            forward: forward.column, titleLengths: Column(titleLengths), lengths: Column(lengths),
            sortKeys: FlatColumn(sortKeys))
    }

    /// (slot, count) pairs sorted by slot.
    private static func sortedPairs(_ flat: [UInt32]) -> [UInt32] {
        let order = stride(from: 0, to: flat.count, by: 2).sorted { flat[$0] < flat[$1] }
        return order.flatMap { [flat[$0], flat[$0 + 1]] }
    }

    /// The slices' encoded records in one table (decoded when first asked for, like records
    /// loaded from a cache file): the records, then each one's offset, then the flags.
    private static func recordTable(_ slices: [SegmentSlice]) -> RecordTable {
        let recordBytes = slices.reduce(0) { $0 + $1.records.bytes.count }
        let count = slices.reduce(0) { $0 + $1.count }
        let offsetsStart = (recordBytes + 7) & ~7
        let flagsStart = offsetsStart + count * 8
        let memory = WritableColumn<UInt8>(count: flagsStart + count)
        let base = UnsafeMutableRawPointer(memory.pointer)
        var filled = 0
        var document = 0
        for slice in slices {
            slice.records.bytes.withUnsafeBytes { bytes in
                if let source = bytes.baseAddress { (base + filled).copyMemory(from: source, byteCount: bytes.count) }
            }
            for offset in slice.recordOffsets {
                (base + offsetsStart + document * 8).storeBytes(of: UInt64(filled) + offset, as: UInt64.self)
                document += 1
            }
            (base + flagsStart + document - slice.count).copyMemory(from: slice.flags, byteCount: slice.count)
            filled += slice.records.bytes.count
        }
        return RecordTable(encoded: memory.column.memory, recordsOffset: 0, recordsLength: recordBytes,
                           offsetsOffset: offsetsStart, flagsOffset: flagsStart, count: count)
    }
}

/// The columns a slice writes into (each slice to places no other slice writes).
private struct SlicePlaces: @unchecked Sendable {
    let docs: UnsafeMutablePointer<UInt32>
    let frequencies: UnsafeMutablePointer<UInt32>
    let positions: UnsafeMutablePointer<UInt32>
    let forward: UnsafeMutablePointer<UInt32>

    /// Where a slice's next posting and position of one term go, and the term's occurrences
    /// in the document at hand.
    private struct TermCursor {
        var posting: UInt32
        var position: UInt32
        var lastDocument: Int32 = -1
        var title: UInt32 = 0
        var other: UInt32 = 0
    }

    /// Gives the whole pages of `source` between elements `released` and `end` back to the
    /// system once they make a megabyte (they are not read again, and the array is freed after
    /// the fill), so that a slice's forward index shrinks while the segment's grows.
    private static func release(_ source: UnsafeBufferPointer<UInt32>, before end: Int, after released: inout Int) {
        #if canImport(Glibc)
        guard end - released >= 1 << 18, let base = source.baseAddress else { return }
        let page = 4096
        let lower = (Int(bitPattern: base + released) + page - 1) / page * page
        let upper = Int(bitPattern: base + end) / page * page
        if upper > lower, let start = UnsafeMutableRawPointer(bitPattern: lower) {
            _ = madvise(start, upper - lower, MADV_DONTNEED)  // a hint: the pages may as well stay
        }
        released = end
        #endif
    }

    /// Writes the postings (document, `title << 24 | other` occurrences), each posting's
    /// positions and the forward index (final ids) of `slice`'s documents. Returns the
    /// postings whose occurrences are capped, with their number of positions: (slot, count)
    /// pairs.
    func fill(_ slice: SegmentSlice, ids: [UInt32], cursor: (postings: [UInt32], positions: [UInt32]),
              firstDocument: Int, firstToken: Int) -> [UInt32] {
        var terms = zip(cursor.postings, cursor.positions).map { TermCursor(posting: $0, position: $1) }
        var touched: [Int] = []
        var overflow: [UInt32] = []
        terms.withUnsafeMutableBufferPointer { terms in
            slice.forward.withUnsafeBufferPointer { source in
                ids.withUnsafeBufferPointer { ids in
                    var released = 0
                    for document in 0..<slice.count {
                        touched.removeAll(keepingCapacity: true)
                        let start = Int(slice.forwardStarts[document])
                        Self.release(source, before: start, after: &released)
                        let end = Int(slice.forwardStarts[document + 1])
                        let titleEnd = start + Int(slice.titleLengths[document])
                        for position in start..<end {
                            let local = source[position]
                            guard local != IndexSegment.separator else {
                                forward[firstToken + position] = IndexSegment.separator
                                continue
                            }
                            let term = Int(local)
                            forward[firstToken + position] = ids[term]
                            if terms[term].lastDocument != Int32(document) {
                                terms[term].lastDocument = Int32(document)
                                let slot = Int(terms[term].posting)
                                docs[slot] = UInt32(firstDocument + document)
                                terms[term].title = 0
                                terms[term].other = 0
                                touched.append(term)
                            }
                            positions[Int(terms[term].position)] = UInt32(position - start)
                            terms[term].position += 1
                            if position < titleEnd { terms[term].title += 1 } else { terms[term].other += 1 }
                        }
                        for term in touched {
                            let (title, other) = (terms[term].title, terms[term].other)
                            frequencies[Int(terms[term].posting)] = min(title, 255) << 24 | min(other, 0xFF_FFFF)
                            if title >= 255 || other >= 0xFF_FFFF { overflow += [terms[term].posting, title + other] }
                            terms[term].posting += 1
                        }
                    }
                }
            }
        }
        return overflow
    }
}
