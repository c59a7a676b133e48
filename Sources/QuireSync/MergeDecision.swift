import Foundation

/// An automatic decision that dropped text; recorded on the merge commit, where the losing text
/// is the other parent's version.
public struct MergeDecision: Equatable, Sendable {
    /// The note's path.
    public var path: String
    /// The side whose text was kept.
    public var winner: MergeWinner
    /// Why, in words (`both sides changed the same words (line 8: …); phone's version is newer (…)`).
    public var reason: String
    /// The losing side's text the decision dropped, place by place (`line 14: …`), where the
    /// loss is a few places of a note; nil where it is the whole version (a deletion, a key).
    public var lost: String?

    /// Creates a decision record.
    public init(path: String, winner: MergeWinner, reason: String, lost: String? = nil) {
        self.path = path
        self.winner = winner
        self.reason = reason
        self.lost = lost
    }
}

extension MergeDecision {
    /// The decision as the device that just made it reads it: "kept this device's version" or
    /// "kept the remote's version", and the reason with its own name as "this device".
    public func readable(localDevice: String) -> (kept: String, reason: String) {
        let kept = MergeSideNames.generic.version(of: winner)
        let text = MergeSideNames.localized(reason, device: localDevice)
        return ("kept " + kept, text)
    }
}

/// The side whose text an automatic decision kept.
public enum MergeWinner: String, Sendable {
    /// The local side of the merge.
    case ours
    /// The incoming side of the merge.
    case theirs
}
