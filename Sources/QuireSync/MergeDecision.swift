import Foundation

/// An automatic decision that dropped text; recorded on the merge commit, where the losing text
/// is the other parent's version.
public struct MergeDecision: Equatable, Sendable {
    /// The note's path.
    public var path: String
    /// The side whose text was kept.
    public var winner: MergeWinner
    /// Why, in words (`both sides changed the same lines of the body; theirs is newer (…)`).
    public var reason: String

    /// Creates a decision record.
    public init(path: String, winner: MergeWinner, reason: String) {
        self.path = path
        self.winner = winner
        self.reason = reason
    }
}

/// The side whose text an automatic decision kept.
public enum MergeWinner: String, Sendable {
    /// The local side of the merge.
    case ours
    /// The incoming side of the merge.
    case theirs
}
