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
    /// `inPlace`: the large columns are built in the file's mapping where it has one (else in a
    /// buffer written in: what a file without reserved blocks gets).
    static func build(slices: inout [SegmentSlice], snapshot path: String, chunkLimit wanted: Int? = nil,
                      inPlace: Bool = true) throws(CacheError) -> (IndexSegment, WrittenBase?) {
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
            case .postingDocs: return plan.postingCount * 4
            case .postingFrequencies: return plan.postingCount
            case .positions: return plan.positionCount * 2
            case .termPositionStarts: return plan.positionStarts.count * 4
            case .postingOverflow: return 0
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
                                           late: CatalogCache.Section.postingOverflow.rawValue, inPlace: inPlace) else {
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
        // postings' documents, their positions (two a u32 value) and their frequencies (a byte
        // each, which find the overflow entries) in one pass, one after the other in the buffer. The slices
        // give up their forward indexes in the forward index's passes, the last ones.
        let limit = max(wanted ?? chunkLimit(forwardCount: plan.forwardCount), 1)
        let termWeights = zip(plan.postingStarts, plan.positionStarts).map { 2 * Int($0) + Int($1) / 2 }
        let termChunks = chunks(termWeights, limit: limit)
        let documentChunks = chunks(plan.forwardStarts, limit: limit)
        func span(_ starts: [UInt32], _ chunk: Range<Int>) -> Int { Int(starts[chunk.upperBound] - starts[chunk.lowerBound]) }
        let largest = max(termChunks.map { 2 * span(plan.postingStarts, $0) + (span(plan.positionStarts, $0) + 1) / 2 }.max() ?? 0,
                          documentChunks.map { span(plan.forwardStarts, $0) }.max() ?? 0)
        // Built in place in the file's mapping where it has one, else in this buffer.
        let storage = WritableColumn<UInt32>(count: file.mapping == nil ? largest : 0)
        defer { withExtendedLifetime(storage) {} }
        let buffer = UnsafeMutableRawPointer(storage.pointer)
        var overflow: [UInt32] = []
        for chunk in termChunks {
            let (firstPosting, firstPosition) = (Int(plan.postingStarts[chunk.lowerBound]), Int(plan.positionStarts[chunk.lowerBound]))
            let (postings, positionCount) = (span(plan.postingStarts, chunk), span(plan.positionStarts, chunk))
            let (docs, positions, frequencies) = file.postingPlaces(firstPosting: firstPosting, firstPosition: firstPosition)
                ?? Self.postingPlaces(buffer, postings: postings, positions: positionCount)
            overflow += plan.fill(&slices, plan.places(docs: docs, frequencies: frequencies, positions: positions,
                                                       terms: chunk), keepForward: true)
            try file.write(.postingDocs, from: firstPosting, UnsafeBufferPointer(start: docs, count: postings))
            try file.write(.postingFrequencies, from: firstPosting, UnsafeBufferPointer(start: frequencies, count: postings))
            try file.write(.positions, from: firstPosition, UnsafeBufferPointer(start: positions, count: positionCount))
        }
        for chunk in documentChunks {
            let first = Int(plan.forwardStarts[chunk.lowerBound])
            let forward = file.place(.forward, from: first, as: UInt32.self)
                ?? buffer.bindMemory(to: UInt32.self, capacity: span(plan.forwardStarts, chunk))
            plan.fillForward(&slices, plan.places(forward: forward, documents: chunk))
            try file.write(.forward, from: first, UnsafeBufferPointer(start: forward, count: span(plan.forwardStarts, chunk)))
        }
        overflow = PostingFrequencies.sortedOverflow(overflow)
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

    /// Where a chunk of `postings` postings and `positions` positions goes in a buffer of at
    /// least `2 * postings + (positions + 1) / 2` u32 values: the documents (u32), the positions
    /// (u16), then the frequencies (a byte each).
    static func postingPlaces(_ buffer: UnsafeMutableRawPointer, postings: Int, positions: Int)
        -> (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt16>, UnsafeMutablePointer<UInt8>) {
        (buffer.bindMemory(to: UInt32.self, capacity: postings),
         (buffer + 4 * postings).bindMemory(to: UInt16.self, capacity: positions),
         (buffer + 4 * postings + 2 * positions).bindMemory(to: UInt8.self, capacity: postings))
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
        let frequencies = WritableColumn<UInt8>(count: plan.postingCount)
        let positions = WritableColumn<UInt16>(count: plan.positionCount)
        let forward = WritableColumn<UInt32>(count: plan.forwardCount)
        let overflow = PostingFrequencies.sortedOverflow(plan.fill(&slices, SlicePlaces(docs: docs.pointer, frequencies: frequencies.pointer,
                                                                  positions: positions.pointer, forward: forward.pointer)))
        return IndexSegment(
            records: plan.recordLayout.table(records.column.memory), terms: plan.terms,
            postingStarts: Column(plan.postingStarts), postingDocs: docs.column,
            postingFrequencies: frequencies.column, positions: positions.column,
            termPositionStarts: Column(plan.positionStarts), postingOverflow: Column(overflow),
            forwardStarts: Column(plan.forwardStarts), forward: forward.column,
            titleLengths: Column(plan.titleLengths), lengths: Column(plan.lengths), sortKeys: FlatColumn(plan.sortKeys))
    }
}
