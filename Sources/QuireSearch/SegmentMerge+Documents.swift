import QuireCore

extension SegmentMerge {
    /// The per-document columns of a merged segment, taken from each document's source: where
    /// its record and its forward index go, its flag, title and text lengths and sort keys.
    struct DocumentColumns {
        var recordBytes = 0
        var recordOffsets: [UInt64] = []
        var flags: [UInt8] = []
        var forwardStarts: [UInt32] = [0]
        var titleLengths: [UInt32] = []
        var lengths: [UInt32] = []
        var sortKeys: [Double] = []
        /// The documents' paths, packed apart from their records (`PathColumn`).
        var paths = PathColumn()

        /// `paths`: whether the path column is packed too (a segment built in memory has none).
        init(_ sources: [Source], _ order: [(source: Int32, document: Int32)], paths withPaths: Bool = true) {
            recordOffsets.reserveCapacity(order.count)
            flags.reserveCapacity(order.count)
            forwardStarts.reserveCapacity(order.count + 1)
            titleLengths.reserveCapacity(order.count)
            lengths.reserveCapacity(order.count)
            sortKeys.reserveCapacity(order.count * 3)
            var tokens = 0
            for (source, document) in order {
                let segment = sources[Int(source)].segment
                let document = Int(document)
                recordOffsets.append(UInt64(recordBytes))
                recordBytes += Self.record(segment, document).count
                if withPaths { paths.append(path: segment.records.pathBytes(document)) }
                flags.append(segment.records.flag(document))
                tokens += segment.forwardStarts.span(document, limit: segment.forward.count).count
                forwardStarts.append(UInt32(tokens))
                titleLengths.append(segment.titleLengths[document])
                lengths.append(segment.lengths[document])
                for field in [IndexSegment.SortField.updated, .created, .words] {
                    sortKeys.append(segment.sortKey(document, field))
                }
            }
        }

        /// The encoded record of `document` (its bytes in the segment's records section).
        static func record(_ segment: IndexSegment, _ document: Int) -> UnsafeRawBufferPointer {
            let (records, offsets) = segment.records.encodedSections
            let start = Int(offsets.loadUnaligned(fromByteOffset: document * 8, as: UInt64.self))
            let end = document + 1 < segment.records.count
                ? Int(offsets.loadUnaligned(fromByteOffset: (document + 1) * 8, as: UInt64.self)) : records.count
            guard start <= end, end <= records.count, let base = records.baseAddress else { return UnsafeRawBufferPointer(start: nil, count: 0) }
            return UnsafeRawBufferPointer(start: base + start, count: end - start)
        }

        /// Copies the documents' encoded records into `file`'s records section, in pieces of
        /// about `limit` bytes.
        func writeRecords(_ sources: [Source], _ order: [(source: Int32, document: Int32)], to file: SnapshotFile,
                          limit: Int) throws(CacheError) {
            var piece: [UInt8] = []
            piece.reserveCapacity(limit + 65_536)
            var written = 0
            for (source, document) in order {
                piece.append(contentsOf: Self.record(sources[Int(source)].segment, Int(document)))
                guard piece.count >= limit else { continue }
                try file.write(.records, from: written, piece)
                written += piece.count
                piece.removeAll(keepingCapacity: true)
                for source in sources { source.segment.records.releaseReadPages() }
            }
            try file.write(.records, from: written, piece)
        }

        /// The forward index of the merged documents `chunk` (each token's term id renumbered by
        /// `termMaps`, separators kept), from `base` on, filled on every core.
        func fillForward(_ sources: [Source], _ order: [(source: Int32, document: Int32)], _ termMaps: [[UInt32]],
                         _ chunk: Range<Int>, into base: UnsafeMutablePointer<UInt32>) {
            let first = Int(forwardStarts[chunk.lowerBound])
            let parts = max(min(chunk.count / 256, 16), 1)
            ParallelMap.perform(iterations: parts) { part in
                for merged in chunk.lowerBound + chunk.count * part / parts..<chunk.lowerBound + chunk.count * (part + 1) / parts {
                    let (source, document) = order[merged]
                    let segment = sources[Int(source)].segment
                    let map = termMaps[Int(source)]
                    var place = Int(forwardStarts[merged]) - first
                    for position in segment.forwardStarts.span(Int(document), limit: segment.forward.count) {
                        let id = segment.forward[position]
                        base[place] = id == IndexSegment.separator || Int(id) >= map.count ? IndexSegment.separator : map[Int(id)]
                        place += 1
                    }
                }
            }
        }
    }
}
