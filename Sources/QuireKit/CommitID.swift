import QuireGit

/// A commit of the vault's history as front ends show it: its id in hex.
public struct CommitID: Hashable, Sendable, CustomStringConvertible {
    /// The full id, 40 lowercase hex digits.
    public let hex: String

    /// Creates an id from its hex digits.
    public init(hex: String) {
        self.hex = hex
    }

    init(_ oid: OID) {
        hex = oid.hex
    }

    /// The first `length` hex digits (as git abbreviates).
    public func short(_ length: Int = 7) -> String { String(hex.prefix(length)) }

    public var description: String { hex }
}
