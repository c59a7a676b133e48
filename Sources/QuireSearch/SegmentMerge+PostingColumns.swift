extension SegmentMerge {
    /// The columns of a source's segment that its postings are copied from, as plain pointers
    /// into memory the segment (held by `sources`) keeps alive.
    struct PostingColumns: @unchecked Sendable {
        let postingStarts: UnsafePointer<UInt32>
        let termCount: Int
        let docs: UnsafePointer<UInt32>
        let frequencies: PostingFrequencies
        let postingCount: Int
        let positions: UnsafePointer<UInt16>
        let termPositionStarts: UnsafePointer<UInt32>

        init(_ segment: IndexSegment) {
            postingStarts = segment.postingStarts.pointer
            termCount = segment.postingStarts.count
            docs = segment.postingDocs.pointer
            frequencies = segment.frequencies
            postingCount = segment.postingDocs.count
            positions = segment.positions.pointer
            termPositionStarts = segment.termPositionStarts.pointer
        }

        /// The postings of term `id`, as `IndexSegment.postings(_:)` (empty for damaged offsets).
        @inline(__always)
        func postings(_ id: Int) -> Range<Int> {
            guard id >= 0, id + 1 < termCount else { return 0..<0 }
            let (start, end) = (Int(postingStarts[id]), Int(postingStarts[id + 1]))
            return start <= end && end <= postingCount ? start..<end : 0..<0
        }
    }
}
