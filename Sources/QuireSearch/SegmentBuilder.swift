import Dispatch
import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// Builds an `IndexSegment` from slices of consecutive documents (`SegmentSlice`), on every
/// core: one dictionary of all their terms, sorted bytewise (so that a prefix is a range of
/// ids), then each slice writes its documents' postings, positions and forward index straight
/// into their final places, since each slice knows in advance where its part of every posting
/// list starts.
enum SegmentBuilder {
    /// How many slices to build `documents` documents in: one per core, fewer when slices
    /// would hold less than `minimumSize` documents. Each slice's term table learns the
    /// vocabulary anew and the builder's passes visit every slice, so more slices cost more
    /// (at 10,000 notes on two cores, four slices took 2 % more instructions than two, and 16
    /// about 15 % more CPU time than 4); a rebuild starts with as many runs, cut by bytes
    /// (`Indexer.sliceBounds`), and makes a slice more only when a core that is done takes over
    /// half of another's rest (`SliceSchedule`).
    static func sliceCount(documents: Int, minimumSize: Int) -> Int {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return min(max(min(documents / max(minimumSize, 1), cores), 1), 16)
    }

    /// A segment of `notes`, in the order given, built in `slices` slices (by default as
    /// `sliceCount` says, slices of at least 256 notes).
    static func build(notes: [AnalyzedNote], slices wanted: Int? = nil) -> IndexSegment {
        let count = max(wanted ?? sliceCount(documents: notes.count, minimumSize: 256), 1)
        let size = max((notes.count + count - 1) / count, 1)
        // No slice is made for no notes (an empty slice's term table is 32 pages zeroed: the
        // empty segment every command holds was a tenth of a millisecond of page faults).
        var slices = notes.isEmpty ? [] : [SegmentSlice](repeating: SegmentSlice(), count: (notes.count + size - 1) / size)
        slices.withUnsafeMutableBufferPointer { buffer in
            let slots = buffer
            ParallelMap.perform(iterations: slots.count) { slice in
                for index in slice * size..<min(slice * size + size, notes.count) { slots[slice].add(notes[index]) }
                slots[slice].sealTerms()
            }
        }
        return build(slices: &slices)
    }

    /// A segment of the slices' documents, slice after slice (the slices are used up), built
    /// in memory.
    static func build(slices: inout [SegmentSlice]) -> IndexSegment {
        assembleInMemory(Plan(&slices), &slices)
    }

    /// What a rebuild wrote: the new snapshot file's id, and the group that is done once the
    /// file it replaced is gone.
    struct WrittenBase {
        let id: UInt64
        let removal: DispatchGroup?
    }

    /// A segment of the slices' documents written into a new base snapshot at `path`
    /// (`SnapshotFile`) as it is built, column after column, so that the finished index is
    /// never held whole in memory; the segment returned reads the file. When the file cannot be
    /// made (no room, no permission) the segment is built in memory and nothing is written.
    /// Throws only when writing fails after the slices were used up (the caller builds again).
    /// `chunkLimit`: the most elements a chunk holds (by default as `chunkLimit(forwardCount:)` says).
    static func build(slices: inout [SegmentSlice], snapshot path: String,
                      chunkLimit wanted: Int? = nil) throws(CacheError) -> (IndexSegment, WrittenBase?) {
        let plan = Plan(&slices)
        var paths = PathColumn()
        for slice in slices {
            slice.records.bytes.withUnsafeBytes { records in
                slice.recordOffsets.withUnsafeBufferPointer { paths.append(records: records, offsets: $0) }
            }
        }
        // Every section's length but the capped postings' (known once the postings are
        // written: that section goes last).
        let lengths = CatalogCache.Section.allCases.map { section -> Int in
            switch section {
            case .records: return plan.recordLayout.recordBytes
            case .recordOffsets: return plan.recordLayout.count * 8
            case .flags: return plan.recordLayout.count
            case .termBytes: return plan.terms.bytes.count
            case .termOffsets: return plan.terms.offsets.count * 4
            case .postingStarts: return plan.postingStarts.count * 4
            case .postingDocs, .postingFrequencies: return plan.postingCount * 4
            case .positions: return plan.positionCount * 4
            case .termPositionStarts: return plan.positionStarts.count * 4
            case .positionOverflow: return 0
            case .forwardStarts: return plan.forwardStarts.count * 4
            case .forward: return plan.forwardCount * 4
            case .titleLengths: return plan.titleLengths.count * 4
            case .lengths: return plan.lengths.count * 4
            case .sortKeys: return plan.sortKeys.count * 8
            case .pathOffsets: return paths.offsets.count * 8
            case .pathBytes: return paths.bytes.count
            }
        }
        // A file that cannot be made is no failure here: the snapshot is then written whole
        // afterwards (`CatalogStore.writeSnapshot`), which reports what goes wrong.
        guard let file = try? SnapshotFile(path: path, kind: .base, lengths: lengths,
                                           late: CatalogCache.Section.positionOverflow.rawValue) else {
            return (assembleInMemory(plan, &slices), nil)
        }
        // Each slice's records straight from the slice, which then gives them up.
        var recordOffsets: [UInt64] = []
        recordOffsets.reserveCapacity(plan.recordLayout.count)
        var flags: [UInt8] = []
        flags.reserveCapacity(plan.recordLayout.count)
        var recordBytes = 0
        for index in slices.indices {
            try file.write(.records, from: recordBytes, slices[index].records.bytes)
            recordOffsets += slices[index].recordOffsets.lazy.map { UInt64(recordBytes) + $0 }
            flags += slices[index].flags
            recordBytes += slices[index].records.bytes.count
            slices[index].releaseRecords()
        }
        try file.write(.recordOffsets, recordOffsets)
        try file.write(.flags, flags)
        try file.write(.termBytes, plan.terms.bytes.buffer)
        try file.write(.termOffsets, plan.terms.offsets.buffer)
        try file.write(.postingStarts, plan.postingStarts)
        try file.write(.termPositionStarts, plan.positionStarts)
        try file.write(.forwardStarts, plan.forwardStarts)
        try file.write(.titleLengths, plan.titleLengths)
        try file.write(.lengths, plan.lengths)
        try file.write(.sortKeys, plan.sortKeys)
        try file.write(.pathOffsets, paths.offsets)
        try file.write(.pathBytes, paths.bytes)
        // The large columns in chunks of whole terms (whole documents for the forward index), one
        // pass over the slices per chunk, all in one buffer: a chunk of terms takes their
        // postings' documents, their frequencies (which find the capped postings) and their
        // positions in one pass, one after the other in the buffer. The slices give up their
        // forward indexes in the forward index's passes, the last ones.
        let limit = max(wanted ?? chunkLimit(forwardCount: plan.forwardCount), 1)
        let termWeights = zip(plan.postingStarts, plan.positionStarts).map { 2 * Int($0) + Int($1) }
        let termChunks = chunks(termWeights, limit: limit)
        let documentChunks = chunks(plan.forwardStarts, limit: limit)
        let largest = max(termChunks.map { termWeights[$0.upperBound] - termWeights[$0.lowerBound] }.max() ?? 0,
                          documentChunks.map { Int(plan.forwardStarts[$0.upperBound] - plan.forwardStarts[$0.lowerBound]) }
                              .max() ?? 0)
        let buffer = WritableColumn<UInt32>(count: largest)
        var overflow: [UInt32] = []
        for chunk in termChunks {
            let (firstPosting, firstPosition) = (Int(plan.postingStarts[chunk.lowerBound]), Int(plan.positionStarts[chunk.lowerBound]))
            let postings = Int(plan.postingStarts[chunk.upperBound]) - firstPosting
            let positions = Int(plan.positionStarts[chunk.upperBound]) - firstPosition
            let (docs, frequencies) = (buffer.pointer, buffer.pointer + postings)
            overflow += plan.fill(&slices, plan.places(docs: docs, frequencies: frequencies,
                                                       positions: buffer.pointer + 2 * postings, terms: chunk),
                                  keepForward: true)
            try file.write(.postingDocs, from: firstPosting, UnsafeBufferPointer(start: docs, count: postings))
            try file.write(.postingFrequencies, from: firstPosting, UnsafeBufferPointer(start: frequencies, count: postings))
            try file.write(.positions, from: firstPosition,
                           UnsafeBufferPointer(start: buffer.pointer + 2 * postings, count: positions))
        }
        for chunk in documentChunks {
            plan.fillForward(&slices, plan.places(forward: buffer.pointer, documents: chunk))
            let first = Int(plan.forwardStarts[chunk.lowerBound])
            try file.write(.forward, from: first, UnsafeBufferPointer(start: buffer.pointer,
                                                                      count: Int(plan.forwardStarts[chunk.upperBound]) - first))
        }
        overflow = sortedPairs(overflow)
        slices = []
        try file.appendLate(overflow)
        let (memory, sections) = try file.finish()
        let segment = try CatalogCache.segment(memory, sections)
        do {
            let removal = try file.install()
            return (segment, WrittenBase(id: file.id, removal: removal))
        } catch {
            return (segment, nil)  // the segment reads the file, which stays until unmapped
        }
    }

    /// The most elements a chunk holds when a rebuild writes the columns — a chunk of terms
    /// holds their postings' documents and frequencies and their positions, a chunk of
    /// documents their forward index (but a term or document larger than that is one chunk):
    /// each chunk of terms costs one more pass over the slices' forward indexes (at 10,000
    /// notes, halving the chunks from twelve to six passes saved about 4 % of the rebuild's
    /// instructions), and the buffer adds to the slices' memory while they are still held. A
    /// chunk holds half of the tokens (1 M values at least, so that a vault of up to about 3,000
    /// notes takes one pass per column); from about 8 M tokens (25,000 notes) all but 4 M values
    /// of the number of tokens, so that a column takes one or two passes. With one slice per
    /// core (`sliceCount`), a rebuild at 10,000 notes peaks lower than it did with a quarter
    /// and twice the slices (Docs/benchmarks.md).
    static func chunkLimit(forwardCount: Int) -> Int {
        max(forwardCount / 2, forwardCount - (4 << 20), 1 << 20)
    }

    /// Consecutive ranges of the items whose elements begin at `starts` (`count + 1` offsets),
    /// each of at most `limit` elements or a single item.
    static func chunks<Offset: BinaryInteger>(_ starts: [Offset], limit: Int) -> [Range<Int>] {
        var chunks: [Range<Int>] = []
        var first = 0
        let count = starts.count - 1
        while first < count {
            var end = first + 1
            while end < count && Int(starts[end + 1] - starts[first]) <= limit { end += 1 }
            chunks.append(first..<end)
            first = end
        }
        return chunks
    }

    /// The slices (by index) each core fills in a pass, whose cost is about their tokens: at
    /// most one group per core, holding about as many tokens each — a pass ends when its
    /// largest group does, and the slices a rebuild's cores took over (`SliceSchedule`) are
    /// of any size (four slices of 40, 10, 25 and 25 % of the tokens, each taken by the
    /// first core free, end at 60 % against 50 % cut as 40 + 10 and 25 + 25). For up to 16
    /// slices on two cores every way of cutting them in two is tried; otherwise each slice,
    /// largest first, goes to the core with the fewest tokens so far.
    static func groups(tokens: [Int], cores: Int) -> [[Int]] {
        let count = tokens.count
        let cores = max(min(cores, count), 1)
        guard cores > 1 else { return count == 0 ? [] : [Array(0..<count)] }
        if cores == 2 && count <= 16 {
            let total = tokens.reduce(0, +)
            var best = (mask: 0, largest: Int.max)
            // The first slice stays in the first group: each cut is tried once.
            for mask in stride(from: 0, to: 1 << count, by: 2) {
                var inSecond = 0
                for index in 0..<count where mask & (1 << index) != 0 { inSecond += tokens[index] }
                let largest = max(inSecond, total - inSecond)
                if largest < best.largest { best = (mask, largest) }
            }
            let second = (0..<count).filter { best.mask & (1 << $0) != 0 }
            let first = (0..<count).filter { best.mask & (1 << $0) == 0 }
            return second.isEmpty ? [first] : [first, second]
        }
        var groups = [[Int]](repeating: [], count: cores)
        var loads = [Int](repeating: 0, count: cores)
        for index in (0..<count).sorted(by: { tokens[$0] > tokens[$1] }) {
            let lightest = loads.indices.min { loads[$0] < loads[$1] } ?? 0
            groups[lightest].append(index)
            loads[lightest] += tokens[index]
        }
        return groups.filter { !$0.isEmpty }.map { $0.sorted() }
    }

    /// The in-memory build of a plan (what `build(slices:)` does once planned).
    private static func assembleInMemory(_ plan: Plan, _ slices: inout [SegmentSlice]) -> IndexSegment {
        let records = WritableColumn<UInt8>(count: plan.recordLayout.bytes)
        plan.fillRecords(slices, into: records.pointer)
        for index in slices.indices { slices[index].releaseRecords() }
        let docs = WritableColumn<UInt32>(count: plan.postingCount)
        let frequencies = WritableColumn<UInt32>(count: plan.postingCount)
        let positions = WritableColumn<UInt32>(count: plan.positionCount)
        let forward = WritableColumn<UInt32>(count: plan.forwardCount)
        let overflow = sortedPairs(plan.fill(&slices, SlicePlaces(docs: docs.pointer, frequencies: frequencies.pointer,
                                                                  positions: positions.pointer, forward: forward.pointer)))
        return IndexSegment(
            records: plan.recordLayout.table(records.column.memory), terms: plan.terms,
            postingStarts: Column(plan.postingStarts), postingDocs: docs.column,
            postingFrequencies: frequencies.column, positions: positions.column,
            termPositionStarts: Column(plan.positionStarts), positionOverflow: Column(overflow),
            forwardStarts: Column(plan.forwardStarts), forward: forward.column,
            titleLengths: Column(plan.titleLengths), lengths: Column(plan.lengths), sortKeys: FlatColumn(plan.sortKeys))
    }

    /// Everything known about a segment before its postings, positions and forward index are
    /// written: the dictionary, where each slice's part of every posting list and of its
    /// positions begins, the per-document columns and where each record goes.
    private struct Plan {
        let terms: TermDictionary
        /// Per slice: its local term ids mapped to the dictionary's (ascending: a slice numbers its
        /// terms anew in the dictionary's order).
        let finalIDs: [[UInt32]]
        /// Per slice: for each local term, where its first posting and position go.
        let cursors: [(postings: [UInt32], positions: [UInt32])]
        let postingStarts: [UInt32]
        let positionStarts: [UInt32]
        let firstDocuments: [Int]
        let firstTokens: [Int]
        let forwardStarts: [UInt32]
        let titleLengths: [UInt32]
        let lengths: [UInt32]
        let sortKeys: [Double]
        let recordLayout: RecordLayout
        /// The slices each core fills in a pass (`SegmentBuilder.groups`).
        let groups: [[Int]]
        var postingCount: Int { Int(postingStarts[postingStarts.count - 1]) }
        var positionCount: Int { Int(positionStarts[positionStarts.count - 1]) }
        var forwardCount: Int { firstTokens[firstTokens.count - 1] }

        /// Plans the slices' segment; the slices give up their term tables.
        init(_ slices: inout [SegmentSlice]) {
            // 1. The dictionary: every distinct term, sorted; each slice's local ids mapped to it.
            // Each slice's local terms are then numbered anew in the dictionary's order, so that
            // a slice's terms of a range of the dictionary are a range of its own ids.
            for index in slices.indices { slices[index].sealTerms() }
            var termCounts = slices.map(\.termCounts)
            var tables = slices.map(\.table)
            let (terms, unsortedIDs, orders) = TermTable.merged(tables)
            self.terms = terms
            tables = []
            for index in slices.indices { slices[index].releaseTable() }
            finalIDs = zip(unsortedIDs, orders).map { ids, order in order.map { ids[Int($0)] } }
            termCounts = zip(termCounts, orders).map { counts, order in order.map { counts[Int($0)] } }
            slices.withUnsafeMutableBufferPointer { buffer in
                let slots = buffer
                ParallelMap.perform(iterations: slots.count) { index in
                    var renumbered = [UInt32](repeating: 0, count: orders[index].count)
                    for (new, old) in orders[index].enumerated() { renumbered[Int(old)] = UInt32(new) }
                    slots[index].renumberTerms(renumbered)
                }
            }
            let termCount = terms.count

            // 2. Where each slice's part of each posting list and of its positions begins.
            var postingStarts = [UInt32](repeating: 0, count: termCount + 1)
            var positionTotals = [UInt32](repeating: 0, count: termCount + 1)
            for (counts, ids) in zip(termCounts, finalIDs) {
                for (local, id) in ids.enumerated() {
                    postingStarts[Int(id) + 1] += counts[local].postings
                    positionTotals[Int(id) + 1] += counts[local].occurrences
                }
            }
            for id in 0..<termCount {
                postingStarts[id + 1] += postingStarts[id]
                positionTotals[id + 1] += positionTotals[id]
            }
            var postingFill = postingStarts
            var positionFill = positionTotals
            var cursors: [(postings: [UInt32], positions: [UInt32])] = []
            for (counts, ids) in zip(termCounts, finalIDs) {
                var postings = [UInt32](repeating: 0, count: ids.count)
                var positions = [UInt32](repeating: 0, count: ids.count)
                for (local, id) in ids.enumerated() {
                    postings[local] = postingFill[Int(id)]
                    positions[local] = positionFill[Int(id)]
                    postingFill[Int(id)] += counts[local].postings
                    positionFill[Int(id)] += counts[local].occurrences
                }
                cursors.append((postings, positions))
            }
            self.cursors = cursors
            self.postingStarts = postingStarts
            positionStarts = positionTotals

            // 3. Per-document columns, slice after slice.
            var firstDocuments: [Int] = [0]
            var firstTokens: [Int] = [0]
            for slice in slices {
                firstDocuments.append(firstDocuments[firstDocuments.count - 1] + slice.count)
                firstTokens.append(firstTokens[firstTokens.count - 1] + slice.forward.count)
            }
            self.firstDocuments = firstDocuments
            self.firstTokens = firstTokens
            let documentCount = firstDocuments[slices.count]
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
            forwardStarts.append(UInt32(firstTokens[slices.count]))
            self.forwardStarts = forwardStarts
            self.titleLengths = titleLengths
            self.lengths = lengths
            self.sortKeys = sortKeys
            recordLayout = RecordLayout(recordBytes: slices.reduce(0) { $0 + $1.records.bytes.count },
                                        count: documentCount)
            groups = SegmentBuilder.groups(tokens: (0..<slices.count).map { firstTokens[$0 + 1] - firstTokens[$0] },
                                           cores: ProcessInfo.processInfo.activeProcessorCount)
        }

        /// Copies the slices' encoded records, each one's offset and the flags to `base`
        /// (`recordLayout.bytes` bytes).
        func fillRecords(_ slices: [SegmentSlice], into base: UnsafeMutablePointer<UInt8>) {
            let base = UnsafeMutableRawPointer(base)
            var filled = 0
            var document = 0
            for slice in slices {
                slice.records.bytes.withUnsafeBytes { bytes in
                    if let source = bytes.baseAddress { (base + filled).copyMemory(from: source, byteCount: bytes.count) }
                }
                for offset in slice.recordOffsets {
                    (base + recordLayout.offsetsStart + document * 8).storeBytes(of: UInt64(filled) + offset, as: UInt64.self)
                    document += 1
                }
                (base + recordLayout.flagsStart + document - slice.count).copyMemory(from: slice.flags, byteCount: slice.count)
                filled += slice.records.bytes.count
            }
        }

        /// Each slice writes its documents' parts of the columns `places` has, on every core.
        /// `keepForward`: the slices keep their forward indexes for another pass (else they give
        /// them up as they go, each once its documents are all placed). Returns the postings whose
        /// occurrences are capped, with their number of positions: (slot, count) pairs, when
        /// `places` has frequencies.
        func fill(_ slices: inout [SegmentSlice], _ places: SlicePlaces, keepForward: Bool = false) -> [UInt32] {
            var overflows = [[UInt32]](repeating: [], count: slices.count)
            overflows.withUnsafeMutableBufferPointer { overflowBuffer in
                let overflowSlots = overflowBuffer
                slices.withUnsafeMutableBufferPointer { buffer in
                    let slots = buffer
                    ParallelMap.perform(iterations: groups.count) { group in
                        for index in groups[group] {
                            overflowSlots[index] = places.fill(slots[index], ids: finalIDs[index], cursor: cursors[index],
                                                               firstDocument: firstDocuments[index],
                                                               firstToken: firstTokens[index], releasing: !keepForward)
                            if !keepForward && firstDocuments[index + 1] <= places.documentRange.upperBound {
                                slots[index].releaseForward()
                            }
                        }
                    }
                }
            }
            return overflows.flatMap { $0 }
        }

        /// The forward index of the chunk of documents `places` has, in pieces of about as many
        /// tokens on every core: a chunk of documents mostly lies in one slice, whose documents
        /// one core alone would place while the others wait. A slice gives up its forward index
        /// once its documents are all placed (the pieces give its pages back as they go: each only
        /// the whole pages of its own documents, so no piece loses a page another still reads).
        func fillForward(_ slices: inout [SegmentSlice], _ places: SlicePlaces) {
            let range = places.documentRange
            let total = Int(forwardStarts[range.upperBound] - forwardStarts[range.lowerBound])
            let pieceTokens = max(total / (4 * ProcessInfo.processInfo.activeProcessorCount), 1 << 16)
            var pieces: [(slice: Int, documents: Range<Int>)] = []
            for slice in slices.indices {
                let upper = min(range.upperBound, firstDocuments[slice + 1])
                var start = max(range.lowerBound, firstDocuments[slice])
                while start < upper {
                    var end = start + 1
                    while end < upper && Int(forwardStarts[end] - forwardStarts[start]) < pieceTokens { end += 1 }
                    pieces.append((slice, start..<end))
                    start = end
                }
            }
            slices.withUnsafeMutableBufferPointer { buffer in
                let slots = buffer
                ParallelMap.perform(iterations: pieces.count) { index in
                    let (slice, documents) = pieces[index]
                    var piece = places
                    piece.documentRange = documents
                    _ = piece.fill(slots[slice], ids: finalIDs[slice], cursor: cursors[slice],
                                   firstDocument: firstDocuments[slice], firstToken: firstTokens[slice], releasing: true)
                }
            }
            for slice in slices.indices where firstDocuments[slice + 1] <= range.upperBound {
                slices[slice].releaseForward()
            }
        }

        /// Places for the chunk `terms` of the postings' documents or frequencies, or of the
        /// positions, in a buffer that starts at the chunk's first element.
        func places(docs: UnsafeMutablePointer<UInt32>? = nil, frequencies: UnsafeMutablePointer<UInt32>? = nil,
                    positions: UnsafeMutablePointer<UInt32>? = nil, terms: Range<Int>) -> SlicePlaces {
            var places = SlicePlaces(docs: docs, frequencies: frequencies, positions: positions)
            places.termRange = UInt32(terms.lowerBound)..<UInt32(terms.upperBound)
            places.postingOrigin = Int(postingStarts[terms.lowerBound])
            places.positionOrigin = Int(positionStarts[terms.lowerBound])
            return places
        }

        /// Places for the forward index of the chunk `documents`, in a buffer that starts at the
        /// chunk's first token.
        func places(forward: UnsafeMutablePointer<UInt32>, documents: Range<Int>) -> SlicePlaces {
            var places = SlicePlaces(forward: forward)
            places.documentRange = documents
            places.forwardOrigin = Int(forwardStarts[documents.lowerBound])
            return places
        }
    }

    /// Where a segment's records, their offsets and their flags go in one block (as in a
    /// cache file, where the three sections follow one another).
    struct RecordLayout {
        let recordBytes: Int
        let count: Int
        var offsetsStart: Int { (recordBytes + 7) & ~7 }
        var flagsStart: Int { offsetsStart + count * 8 }
        var bytes: Int { flagsStart + count }

        /// The records in `memory` (decoded when first asked for, like records loaded from a
        /// cache file).
        func table(_ memory: ColumnMemory) -> RecordTable {
            RecordTable(encoded: memory, recordsOffset: 0, recordsLength: recordBytes,
                        offsetsOffset: offsetsStart, flagsOffset: flagsStart, count: count)
        }
    }

    /// (slot, count) pairs sorted by slot.
    private static func sortedPairs(_ flat: [UInt32]) -> [UInt32] {
        let order = stride(from: 0, to: flat.count, by: 2).sorted { flat[$0] < flat[$1] }
        return order.flatMap { [flat[$0], flat[$0 + 1]] }
    }
}

/// The columns a slice writes into (each slice to places no other slice writes): all of them
/// in one pass, or some in each of several passes — and of those, a chunk: the postings and
/// positions of a range of terms, or the forward index of a range of documents, each pointer
/// then standing for its column's element `origin` onwards.
private struct SlicePlaces: @unchecked Sendable {
    var docs: UnsafeMutablePointer<UInt32>?
    var frequencies: UnsafeMutablePointer<UInt32>?
    var positions: UnsafeMutablePointer<UInt32>?
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
    /// `title << 24 | other` occurrences), each posting's positions, the forward index (final
    /// ids). `releasing`: gives the slice's forward index back to the system as it goes (the
    /// last pass). Returns the postings whose occurrences are capped, with their number of
    /// positions: (slot, count) pairs.
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
                            positions[Int(terms[term].position) &- positionOrigin] = UInt32(truncatingIfNeeded: position &- start)
                            terms[term].position &+= 1
                        }
                    }
                    for term in touched[..<touchedCount] {
                        let (title, other) = (terms[term].title, terms[term].other)
                        frequencies?[Int(terms[term].posting) &- postingOrigin] = min(title, 255) << 24 | min(other, 0xFF_FFFF)
                        if title >= 255 || other >= 0xFF_FFFF { overflow += [terms[term].posting, title &+ other] }
                        terms[term].posting &+= 1
                    }
                }
            }
        }
        return overflow
    }
}
