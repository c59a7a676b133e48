import Foundation

/// What the resolver made of a note changed on both sides.
public struct NoteMergeResult: Sendable {
    /// The merged note bytes (never with conflict markers the inputs did not have).
    public var merged: Data
    /// The decisions that dropped text, in the order taken; empty for a clean merge.
    public var decisions: [MergeDecision]
    /// With `keep-both` and a decision taken: the losing side's bytes with a new `id` and
    /// `conflictOf: <its old id>`, to be written beside the winner. Nil otherwise.
    public var keepBothCopy: Data?

    /// Creates a result.
    public init(merged: Data, decisions: [MergeDecision] = [], keepBothCopy: Data? = nil) {
        self.merged = merged
        self.decisions = decisions
        self.keepBothCopy = keepBothCopy
    }
}
