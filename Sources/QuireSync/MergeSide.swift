import Foundation

/// One side of a note changed on both sides of a merge.
public struct MergeSide: Sendable {
    /// The note's bytes on this side.
    public var data: Data
    /// The time of the commit this side comes from (decides when `updatedAt` cannot).
    public var commitTime: Date

    /// Creates a side from its bytes and commit time.
    public init(data: Data, commitTime: Date) {
        self.data = data
        self.commitTime = commitTime
    }
}
