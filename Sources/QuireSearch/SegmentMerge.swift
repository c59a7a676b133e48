import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// Segments merged into one, written straight into a new base snapshot (`SnapshotFile`) the
/// way `SegmentBuilder` would write the same documents: a k-way merge of the sorted term
/// dictionaries (a term no kept document holds is left out), then, chunk by chunk of terms, each
/// term's postings from every segment with their document renumbered (and their frequencies and
/// positions copied as they are), and chunk by chunk of documents, each document's forward index
/// with its term ids renumbered and its encoded record copied byte for byte. The segments are
/// read in place (a mapped base gives its pages back as the merge goes) and nothing is decoded:
/// what is held is a few numbers per term and per document and one chunk's buffer.
struct SegmentMerge {
    /// One segment merged, and each of its documents' number in the merged segment (-1: left out).
    struct Source {
        let segment: IndexSegment
        let documents: [Int32]
    }

    private let sources: [Source]
    /// The merged documents in order: the source and its document.
    private let order: [(source: Int32, document: Int32)]
    private let termBytes: [UInt8]
    private let termOffsets: [UInt32]
    /// Per source: each of its terms' id in the merged dictionary (`UInt32.max`: left out).
    private let termMaps: [[UInt32]]
    /// Per source: each merged term's id there (`UInt32.max`: the source has none).
    private let sourceTerms: [[UInt32]]
    private let postingStarts: [UInt32]
    private let positionStarts: [UInt32]

    /// Plans the merge of the documents `order` names (each a source's document, given in
    /// `sources[source].documents` the position it has in `order`).
    init(_ sources: [Source], order: [(source: Int32, document: Int32)]) {
        self.sources = sources
        self.order = order
        // Per source term: its postings and positions in documents kept.
        let counts = sources.map(Self.keptCounts)
        var bytes: [UInt8] = []
        var offsets: [UInt32] = [0]
        var maps = sources.map { [UInt32](repeating: .max, count: $0.segment.terms.count) }
        var inverse = [[UInt32]](repeating: [], count: sources.count)
        var postings: [UInt32] = [0]
        var positions: [UInt32] = [0]
        var next = [Int](repeating: 0, count: sources.count)
        while true {
            for index in sources.indices {
                while next[index] < counts[index].postings.count && counts[index].postings[next[index]] == 0 { next[index] += 1 }
            }
            var smallest = -1
            for index in sources.indices where next[index] < counts[index].postings.count {
                if smallest < 0 || Self.precedes(sources[index].segment.terms, next[index],
                                                 sources[smallest].segment.terms, next[smallest]) {
                    smallest = index
                }
            }
            guard smallest >= 0 else { break }
            let id = UInt32(offsets.count - 1)
            let head = next[smallest]
            Self.withTerm(sources[smallest].segment.terms, head) { bytes.append(contentsOf: $0) }
            offsets.append(UInt32(bytes.count))
            var (termPostings, termPositions) = (postings[postings.count - 1], positions[positions.count - 1])
            for index in sources.indices {
                let local = next[index]
                let same = index == smallest || (local < counts[index].postings.count
                    && !Self.precedes(sources[smallest].segment.terms, head, sources[index].segment.terms, local))
                guard same else {
                    inverse[index].append(.max)
                    continue
                }
                maps[index][local] = id
                inverse[index].append(UInt32(local))
                termPostings += counts[index].postings[local]
                termPositions += counts[index].positions[local]
                next[index] += 1
            }
            postings.append(termPostings)
            positions.append(termPositions)
        }
        termBytes = bytes
        termOffsets = offsets
        termMaps = maps
        sourceTerms = inverse
        postingStarts = postings
        positionStarts = positions
    }

    /// Per term of `source`: how many of its postings, and of their positions, are in
    /// documents kept (counted on every core; a mapped segment's pages are given back as it goes).
    private static func keptCounts(_ source: Source) -> (postings: [UInt32], positions: [UInt32]) {
        let segment = source.segment
        let frequencies = segment.frequencies
        let terms = segment.terms.count
        var postings = [UInt32](repeating: 0, count: terms)
        var positions = [UInt32](repeating: 0, count: terms)
        let parts = max(min(terms / 4096, 64), 1)
        postings.withUnsafeMutableBufferPointer { postingBuffer in
            positions.withUnsafeMutableBufferPointer { positionBuffer in
                let (postingSlots, positionSlots) = (postingBuffer, positionBuffer)
                ParallelMap.perform(iterations: parts) { part in
                    for term in terms * part / parts..<terms * (part + 1) / parts {
                        var (kept, keptPositions) = (UInt32(0), UInt32(0))
                        let slots = segment.postings(term)
                        var escapes = frequencies.cursor(from: slots.lowerBound)
                        for posting in slots {
                            let document = Int(segment.postingDocs[posting])
                            let positionCount = frequencies.read(posting, &escapes).positions
                            guard document < source.documents.count, source.documents[document] >= 0 else { continue }
                            kept += 1
                            keptPositions += UInt32(positionCount)
                        }
                        postingSlots[term] = kept
                        positionSlots[term] = keptPositions
                    }
                    segment.releaseReadPages()
                }
            }
        }
        return (postings, positions)
    }

    /// Writes the merged segment into a new base snapshot at `path`, in chunks of at most
    /// `chunkLimit` values; returns the segment, which reads the file, and what was written.
    /// Nil when the file cannot be made (nothing written: the caller merges in memory); throws
    /// when writing fails midway. `inPlace`: the chunks are built in the file's mapping where it
    /// has one (else in a buffer written in).
    func write(to path: String, chunkLimit: Int,
               inPlace: Bool = true) throws(CacheError) -> (IndexSegment, SegmentBuilder.WrittenBase?)? {
        let documents = DocumentColumns(sources, order)
        let lengths = CatalogCache.Section.allCases.map { section -> Int in
            switch section {
            case .records: return documents.recordBytes
            case .recordOffsets: return order.count * 8
            case .flags: return order.count
            case .termBytes: return termBytes.count
            case .termOffsets: return termOffsets.count * 4
            case .postingStarts: return postingStarts.count * 4
            case .postingDocs: return Int(postingStarts[postingStarts.count - 1]) * 4
            case .postingFrequencies: return Int(postingStarts[postingStarts.count - 1])
            case .positions: return Int(positionStarts[positionStarts.count - 1]) * 2
            case .termPositionStarts: return positionStarts.count * 4
            case .postingOverflow: return 0
            case .forwardStarts: return documents.forwardStarts.count * 4
            case .forward: return Int(documents.forwardStarts[documents.forwardStarts.count - 1]) * 4
            case .titleLengths: return documents.titleLengths.count * 4
            case .lengths: return documents.lengths.count * 4
            case .sortKeys: return documents.sortKeys.count * 8
            case .pathOffsets: return documents.paths.offsets.count * 8
            case .pathBytes: return documents.paths.bytes.count
            }
        }
        guard let file = try? SnapshotFile(path: path, kind: .base, lengths: lengths,
                                           late: CatalogCache.Section.postingOverflow.rawValue, inPlace: inPlace) else { return nil }
        try documents.writeRecords(sources, order, to: file, limit: min(chunkLimit * 4, 4 << 20))
        try file.write(.recordOffsets, documents.recordOffsets)
        try file.write(.flags, documents.flags)
        try file.write(.termBytes, termBytes)
        try file.write(.termOffsets, termOffsets)
        try file.write(.postingStarts, postingStarts)
        try file.write(.termPositionStarts, positionStarts)
        try file.write(.forwardStarts, documents.forwardStarts)
        try file.write(.titleLengths, documents.titleLengths)
        try file.write(.lengths, documents.lengths)
        try file.write(.sortKeys, documents.sortKeys)
        try file.write(.pathOffsets, documents.paths.offsets)
        try file.write(.pathBytes, documents.paths.bytes)
        let limit = max(chunkLimit, 1)
        let termChunks = self.termChunks(limit: limit)
        let documentChunks = SegmentBuilder.chunks(documents.forwardStarts, limit: limit)
        func span(_ starts: [UInt32], _ chunk: Range<Int>) -> Int { Int(starts[chunk.upperBound] - starts[chunk.lowerBound]) }
        let largest = max(termChunks.map { 2 * span(postingStarts, $0) + (span(positionStarts, $0) + 1) / 2 }.max() ?? 0,
                          documentChunks.map { span(documents.forwardStarts, $0) }.max() ?? 0)
        // One buffer for every chunk: a chunk of terms' documents (u32), positions (u16) and
        // frequencies (u8: `SegmentBuilder.postingPlaces`), or a chunk of documents' forward index (u32).
        // (Built in place in the file's mapping where it has one instead.)
        let storage = WritableColumn<UInt32>(count: file.mapping == nil ? max(largest, 1) : 1)
        defer { withExtendedLifetime(storage) {} }
        let buffer = UnsafeMutableRawPointer(storage.pointer)
        var overflow: [UInt32] = []
        for chunk in termChunks {
            let (firstPosting, firstPosition) = (Int(postingStarts[chunk.lowerBound]), Int(positionStarts[chunk.lowerBound]))
            let (postings, positionCount) = (span(postingStarts, chunk), span(positionStarts, chunk))
            let (docs, positions, frequencies) = file.postingPlaces(firstPosting: firstPosting, firstPosition: firstPosition)
                ?? SegmentBuilder.postingPlaces(buffer, postings: postings, positions: positionCount)
            overflow += fillPostings(chunk, docs: docs, frequencies: frequencies, positions: positions)
            try file.write(.postingDocs, from: firstPosting, UnsafeBufferPointer(start: docs, count: postings))
            try file.write(.postingFrequencies, from: firstPosting, UnsafeBufferPointer(start: frequencies, count: postings))
            try file.write(.positions, from: firstPosition, UnsafeBufferPointer(start: positions, count: positionCount))
            for source in sources { source.segment.releaseReadPages() }
        }
        for chunk in documentChunks {
            let first = Int(documents.forwardStarts[chunk.lowerBound])
            let forward = file.place(.forward, from: first, as: UInt32.self)
                ?? buffer.bindMemory(to: UInt32.self, capacity: span(documents.forwardStarts, chunk))
            documents.fillForward(sources, order, termMaps, chunk, into: forward)
            try file.write(.forward, from: first, UnsafeBufferPointer(start: forward, count: span(documents.forwardStarts, chunk)))
            for source in sources { source.segment.releaseReadPages() }
        }
        try file.appendLate(overflow)
        let (memory, sections) = try file.finish()
        let segment = try CatalogCache.segment(memory, sections)
        do {
            let removal = try file.install()
            return (segment, SegmentBuilder.WrittenBase(id: file.id, removal: removal))
        } catch {
            return (segment, nil)  // the segment reads the file, which stays until unmapped
        }
    }

    /// The merged segment built in memory, as `SegmentBuilder.build(notes:)` builds the same
    /// documents in this order (no path column, the records decoded from their bytes): what an
    /// update that keeps recent changes does (`Catalog.mergeRecentChanges`), copying the kept
    /// documents' postings, positions, forward index and records instead of replaying their
    /// tokens into a new build.
    func build() -> IndexSegment {
        let documents = DocumentColumns(sources, order, paths: false)
        let layout = SegmentBuilder.RecordLayout(recordBytes: documents.recordBytes, count: order.count)
        let records = WritableColumn<UInt8>(count: layout.bytes, hugePages: false)
        let recordBase = UnsafeMutableRawPointer(records.pointer)
        for (index, (source, document)) in order.enumerated() {
            let bytes = DocumentColumns.record(sources[Int(source)].segment, Int(document))
            if let start = bytes.baseAddress, !bytes.isEmpty {
                (recordBase + Int(documents.recordOffsets[index])).copyMemory(from: start, byteCount: bytes.count)
            }
        }
        documents.recordOffsets.withUnsafeBytes { offsets in
            if let start = offsets.baseAddress { (recordBase + layout.offsetsStart).copyMemory(from: start, byteCount: offsets.count) }
        }
        documents.flags.withUnsafeBytes { flags in
            if let start = flags.baseAddress { (recordBase + layout.flagsStart).copyMemory(from: start, byteCount: flags.count) }
        }
        let postingCount = Int(postingStarts[postingStarts.count - 1])
        let docs = WritableColumn<UInt32>(count: postingCount, hugePages: false)
        let frequencies = WritableColumn<UInt8>(count: postingCount, hugePages: false)
        let positions = WritableColumn<UInt16>(count: Int(positionStarts[positionStarts.count - 1]), hugePages: false)
        let overflow = fillPostings(0..<(postingStarts.count - 1), docs: docs.pointer, frequencies: frequencies.pointer,
                                    positions: positions.pointer)
        let forward = WritableColumn<UInt32>(count: Int(documents.forwardStarts[documents.forwardStarts.count - 1]), hugePages: false)
        documents.fillForward(sources, order, termMaps, 0..<order.count, into: forward.pointer)
        return IndexSegment(
            records: layout.table(records.column.memory),
            terms: TermDictionary(bytes: ByteColumn(termBytes), offsets: Column(termOffsets)),
            postingStarts: Column(postingStarts), postingDocs: docs.column,
            postingFrequencies: frequencies.column, positions: positions.column,
            termPositionStarts: Column(positionStarts), postingOverflow: Column(PostingFrequencies.sortedOverflow(overflow)),
            forwardStarts: Column(documents.forwardStarts), forward: forward.column,
            titleLengths: Column(documents.titleLengths), lengths: Column(documents.lengths),
            sortKeys: FlatColumn(documents.sortKeys))
    }

    /// The u32 values the postings of the merged terms before `term` fill: two a posting (its
    /// document and frequencies), a half a position.
    private func termWeight(_ term: Int) -> Int { 2 * Int(postingStarts[term]) + Int(positionStarts[term]) / 2 }

    /// The merged terms cut into chunks of at most `limit` values (a larger term alone), as
    /// `SegmentBuilder.chunks` cuts them, without an array of every term's weight.
    private func termChunks(limit: Int) -> [Range<Int>] {
        var chunks: [Range<Int>] = []
        var first = 0
        let count = postingStarts.count - 1
        while first < count {
            var end = first + 1
            while end < count && termWeight(end + 1) - termWeight(first) <= limit { end += 1 }
            chunks.append(first..<end)
            first = end
        }
        return chunks
    }

    /// The postings' documents, frequencies and positions of the merged terms `chunk` from
    /// `docs`, `frequencies` and `positions`, filled on every core. Returns the postings whose
    /// occurrences do not fit their byte: the overflow table's triples (`PostingFrequencies`),
    /// slots ascending. The sources' columns are read through plain pointers (`PostingColumns`): a
    /// segment copied per term and per posting cost a quarter of a 10,000-note sync's CPU in
    /// reference counting.
    private func fillPostings(_ chunk: Range<Int>, docs: UnsafeMutablePointer<UInt32>, frequencies: UnsafeMutablePointer<UInt8>,
                              positions: UnsafeMutablePointer<UInt16>) -> [UInt32] {
        let (firstPosting, firstPosition) = (Int(postingStarts[chunk.lowerBound]), Int(positionStarts[chunk.lowerBound]))
        let parts = max(min(chunk.count / 1024, 16), 1)
        var overflows = [[UInt32]](repeating: [], count: parts)
        let columns = sources.map { PostingColumns($0.segment) }
        overflows.withUnsafeMutableBufferPointer { buffer in
            let results = buffer
            ParallelMap.perform(iterations: parts) { part in
                var entries: [(document: Int32, source: Int32, frequency: UInt32, position: Int, count: Int)] = []
                var overflow: [UInt32] = []
                let start = chunk.lowerBound + chunk.count * part / parts
                for term in start..<chunk.lowerBound + chunk.count * (part + 1) / parts {
                    entries.removeAll(keepingCapacity: true)
                    for index in sources.indices where sourceTerms[index][term] != .max {
                        let source = columns[index]
                        let local = Int(sourceTerms[index][term])
                        var position = Int(source.termPositionStarts[local])
                        let slots = source.postings(local)
                        var escapes = source.frequencies.cursor(from: slots.lowerBound)
                        sources[index].documents.withUnsafeBufferPointer { kept in
                            for posting in slots {
                                let (frequency, count) = source.frequencies.read(posting, &escapes)
                                let document = Int(source.docs[posting])
                                if document < kept.count, kept[document] >= 0 {
                                    entries.append((kept[document], Int32(index), frequency, position, count))
                                }
                                position += count
                            }
                        }
                    }
                    if !entries.isEmpty && !zip(entries, entries.dropFirst()).allSatisfy({ $0.document < $1.document }) {
                        entries.sort { $0.document < $1.document }
                    }
                    var slot = Int(postingStarts[term])
                    var place = Int(positionStarts[term]) - firstPosition
                    for entry in entries {
                        docs[slot - firstPosting] = UInt32(entry.document)
                        let (title, other) = (entry.frequency >> 24, entry.frequency & 0xFF_FFFF)
                        let byte = entry.count == Int(title + other) ? PostingFrequencies.byte(title: title, other: other) : nil
                        frequencies[slot - firstPosting] = byte ?? PostingFrequencies.escape
                        (positions + place).update(from: columns[Int(entry.source)].positions + entry.position, count: entry.count)
                        if byte == nil { overflow += [UInt32(slot), entry.frequency, UInt32(entry.count)] }
                        slot += 1
                        place += entry.count
                    }
                }
                results[part] = overflow
            }
        }
        return overflows.flatMap { $0 }
    }

    /// Whether term `id` of `terms` sorts before term `otherID` of `other` (bytewise, a shorter
    /// term before the longer ones it begins).
    private static func precedes(_ terms: TermDictionary, _ id: Int, _ other: TermDictionary, _ otherID: Int) -> Bool {
        withTerm(terms, id) { left in
            withTerm(other, otherID) { right in
                let common = min(left.count, right.count)
                if common > 0, let leftBase = left.baseAddress, let rightBase = right.baseAddress {
                    let order = memcmp(leftBase, rightBase, common)
                    if order != 0 { return order < 0 }
                }
                return left.count < right.count
            }
        }
    }

    private static func withTerm<T>(_ terms: TermDictionary, _ id: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        let span = terms.offsets.span(id, limit: terms.bytes.count)
        return body(UnsafeBufferPointer(start: terms.bytes.pointer + span.lowerBound, count: span.count))
    }
}
