import Foundation
import QuireCore

extension SegmentBuilder {
    /// Everything known about a segment before its postings, positions and forward index are
    /// written: the dictionary, where each slice's part of every posting list and of its
    /// positions begins, the per-document columns and where each record goes.
    struct Plan {
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
        /// occurrences do not fit their byte, as the overflow table's triples
        /// (`PostingFrequencies`), when `places` has postings.
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
        func places(docs: UnsafeMutablePointer<UInt32>? = nil, frequencies: UnsafeMutablePointer<UInt8>? = nil,
                    positions: UnsafeMutablePointer<UInt16>? = nil, terms: Range<Int>) -> SlicePlaces {
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
}
