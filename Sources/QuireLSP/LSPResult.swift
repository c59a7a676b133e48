import QuireCore

/// A place in a document, as answers carry it (LSP `Location`).
struct Location: Sendable {
    var uri: String
    var range: TextRange

    /// The place at the start of the document at `uri`.
    static func top(of uri: String) -> Location {
        let start = Position(line: 0, character: 0)
        return Location(uri: uri, range: TextRange(start: start, end: start))
    }

    var json: JSON { .object([("uri", .string(uri)), ("range", range.json)]) }
}

/// A replacement of a range's text (LSP `TextEdit`).
struct TextEdit: Sendable {
    var range: TextRange
    var newText: String

    var json: JSON { .object([("range", range.json), ("newText", .string(newText))]) }
}

/// The answer to `textDocument/completion` (LSP `CompletionList`).
struct CompletionList: Sendable {
    /// Whether more items matched than are listed (the client asks again as the user types).
    var isIncomplete: Bool
    var items: [JSON]

    var json: JSON { .object([("isIncomplete", .bool(isIncomplete)), ("items", .array(items))]) }
}
