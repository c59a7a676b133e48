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
    var items: [CompletionItem]

    var json: JSON { .object([("isIncomplete", .bool(isIncomplete)), ("items", .array(items.map(\.json)))]) }
}

/// One completion (LSP `CompletionItem`): what the list shows and the edit accepting it makes.
struct CompletionItem: Sendable {
    var label: String
    /// The LSP kind (10 property, 12 value, 14 keyword, 17 file, 22 struct).
    var kind: Int
    var detail: String
    /// The text clients filter on, when not the label.
    var filterText: String?
    /// The text clients sort on, when not the label.
    var sortText: String?
    /// Shown beside the item (Markdown-free text).
    var documentation: String?
    var textEdit: TextEdit

    init(label: String, kind: Int, detail: String, filterText: String? = nil, sortText: String? = nil,
         documentation: String? = nil, textEdit: TextEdit) {
        self.label = label
        self.kind = kind
        self.detail = detail
        self.filterText = filterText
        self.sortText = sortText
        self.documentation = documentation
        self.textEdit = textEdit
    }

    var json: JSON {
        .object([
            "label": .string(label), "kind": .int(kind), "detail": .string(detail),
            "filterText": filterText.map { .string($0) }, "sortText": sortText.map { .string($0) },
            "documentation": documentation.map { .string($0) }, "textEdit": textEdit.json,
        ])
    }
}
