import Foundation

/// A path a sync left alone, and why: an entry of the remote's tree refused (`IncomingPath`), a
/// nested git repository, a file that would have been written through a symlink. Shown by
/// `quire sync` and, from the last sync's state, by `quire status`.
public struct SkippedPath: Codable, Equatable, Sendable {
    /// The vault-relative path.
    public var path: String
    /// Why, in words.
    public var reason: String

    /// Creates a record.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}
