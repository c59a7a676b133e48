import Foundation

/// Recursive-descent parser of the query language: OR binds loosest, then AND (implicit or
/// written), then NOT / `-`. Words without any searchable character (`&`, `-`) are dropped;
/// a query left with nothing to search for is an error (it would match every note), as is a
/// `title:` value with nothing to search for. Empty text is the query of every note.
struct QueryParser {
    private let text: String
    private let dates: QueryDateParser
    private var lexemes: [Lexeme] = []
    private var position = 0
    private var depth = 0
    /// How deeply parentheses and negations may nest (a bound on recursion, not a real limit).
    static let maximumDepth = 200

    init(text: String, dates: QueryDateParser) {
        self.text = text
        self.dates = dates
    }

    mutating func parse() throws(QueryError) -> QueryNode {
        var lexer = QueryLexer(text: text)
        lexemes = try lexer.lex()
        position = 0
        let root = try parseOr()
        if position < lexemes.count {
            throw QueryError(.unexpectedParenthesis, at: lexemes[position].offset,
                             "')' without a matching '('")
        }
        if root == nil, let first = lexemes.first {
            throw QueryError(.nothingToSearch, at: first.offset,
                             "nothing to search for: the query has no letter, digit, symbol or filter")
        }
        return root ?? .all
    }

    private var current: Lexeme? { position < lexemes.count ? lexemes[position] : nil }

    private func endsOperand(_ lexeme: Lexeme?) -> Bool {
        guard let lexeme else { return true }
        return lexeme.kind == .close || lexeme.kind == .or || lexeme.kind == .and
    }

    private mutating func parseOr() throws(QueryError) -> QueryNode? {
        if let first = current, first.kind == .or {
            throw QueryError(.missingOperand, at: first.offset, "'OR' needs a term before it")
        }
        var parts: [QueryNode] = []
        if let node = try parseAnd() { parts.append(node) }
        while let lexeme = current, lexeme.kind == .or {
            position += 1
            if endsOperand(current) {
                throw QueryError(.missingOperand, at: lexeme.offset, "'OR' needs a term after it")
            }
            if let node = try parseAnd() { parts.append(node) }
        }
        return parts.count <= 1 ? parts.first : .or(parts)
    }

    private mutating func parseAnd() throws(QueryError) -> QueryNode? {
        var parts: [QueryNode] = []
        while let lexeme = current, lexeme.kind != .close, lexeme.kind != .or {
            if lexeme.kind == .and {
                position += 1
                if parts.isEmpty || endsOperand(current) {
                    throw QueryError(.missingOperand, at: lexeme.offset, "'AND' needs a term on both sides")
                }
                continue
            }
            if let node = try parseUnary() { parts.append(node) }
        }
        return parts.count <= 1 ? parts.first : .and(parts)
    }

    private mutating func parseUnary() throws(QueryError) -> QueryNode? {
        guard let lexeme = current else { return nil }
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw QueryError(.tooDeep, at: lexeme.offset, "query nested too deeply")
        }
        if lexeme.kind == .not || lexeme.kind == .minus {
            position += 1
            if endsOperand(current) {
                let name = lexeme.kind == .not ? "'NOT'" : "'-'"
                throw QueryError(.missingOperand, at: lexeme.offset, "\(name) needs a term after it")
            }
            return try parseUnary().map { .not($0) }
        }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws(QueryError) -> QueryNode? {
        guard let lexeme = current else { return nil }
        position += 1
        switch lexeme.kind {
        case .open:
            if let next = current, next.kind == .close {
                throw QueryError(.emptyParentheses, at: lexeme.offset, "empty parentheses")
            }
            let inner = try parseOr()
            guard let close = current, close.kind == .close else {
                throw QueryError(.unbalancedParenthesis, at: lexeme.offset, "'(' without a matching ')'")
            }
            _ = close
            position += 1
            return inner
        case .word(let word, let prefix):
            return Self.term(word, prefix: prefix, scope: .all)
        case .phrase(let phrase):
            return Self.term(phrase, prefix: false, scope: .all)
        case .filter(let key, let value, let quoted, let valueOffset):
            return try filter(key: key, value: value, quoted: quoted, keyOffset: lexeme.offset,
                              valueOffset: valueOffset)
        case .close, .or, .and, .not, .minus:
            throw QueryError(.unexpectedParenthesis, at: lexeme.offset, "unexpected token")
        }
    }

    private static func term(_ text: String, prefix: Bool, scope: TextTerm.Scope) -> QueryNode? {
        let tokens = Tokenizer.terms(in: text)
        guard !tokens.isEmpty else { return nil }
        return .term(TextTerm(tokens: tokens, isPrefix: prefix, scope: scope))
    }

    private func filter(key rawKey: String, value: String, quoted: Bool, keyOffset: Int,
                        valueOffset: Int) throws(QueryError) -> QueryNode? {
        let key = rawKey.lowercased()
        switch key {
        case "tag", "tags":
            return .filter(.tag(trimmed(value, dropping: "#").lowercased()))
        case "project":
            return .filter(.project(value.lowercased()))
        case "folder":
            let folder = trimmed(value, dropping: "/").lowercased()
            return .filter(.folder(folder))
        case "draft", "pinned":
            guard let flag = Self.boolean(value) else {
                throw QueryError(.badBoolean, at: valueOffset, "'\(rawKey):' takes true or false, not '\(value)'")
            }
            return .filter(key == "draft" ? .draft(flag) : .pinned(flag))
        case "color", "colour":
            return .filter(.color(value.lowercased()))
        case "links-to", "linksto":
            return .filter(.linksTo(value))
        case "linked-from", "linkedfrom":
            return .filter(.linkedFrom(value))
        case "orphan", "broken-links", "brokenlinks":
            guard let flag = Self.boolean(value) else {
                throw QueryError(.badBoolean, at: valueOffset, "'\(rawKey):' takes true or false, not '\(value)'")
            }
            return .filter(key == "orphan" ? .orphan(flag) : .brokenLinks(flag))
        case "path":
            return .filter(.path(value.lowercased()))
        case "title":
            var word = value
            var prefix = false
            if !quoted { while word.hasSuffix("*") { word.removeLast(); prefix = true } }
            guard let node = Self.term(word, prefix: prefix, scope: .title) else {
                throw QueryError(.nothingToSearch, at: valueOffset,
                                 "'\(rawKey):' needs a letter, digit or symbol to look for, not '\(value)'")
            }
            return node
        case "mood":
            let (comparison, rest) = quoted ? (.equal, value) : Self.comparison(value)
            guard let mood = Int(rest) else {
                throw QueryError(.badNumber, at: valueOffset, "'mood:' takes a number, not '\(value)'")
            }
            return .filter(.mood(comparison, mood))
        case "created", "createdat", "updated", "updatedat", "modified":
            let (comparison, rest) = quoted ? (.equal, value) : Self.comparison(value)
            guard let bound = dates.parse(rest) else {
                throw QueryError(.badDate, at: valueOffset,
                                 "'\(rawKey):' takes a date (2026-01-31) or an age (7d), not '\(value)'")
            }
            return .filter(key.hasPrefix("created") ? .created(comparison, bound) : .updated(comparison, bound))
        default:
            let (comparison, rest) = quoted ? (.equal, value) : Self.comparison(value)
            guard !rest.isEmpty else {
                throw QueryError(.emptyFilterValue, at: keyOffset, "'\(rawKey):' needs a value")
            }
            // A date or an age (not a plain number: `priority:<2`): compared as a date where the
            // note's value is one. A deadline looks ahead: `due:<7d` is due within a week.
            if !quoted, !rest.allSatisfy({ $0.isASCII && $0.isNumber }),
               let bound = dates.parse(rest, ahead: Self.aheadKeys.contains(key)) {
                return .filter(.dated(key: key, comparison, bound, rest.lowercased()))
            }
            return .filter(.value(key: key, comparison, rest.lowercased()))
        }
    }

    private func trimmed(_ value: String, dropping character: Character) -> String {
        var result = Substring(value)
        while result.first == character, character == "#" { result = result.dropFirst() }
        while result.count > 1, result.last == character, character == "/" { result = result.dropLast() }
        return String(result)
    }

    /// Keys whose ages count forward from now (deadlines): `due:<7d` is before a week from now.
    static let aheadKeys: Set<String> = ["due", "deadline"]

    private static func boolean(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "true", "yes": return true
        case "false", "no": return false
        default: return nil
        }
    }

    private static func comparison(_ value: String) -> (Comparison, String) {
        for candidate in [Comparison.greaterOrEqual, .lessOrEqual, .greater, .less, .equal]
        where value.hasPrefix(candidate.rawValue) {
            return (candidate, String(value.dropFirst(candidate.rawValue.count)))
        }
        return (.equal, value)
    }
}
