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
    /// The losing side's text that was dropped, place by place (`line 14: …`), where the loss
    /// was a few places of the note; nil where it was the whole version.
    public var lost: String? = nil
    /// The first parent (the merging device's side).
    public var ours: String
    /// The second parent (the incoming side).
    public var theirs: String
    /// The merge commit.
    public var merge: String
    /// Whether `quire conflicts dismiss` hid it on this device.
    public var dismissed: Bool
    /// The device whose changes were merged in (the `theirs` commit's `Quire-Device:` trailer,
    /// else its author's name).
    public var theirsDevice: String = "the remote"

    /// Whether the decision dropped text. A decision that undid a deletion (the other side
    /// changed the note: `deleted on phone but changed on laptop: the note was kept`) dropped
    /// none: the deleting side loses only its wish to delete.
    public var dropsText: Bool {
        !(reason.hasPrefix("deleted on ") && reason.hasSuffix("the note was kept"))
    }

    /// The device whose version lost.
    public var losingDevice: String { sides.name(of: winner.other) }

    /// The two sides by device name (`device` made the merge).
    public var sides: MergeSideNames { MergeSideNames(ours: device, theirs: theirsDevice) }

    /// The sides as `localDevice` reads them: its own name is "this device".
    public func sides(seenBy localDevice: String) -> MergeSideNames {
        sides.seen(by: localDevice)
    }

    /// The reason in the words `localDevice` reads: its own version is "this device's version",
    /// and a record written before decisions named devices ("ours is newer", "the strategy is
    /// theirs") names them now. With nil, the device names alone: the same words on every
    /// device (for `--json`).
    public func readableReason(seenBy localDevice: String?) -> String {
        let names = localDevice.map { sides(seenBy: $0) } ?? sides
        var text = reason
        if let localDevice { text = MergeSideNames.localized(text, device: localDevice) }
        for (legacy, replacement) in [("the strategy is ours", "the strategy keeps \(names.version(of: .ours))"),
                                      ("the strategy is theirs", "the strategy keeps \(names.version(of: .theirs))")] {
            text = text.replacingOccurrences(of: legacy, with: replacement)
        }
        for (word, side) in [("ours", MergeWinner.ours), ("theirs", .theirs)] {
            for verb in [" is newer", " was committed later", " has the larger blob id"] {
                text = text.replacingOccurrences(of: "; " + word + verb, with: "; " + names.version(of: side) + verb)
            }
        }
        return text
    }
}
