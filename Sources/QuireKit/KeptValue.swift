import Foundation

/// A front-matter value a migration or a folder import left where it was, byte for byte,
/// because quire's key for it cannot hold it without loss (`FrontMatterMapping.tagLoss`):
/// nothing was lost, and the command says so.
public struct KeptValue: Sendable, Equatable {
    /// The note, vault-relative.
    public var path: String
    /// The key left as it is (`tags`, `categories`, `keywords`, …).
    public var key: String
    /// Why, in a few lowercase words (`item 2 is a mapping`).
    public var reason: String

    /// A value kept under `key` in the note at `path`, for `reason`.
    public init(path: String, key: String, reason: String) {
        self.path = path
        self.key = key
        self.reason = reason
    }
}
