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

/// The answer to `textDocument/hover` (LSP `Hover`): Markdown about the range under the cursor.
struct Hover: Sendable {
    var markdown: String
    var range: TextRange

    var json: JSON {
        .object([("contents", .object([("kind", .string("markdown")), ("value", .string(markdown))])), ("range", range.json)])
    }
}

/// A heading of a note and those under it (LSP `DocumentSymbol`, kind 15 string).
struct DocumentSymbol: Sendable {
    var name: String
    var detail: String
    /// The section: the heading to the line before the next heading of its level or higher.
    var range: TextRange
    /// The heading's line.
    var selectionRange: TextRange
    var children: [DocumentSymbol]

    var json: JSON {
        .object([
            ("name", .string(name)), ("detail", .string(detail)), ("kind", .int(15)), ("range", range.json),
            ("selectionRange", selectionRange.json), ("children", .array(children.map(\.json))),
        ])
    }
}

/// A note found by `workspace/symbol` (LSP `SymbolInformation`, kind 1 file).
struct SymbolInformation: Sendable {
    var name: String
    /// The note's folder, nil at the vault's top.
    var containerName: String?
    var location: Location

    var json: JSON {
        .object(["name": .string(name), "kind": .int(1), "containerName": containerName.map { .string($0) }, "location": location.json])
    }
}

/// A command the client runs on the server (LSP `Command`).
struct Command: Sendable {
    var title: String
    var command: String
    var arguments: [JSON]

    var json: JSON { .object([("title", .string(title)), ("command", .string(command)), ("arguments", .array(arguments))]) }
}

/// An answer to `textDocument/codeAction` (LSP `CodeAction`): an edit, or a command to run.
struct CodeAction: Sendable {
    /// What accepting the action does.
    enum Effect: Sendable {
        case edit(WorkspaceEditBuilder)
        case command(Command)
    }

    var title: String
    /// `quickfix` or `refactor.extract`.
    var kind: String
    var effect: Effect

    var json: JSON {
        switch effect {
        case .edit(let edit): .object([("title", .string(title)), ("kind", .string(kind)), ("edit", edit.json)])
        case .command(let command): .object([("title", .string(title)), ("kind", .string(kind)), ("command", command.json)])
        }
    }
}

/// The answer to `textDocument/prepareRename`: the range renamed and the name it has now.
struct PrepareRenameResult: Sendable {
    var range: TextRange
    var placeholder: String

    var json: JSON { .object([("range", range.json), ("placeholder", .string(placeholder))]) }
}
