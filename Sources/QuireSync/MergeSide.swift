import Foundation

/// One side of a note changed on both sides of a merge.
public struct MergeSide: Sendable {
    /// The note's bytes on this side.
    public var data: Data
    /// When this side's change of the note was made, where its `updatedAt` does not say: the
    /// author time of the commit that carried the change, or the file's time for an edit not
    /// committed yet.
    public var commitTime: Date
    /// The commit `commitTime` comes from, in words for a decision's reason: `'edit by hand'
    /// (Ben)` (its subject and author); nil: the reason says "commit time" alone.
    public var timeSource: String?

    /// Creates a side from its bytes and commit time.
    public init(data: Data, commitTime: Date, timeSource: String? = nil) {
        self.data = data
        self.commitTime = commitTime
        self.timeSource = timeSource
    }
}
