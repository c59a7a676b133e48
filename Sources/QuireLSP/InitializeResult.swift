import QuireCore

/// The answer to `initialize` (LSP `InitializeResult`): what the server offers, and its name.
struct InitializeResult: Sendable {
    /// The position encoding the server and client agreed on (`utf-8`, `utf-16`, `utf-32`).
    var positionEncoding: String
    /// The characters after which clients ask for completion.
    var triggerCharacters: [String]
    /// The kinds of code action the server offers.
    var codeActionKinds: [String]
    /// The commands of `workspace/executeCommand`.
    var commands: [String]
    /// The server's name and version.
    var serverName: String
    var serverVersion: String

    /// What the server offers (LSP `ServerCapabilities`): full sync of opened and closed
    /// documents with incremental changes (2) and stamping at save; completion, definition,
    /// references, hover, symbols, code actions, rename with prepare, and the commands.
    var capabilities: JSON {
        .object([
            ("positionEncoding", .string(positionEncoding)),
            ("textDocumentSync", .object([
                ("openClose", .bool(true)), ("change", .int(2)), ("willSave", .bool(false)),
                ("willSaveWaitUntil", .bool(true)), ("save", .object([("includeText", .bool(false))])),
            ])),
            ("completionProvider", .object([
                ("triggerCharacters", .array(triggerCharacters.map { .string($0) })), ("resolveProvider", .bool(false)),
            ])),
            ("definitionProvider", .bool(true)), ("referencesProvider", .bool(true)), ("hoverProvider", .bool(true)),
            ("documentSymbolProvider", .bool(true)),
            ("workspaceSymbolProvider", .bool(true)),
            ("codeActionProvider", .object([("codeActionKinds", .array(codeActionKinds.map { .string($0) }))])),
            ("renameProvider", .object([("prepareProvider", .bool(true))])),
            ("executeCommandProvider", .object([("commands", .array(commands.map { .string($0) }))])),
        ])
    }

    var json: JSON {
        .object([("capabilities", capabilities),
                 ("serverInfo", .object([("name", .string(serverName)), ("version", .string(serverVersion))]))])
    }
}
