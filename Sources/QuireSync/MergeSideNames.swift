import Foundation

/// The words a person reads for the two sides of a merge: the devices' names, or "this device"
/// and "the remote" when a name is not known. Decisions are recorded in these words (a record is
/// read on every device, so the names, not "ours" and "theirs", say whose version won).
public struct MergeSideNames: Equatable, Sendable {
    /// The local side: the device making the merge.
    public var ours: String
    /// The incoming side: the device whose changes are merged in.
    public var theirs: String

    /// Names the sides.
    public init(ours: String, theirs: String) {
        self.ours = ours
        self.theirs = theirs
    }

    /// The names when the devices are not known.
    public static let generic = MergeSideNames(ours: "this device", theirs: "the remote")

    /// The name of `side` (`laptop`, `this device`).
    public func name(of side: MergeWinner) -> String {
        side == .ours ? ours : theirs
    }

    /// `laptop's version`, `the remote's version`.
    public func version(of side: MergeWinner) -> String {
        Self.possessive(name(of: side)) + " version"
    }

    /// The names as a device reads them: its own name becomes "this device".
    public func seen(by device: String) -> MergeSideNames {
        MergeSideNames(ours: ours == device ? "this device" : ours, theirs: theirs == device ? "this device" : theirs)
    }

    /// A decision's words as `device` reads them: its version is "this device's version", and
    /// the words a place quotes from it are "from this device" (`BodyCollisions`).
    static func localized(_ text: String, device: String) -> String {
        guard device != "this device" else { return text }
        var result = text.replacingOccurrences(of: possessive(device) + " version", with: "this device's version")
        for end in [" lost to ", ")", "; "] {
            result = result.replacingOccurrences(of: "' from \(device)\(end)", with: "' from this device\(end)")
        }
        return result
    }

    static func possessive(_ name: String) -> String {
        name.hasSuffix("'s") ? name : name + "'s"
    }
}

extension MergeWinner {
    /// The other side.
    public var other: MergeWinner { self == .ours ? .theirs : .ours }
}
