import Foundation

/// One automatic decision that dropped text, read from history (the same on every device).
public struct ConflictRecord: Equatable, Sendable {
    /// Short hex of sha1(merge commit + path): stable on every device.
    public var id: String
    /// The note's path after the merge.
    public var path: String
    /// When the merge was made.
    public var time: Date
    /// The device that made the merge.
    public var device: String
    /// Which parent's text won: `ours` = the merge's first parent, `theirs` = the second.
    public var winner: MergeWinner
    /// Why.
    public var reason: String
    /// The first parent (the merging device's side).
    public var ours: String
    /// The second parent (the incoming side).
    public var theirs: String
    /// The merge commit.
    public var merge: String
    /// Whether `quire conflicts dismiss` hid it on this device.
    public var dismissed: Bool
}
