/// Builds an `IndexSegment` from analyzed notes (in the order given).
struct SegmentBuilder {
    private let notes: [AnalyzedNote]

    init(notes: [AnalyzedNote]) {
        self.notes = notes
    }

    func build() -> IndexSegment {
        // 1. Temporary ids in order of first appearance; the forward index in temporary ids.
        var table = TermTable()
        var forward: [UInt32] = []
        forward.reserveCapacity(notes.reduce(0) { $0 + $1.stream.count + $1.stream.fieldEnds.count })
        var forwardStarts: [UInt32] = [0]
        var titleLengths: [UInt32] = []
        var lengths: [UInt32] = []
        for note in notes {
            let stream = note.stream
            stream.bytes.withUnsafeBufferPointer { bytes in
                var token = 0
                var start = 0
                for (field, fieldEnd) in stream.fieldEnds.enumerated() {
                    if field > 0 { forward.append(IndexSegment.separator) }
                    while token < Int(fieldEnd) {
                        let end = Int(stream.ends[token])
                        forward.append(table.id(for: UnsafeBufferPointer(rebasing: bytes[start..<end])))
                        start = end
                        token += 1
                    }
                }
            }
            forwardStarts.append(UInt32(forward.count))
            titleLengths.append(UInt32(stream.titleCount))
            lengths.append(UInt32(stream.textCount))
        }

        // 2. Final ids: terms sorted bytewise, so that a prefix is a range of ids.
        let termCount = table.count
        let order = (0..<termCount).sorted { table.term($0).lexicographicallyPrecedes(table.term($1)) }
        var finalID = [UInt32](repeating: 0, count: termCount)
        var termBytes: [UInt8] = []
        termBytes.reserveCapacity(table.bytes.count)
        var termOffsets: [UInt32] = [0]
        termOffsets.reserveCapacity(termCount + 1)
        for (rank, temporary) in order.enumerated() {
            finalID[temporary] = UInt32(rank)
            termBytes.append(contentsOf: table.term(temporary))
            termOffsets.append(UInt32(termBytes.count))
        }
        table = TermTable()

        // 3. Final ids in the forward index; each document's term frequencies.
        var postingCounts = [UInt32](repeating: 0, count: termCount + 1)
        var occurrences = [UInt32](repeating: 0, count: termCount + 1)
        var titleCounts = [UInt32](repeating: 0, count: termCount)
        var otherCounts = [UInt32](repeating: 0, count: termCount)
        var packed: [UInt32] = []
        var packedStarts: [Int] = [0]
        var touched: [UInt32] = []
        for document in 0..<notes.count {
            touched.removeAll(keepingCapacity: true)
            let start = Int(forwardStarts[document])
            let titleEnd = start + Int(titleLengths[document])
            for position in start..<Int(forwardStarts[document + 1]) {
                let temporary = forward[position]
                guard temporary != IndexSegment.separator else { continue }
                let id = finalID[Int(temporary)]
                forward[position] = id
                if titleCounts[Int(id)] == 0 && otherCounts[Int(id)] == 0 { touched.append(id) }
                if position < titleEnd { titleCounts[Int(id)] += 1 } else { otherCounts[Int(id)] += 1 }
            }
            touched.sort()
            for id in touched {
                packed.append(id)
                packed.append(min(titleCounts[Int(id)], 255) << 24 | min(otherCounts[Int(id)], 0xFF_FFFF))
                occurrences[Int(id) + 1] += titleCounts[Int(id)] + otherCounts[Int(id)]
                titleCounts[Int(id)] = 0
                otherCounts[Int(id)] = 0
                postingCounts[Int(id) + 1] += 1
            }
            packedStarts.append(packed.count)
        }

        titleCounts = []
        otherCounts = []
        finalID = []
        // 4. Postings, documents ascending within each term.
        for id in 0..<termCount { postingCounts[id + 1] += postingCounts[id] }
        var fill = Array(postingCounts.dropLast())
        let total = Int(postingCounts[termCount])
        var postingDocs = [UInt32](repeating: 0, count: total)
        var postingFrequencies = [UInt32](repeating: 0, count: total)
        for document in 0..<notes.count {
            var index = packedStarts[document]
            while index < packedStarts[document + 1] {
                let id = Int(packed[index])
                let slot = Int(fill[id])
                postingDocs[slot] = UInt32(document)
                postingFrequencies[slot] = packed[index + 1]
                fill[id] += 1
                index += 2
            }
        }
        packed = []
        fill = []
        let docsColumn = Column(postingDocs)
        postingDocs = []
        let frequenciesColumn = Column(postingFrequencies)
        postingFrequencies = []

        // 5. Positions, term-major like the postings: the positions of term t in document d
        // (relative to d's forward start) are positions[positionStarts[slot]..<…[slot + 1]].
        for id in 0..<termCount { occurrences[id + 1] += occurrences[id] }
        var writeCursor = Array(occurrences.dropLast())
        var slotCursor = Array(postingCounts.dropLast())
        var lastDocument = [Int32](repeating: -1, count: termCount)
        var positions = [UInt32](repeating: 0, count: Int(occurrences[termCount]))
        var positionStarts = [UInt32](repeating: 0, count: total + 1)
        positionStarts[total] = occurrences[termCount]
        for document in 0..<notes.count {
            let start = Int(forwardStarts[document])
            for position in start..<Int(forwardStarts[document + 1]) {
                let id = forward[position]
                guard id != IndexSegment.separator else { continue }
                if lastDocument[Int(id)] != Int32(document) {
                    lastDocument[Int(id)] = Int32(document)
                    positionStarts[Int(slotCursor[Int(id)])] = writeCursor[Int(id)]
                    slotCursor[Int(id)] += 1
                }
                positions[Int(writeCursor[Int(id)])] = UInt32(position - start)
                writeCursor[Int(id)] += 1
            }
        }
        writeCursor = []
        slotCursor = []
        lastDocument = []
        let positionsColumn = Column(positions)
        positions = []
        let positionStartsColumn = Column(positionStarts)
        positionStarts = []
        let forwardColumn = Column(forward)
        forward = []
        let forwardStartsColumn = Column(forwardStarts)
        forwardStarts = []
        return IndexSegment(
            records: RecordTable(notes.map(\.record)),
            terms: TermDictionary(bytes: ByteColumn(termBytes), offsets: Column(termOffsets)),
            postingStarts: Column(postingCounts), postingDocs: docsColumn,
            postingFrequencies: frequenciesColumn, positionStarts: positionStartsColumn,
            positions: positionsColumn, forwardStarts: forwardStartsColumn,
            forward: forwardColumn, titleLengths: Column(titleLengths), lengths: Column(lengths),
            sortKeys: FlatColumn(IndexSegment.sortKeys(of: notes.map(\.record))))
    }
}
