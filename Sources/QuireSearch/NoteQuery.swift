import Foundation

/// A parsed search query: a plain value, parsed once and executed by a `Catalog`.
///
/// The language (DESIGN.md §3): words (AND), `"phrases"`, `prefix*`, `-term` / `NOT`, `OR`,
/// parentheses, with NOT > AND > OR; field filters `tag:x` / `#x`, `project:`, `folder:`,
/// `draft:`, `pinned:`, `color:`, `mood:>=4`, `priority:`, `title:`, `path:glob`, `id:`,
/// `created:>=2026-01-01`, `updated:>7d`, and any other front-matter key `key:value`.
public struct NoteQuery: Equatable, Sendable {
    /// The query text the offsets of errors refer to.
    public var text: String
    /// The expression tree; `.all` for an empty query.
    public var root: QueryNode

    /// Creates a query from a tree (for callers that build queries without text).
    public init(root: QueryNode, text: String = "") {
        self.root = root
        self.text = text
    }

    /// Parses query text. `now` and `timeZone` resolve relative and local dates (the time zone
    /// is asked for only when the query has a date). Empty text (or only white space) is every
    /// note; text with nothing to search for (`*`, `!!!`) is a `QueryError`.
    public static func parse(_ text: String, now: Date,
                             timeZone: @autoclosure @escaping () -> TimeZone = .current) throws(QueryError) -> NoteQuery {
        var parser = QueryParser(text: text, dates: QueryDateParser(now: now, timeZone: timeZone))
        let root = try parser.parse()
        return NoteQuery(root: root, text: text)
    }

    /// Parses command-line arguments the way `quire list|search` reads them: the positional
    /// arguments joined by spaces (the CLI has already removed its own options, so an argument
    /// starting with `-` is a negation). A single argument that is one filter followed by plain
    /// words (`project:Toy Story 5`, as the shell leaves `project:"Toy Story 5"`) has its value
    /// quoted again; an argument holding query syntax after its first filter
    /// (`tag:idea draft:false`), or whose filter takes no text (`draft:`, `mood:`, dates), is
    /// read as query text, as if its words were separate arguments. Arguments given but all
    /// empty or white space are a `QueryError` (no arguments at all: every note).
    public static func parse(arguments: [String], now: Date,
                             timeZone: @autoclosure @escaping () -> TimeZone = .current) throws(QueryError) -> NoteQuery {
        let text = arguments.map(requote).joined(separator: " ")
        if !arguments.isEmpty, text.allSatisfy(\.isWhitespace) {
            throw QueryError(.nothingToSearch, at: 0, "nothing to search for: the query is empty")
        }
        return try parse(text, now: now, timeZone: timeZone())
    }

    /// Whether the query has a link filter (`links-to:`, `linked-from:`, `orphan:`,
    /// `broken-links:`): its answer depends on the vault's attachments too
    /// (`SearchOptions.attachments`).
    public var usesLinkFilters: Bool { root.containsLinkFilter }

    /// Whether the query has `orphan:` or `broken-links:`, which read every note's links.
    public var readsEveryLink: Bool { root.containsLinkFilter(where: {
        switch $0 {
        case .linksTo, .linkedFrom: return false
        default: return true
        }
    }) }

    /// Whether the query has text terms that are not negated (relevance makes sense).
    public var hasPositiveTerms: Bool { !positiveTerms.isEmpty }

    /// The text terms that are not under a negation, in query order (for ranking, snippets).
    public var positiveTerms: [TextTerm] {
        var terms: [TextTerm] = []
        root.collectTerms(negated: false, into: &terms)
        return terms
    }

    private static func requote(_ argument: String) -> String {
        guard argument.contains(where: { $0.isWhitespace }), !argument.contains("\"") else {
            return argument
        }
        var body = Substring(argument)
        var prefix = ""
        if body.hasPrefix("-") { prefix = "-"; body = body.dropFirst() }
        if body.hasPrefix("#") {
            return prefix + "#\"" + body.dropFirst() + "\""
        }
        guard let colon = body.firstIndex(of: ":"), colon > body.startIndex,
              QueryLexer.isFilterKey(body[body.startIndex..<colon]),
              !typedKeys.contains(body[body.startIndex..<colon].lowercased()) else {
            return argument
        }
        let value = body[body.index(after: colon)...]
        guard isPlainText(value) else { return argument }
        return prefix + body[body.startIndex...colon] + "\"" + value + "\""
    }

    /// Filters whose value is a flag, a number or a date: never a text with spaces.
    private static let typedKeys: Set<String> = [
        "draft", "pinned", "mood", "created", "createdat", "updated", "updatedat", "modified",
        "orphan", "broken-links", "brokenlinks",
    ]

    /// Whether a filter value that holds spaces is plain words: none of its words after the
    /// first is a filter (`key:`, `#tag`), a negation, an operator, a group or a quote.
    private static func isPlainText(_ value: Substring) -> Bool {
        let words = value.split(whereSeparator: \.isWhitespace).dropFirst()
        return !words.contains { word in
            if ["OR", "AND", "NOT"].contains(word) { return true }
            if (word.hasPrefix("-") && word.count > 1) || word.hasPrefix("#") || word.contains(where: { "()\"".contains($0) }) {
                return true
            }
            guard let colon = word.firstIndex(of: ":") else { return false }
            return QueryLexer.isFilterKey(word[word.startIndex..<colon])
        }
    }
}

/// A node of a query's expression tree.
public indirect enum QueryNode: Equatable, Sendable {
    /// Whether a link filter is somewhere in this tree.
    var containsLinkFilter: Bool { containsLinkFilter(where: { _ in true }) }

    /// Whether a link filter `matching` accepts is somewhere in this tree.
    func containsLinkFilter(where matching: (FieldFilter) -> Bool) -> Bool {
        switch self {
        case .all, .term: return false
        case .filter(let filter): return filter.isLinkFilter && matching(filter)
        case .not(let child): return child.containsLinkFilter(where: matching)
        case .and(let children), .or(let children): return children.contains { $0.containsLinkFilter(where: matching) }
        }
    }

    /// Every note (the empty query).
    case all
    /// A word, phrase or prefix to find in the text.
    case term(TextTerm)
    /// A metadata filter.
    case filter(FieldFilter)
    /// Negation.
    case not(QueryNode)
    /// All of the children.
    case and([QueryNode])
    /// Any of the children.
    case or([QueryNode])

    func collectTerms(negated: Bool, into terms: inout [TextTerm]) {
        switch self {
        case .all, .filter: return
        case .term(let term): if !negated { terms.append(term) }
        case .not(let child): child.collectTerms(negated: !negated, into: &terms)
        case .and(let children), .or(let children):
            for child in children { child.collectTerms(negated: negated, into: &terms) }
        }
    }
}

/// A text term: one or more folded tokens that must stand next to each other in one field.
public struct TextTerm: Hashable, Sendable {
    /// Where the term is searched.
    public enum Scope: String, Hashable, Sendable {
        /// Title, tags, project, aliases and body.
        case all
        /// The title only (`title:word`).
        case title
    }

    /// The folded tokens (a phrase when more than one).
    public var tokens: [String]
    /// Whether the last token is a prefix (`word*`).
    public var isPrefix: Bool
    /// Where to search.
    public var scope: Scope

    /// Creates a term.
    public init(tokens: [String], isPrefix: Bool = false, scope: Scope = .all) {
        self.tokens = tokens
        self.isPrefix = isPrefix
        self.scope = scope
    }

    /// Whether a token at position `index` of the term accepts a document term.
    /// A document term with a leading dot (`.net`) is accepted by the bare word (`net`) too.
    func accepts(_ term: String, at index: Int) -> Bool {
        let wanted = tokens[index]
        var term = Substring(term)
        if term.utf8.first == 0x2E, wanted.utf8.first != 0x2E { term = term.dropFirst() }
        if isPrefix && index == tokens.count - 1 { return term.utf8.starts(with: wanted.utf8) }
        return term == wanted
    }
}
