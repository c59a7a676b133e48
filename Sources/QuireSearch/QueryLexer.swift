/// One lexeme of query text, with the character offset it starts at.
struct Lexeme: Equatable {
    enum Kind: Equatable {
        case open, close, or, and, not, minus
        /// A bare word; `prefix` when it ended with `*` (stripped).
        case word(String, prefix: Bool)
        /// A `"quoted phrase"`.
        case phrase(String)
        /// `key:value` or `#value`; `quoted` when the value was in quotes.
        case filter(key: String, value: String, quoted: Bool, valueOffset: Int)
    }

    var kind: Kind
    var offset: Int
}

/// Splits query text into lexemes; offsets count characters.
struct QueryLexer {
    private let characters: [Character]
    private var index = 0

    init(text: String) {
        characters = Array(text)
    }

    static func isFilterKey<S: StringProtocol>(_ key: S) -> Bool {
        guard let first = key.first, first.isLetter, first.isASCII else { return false }
        return key.allSatisfy { ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ".") && $0.isASCII }
    }

    mutating func lex() throws(QueryError) -> [Lexeme] {
        var lexemes: [Lexeme] = []
        while index < characters.count {
            let character = characters[index]
            let start = index
            if character.isWhitespace {
                index += 1
            } else if character == "(" {
                lexemes.append(Lexeme(kind: .open, offset: start)); index += 1
            } else if character == ")" {
                lexemes.append(Lexeme(kind: .close, offset: start)); index += 1
            } else if character == "-", index + 1 < characters.count,
                      !characters[index + 1].isWhitespace, characters[index + 1] != ")" {
                lexemes.append(Lexeme(kind: .minus, offset: start)); index += 1
            } else if character == "\"" {
                let text = try quoted()
                lexemes.append(Lexeme(kind: .phrase(text), offset: start))
            } else if character == "#" {
                index += 1
                let valueOffset = index
                let (value, quoted) = try filterValue()
                guard !value.isEmpty else {
                    throw QueryError(.emptyFilterValue, at: start, "'#' needs a tag name")
                }
                lexemes.append(Lexeme(kind: .filter(key: "tag", value: value, quoted: quoted,
                                                    valueOffset: valueOffset), offset: start))
            } else {
                lexemes.append(try bare())
            }
        }
        return lexemes
    }

    private func isBare(_ character: Character) -> Bool {
        !character.isWhitespace && character != "(" && character != ")" && character != "\""
    }

    private mutating func bare() throws(QueryError) -> Lexeme {
        let start = index
        while index < characters.count, isBare(characters[index]), characters[index] != ":" {
            index += 1
        }
        let head = String(characters[start..<index])
        if index < characters.count, characters[index] == ":", Self.isFilterKey(head),
           !(index + 2 < characters.count && characters[index + 1] == "/" && characters[index + 2] == "/") {
            index += 1
            let valueOffset = index
            let (value, quoted) = try filterValue()
            guard !value.isEmpty else {
                throw QueryError(.emptyFilterValue, at: start, "'\(head):' needs a value")
            }
            return Lexeme(kind: .filter(key: head, value: value, quoted: quoted, valueOffset: valueOffset),
                          offset: start)
        }
        while index < characters.count, isBare(characters[index]) { index += 1 }
        var word = String(characters[start..<index])
        switch word {
        case "OR": return Lexeme(kind: .or, offset: start)
        case "AND": return Lexeme(kind: .and, offset: start)
        case "NOT": return Lexeme(kind: .not, offset: start)
        default: break
        }
        var prefix = false
        while word.hasSuffix("*") { word.removeLast(); prefix = true }
        return Lexeme(kind: .word(word, prefix: prefix), offset: start)
    }

    /// A filter value: quoted, or bare up to white space or a parenthesis.
    private mutating func filterValue() throws(QueryError) -> (String, Bool) {
        if index < characters.count, characters[index] == "\"" {
            return (try quoted(), true)
        }
        let start = index
        while index < characters.count, isBare(characters[index]) { index += 1 }
        return (String(characters[start..<index]), false)
    }

    /// The text between a `"` at `index` and the next `"`.
    private mutating func quoted() throws(QueryError) -> String {
        let open = index
        index += 1
        let start = index
        while index < characters.count, characters[index] != "\"" { index += 1 }
        guard index < characters.count else {
            throw QueryError(.unterminatedQuote, at: open, "unterminated quote")
        }
        let text = String(characters[start..<index])
        index += 1
        return text
    }
}
