/// Why JSON text could not be read: what was expected or found, and where.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What the reader expected or found, lowercase.
    public var reason: String
    /// The 0-based byte offset where reading stopped.
    public var offset: Int
    /// The 1-based line of `offset`.
    public var line: Int

    /// An error at `offset` (on `line`) for `reason`.
    public init(reason: String, offset: Int, line: Int) {
        self.reason = reason
        self.offset = offset
        self.line = line
    }

    /// `line 3: expected ',' or '}'`.
    public var description: String { "line \(line): \(reason)" }
}
