/// Builds an `IndexSegment` from analyzed notes (in the order given).
struct SegmentBuilder {
    private let notes: [AnalyzedNote]

    init(notes: [AnalyzedNote]) {
        self.notes = notes
    }

    func build() -> IndexSegment {
        // 1. Temporary ids in order of first appearance.
        var temporaryIDs: [String: UInt32] = [:]
        var temporaryTerms: [String] = []
        var streams: [[UInt32]] = []
        streams.reserveCapacity(notes.count)
        var titleLengths: [UInt32] = []
        var lengths: [UInt32] = []
        for note in notes {
            var stream: [UInt32] = []
            var length = 0
            for (index, field) in note.fields.enumerated() {
                if index > 0 { stream.append(IndexSegment.separator) }
                for term in field {
                    if let id = temporaryIDs[term] {
                        stream.append(id)
                    } else {
                        let id = UInt32(temporaryTerms.count)
                        temporaryIDs[term] = id
                        temporaryTerms.append(term)
                        stream.append(id)
                    }
                }
                length += field.count
            }
            titleLengths.append(UInt32(note.fields.first?.count ?? 0))
            lengths.append(UInt32(length))
            streams.append(stream)
        }
        temporaryIDs = [:]

        // 2. Final ids: terms sorted bytewise, so that a prefix is a range of ids.
        let order = temporaryTerms.indices.sorted {
            temporaryTerms[$0].utf8.lexicographicallyPrecedes(temporaryTerms[$1].utf8)
        }
        var finalID = [UInt32](repeating: 0, count: temporaryTerms.count)
        var termBytes: [UInt8] = []
        var termOffsets: [UInt32] = [0]
        termOffsets.reserveCapacity(order.count + 1)
        for (rank, temporary) in order.enumerated() {
            finalID[temporary] = UInt32(rank)
            termBytes.append(contentsOf: temporaryTerms[temporary].utf8)
            termOffsets.append(UInt32(termBytes.count))
        }
        let termCount = order.count

        // 3. Forward index with final ids; postings counted per term.
        var forward: [UInt32] = []
        forward.reserveCapacity(streams.reduce(0) { $0 + $1.count })
        var forwardStarts: [UInt32] = [0]
        var postingCounts = [UInt32](repeating: 0, count: termCount + 1)
        var titleCounts = [UInt32](repeating: 0, count: termCount)
        var otherCounts = [UInt32](repeating: 0, count: termCount)
        var documentTerms: [[UInt32]] = []
        documentTerms.reserveCapacity(streams.count)
        for (document, stream) in streams.enumerated() {
            var touched: [UInt32] = []
            let titleLength = Int(titleLengths[document])
            for (position, temporary) in stream.enumerated() {
                guard temporary != IndexSegment.separator else {
                    forward.append(IndexSegment.separator)
                    continue
                }
                let id = finalID[Int(temporary)]
                forward.append(id)
                if titleCounts[Int(id)] == 0 && otherCounts[Int(id)] == 0 { touched.append(id) }
                if position < titleLength { titleCounts[Int(id)] += 1 } else { otherCounts[Int(id)] += 1 }
            }
            forwardStarts.append(UInt32(forward.count))
            touched.sort()
            var packed: [UInt32] = []
            packed.reserveCapacity(touched.count * 2)
            for id in touched {
                packed.append(id)
                packed.append(min(titleCounts[Int(id)], 255) << 24 | min(otherCounts[Int(id)], 0xFF_FFFF))
                titleCounts[Int(id)] = 0
                otherCounts[Int(id)] = 0
                postingCounts[Int(id) + 1] += 1
            }
            documentTerms.append(packed)
        }
        streams = []

        // 4. Postings, documents ascending within each term.
        for id in 0..<termCount { postingCounts[id + 1] += postingCounts[id] }
        var fill = Array(postingCounts.dropLast())
        let total = Int(postingCounts[termCount])
        var postingDocs = [UInt32](repeating: 0, count: total)
        var postingFrequencies = [UInt32](repeating: 0, count: total)
        for (document, packed) in documentTerms.enumerated() {
            var index = 0
            while index < packed.count {
                let id = Int(packed[index])
                let slot = Int(fill[id])
                postingDocs[slot] = UInt32(document)
                postingFrequencies[slot] = packed[index + 1]
                fill[id] += 1
                index += 2
            }
        }
        return IndexSegment(
            records: notes.map(\.record),
            terms: TermDictionary(bytes: ByteColumn(termBytes), offsets: Column(termOffsets)),
            postingStarts: Column(postingCounts), postingDocs: Column(postingDocs),
            postingFrequencies: Column(postingFrequencies), forwardStarts: Column(forwardStarts),
            forward: Column(forward), titleLengths: Column(titleLengths), lengths: Column(lengths))
    }
}
