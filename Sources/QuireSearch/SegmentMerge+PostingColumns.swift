extension SegmentMerge {
    /// The columns of a source's segment that its postings are copied from, as plain pointers
    /// into memory the segment (held by `sources`) keeps alive.
    struct PostingColumns: @unchecked Sendable {
        let postingStarts: UnsafePointer<UInt32>
        let termCount: Int
        let docs: UnsafePointer<UInt32>
        let frequencies: UnsafePointer<UInt32>
        let postingCount: Int
        let positions: UnsafePointer<UInt16>
        let termPositionStarts: UnsafePointer<UInt32>

        init(_ segment: IndexSegment) {
            postingStarts = segment.postingStarts.pointer
            termCount = segment.postingStarts.count
            docs = segment.postingDocs.pointer
            frequencies = segment.postingFrequencies.pointer
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

        /// Whether a posting's number of positions is in the overflow table
        /// (`IndexSegment.positionCount`).
        @inline(__always)
        static func isCapped(_ frequency: UInt32) -> Bool {
            frequency >> 24 == 255 || frequency & 0xFF_FFFF == 0xFF_FFFF
        }

        @inline(__always)
        func isCapped(_ frequency: UInt32) -> Bool { Self.isCapped(frequency) }

        /// The number of positions of a posting that is not capped.
        @inline(__always)
        func positionCount(_ frequency: UInt32) -> Int { Int((frequency >> 24) + (frequency & 0xFF_FFFF)) }
    }
}
