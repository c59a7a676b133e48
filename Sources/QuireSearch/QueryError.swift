/// A malformed query: what was wrong and where (a usage error for the command line, exit 2).
public struct QueryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of mistake the query holds.
    public enum Kind: String, Equatable, Sendable {
        /// A `(` without its `)`.
        case unbalancedParenthesis
        /// A `)` without its `(`.
        case unexpectedParenthesis
        /// `()` with nothing inside.
        case emptyParentheses
        /// A `"` without its closing `"`.
        case unterminatedQuote
        /// `key:` (or `#`) with nothing after it.
        case emptyFilterValue
        /// A date filter whose value is no date.
        case badDate
        /// A numeric filter whose value is no number.
        case badNumber
        /// A boolean filter whose value is not `true` or `false`.
        case badBoolean
        /// `OR`, `AND`, `NOT` or `-` without the term it needs.
        case missingOperand
        /// Parentheses or negations nested deeper than `QueryParser.maximumDepth`.
        case tooDeep
        /// A query (or a `title:` value) with no letter, digit, symbol or filter: `*`, `!!!`,
        /// `""`, only white space. It would match every note.
        case nothingToSearch
    }

    /// The kind of mistake.
    public var kind: Kind
    /// 0-based offset, in characters, into the query text (`NoteQuery.text`).
    public var offset: Int
    /// A readable, lowercase description.
    public var message: String

    /// Creates a query error.
    public init(_ kind: Kind, at offset: Int, _ message: String) {
        self.kind = kind
        self.offset = offset
        self.message = message
    }

    /// `message (at character N)`.
    public var description: String { "\(message) (at character \(offset + 1))" }
}
