import Foundation
import QuireCore

/// The place of a request in a document, as the client sent it: each part is checked where a
/// request needs it (with the error that request has always given: a missing `textDocument.uri`
/// is refused before a missing `position`).
struct DocumentPosition: Sendable {
    /// `textDocument.uri`.
    var uri: String?
    /// `position`, nil when missing or malformed.
    var position: Position?
    /// `range`, nil when missing or malformed.
    var range: TextRange?

    init(_ params: JSON) {
        uri = params["textDocument"]?["uri"]?.string
        position = Position(params["position"])
        range = TextRange(params["range"])
    }
}

/// One change of `textDocument/didChange`.
struct ContentChange: Sendable {
    /// The new text (nil: the change is skipped).
    var text: String?
    /// Whether the change names a range (a whole-text change does not).
    var hasRange: Bool
    /// The range, nil when missing or malformed.
    var range: TextRange?
}

/// A request after `initialize`, decoded from its JSON-RPC message here and nowhere else: each
/// method's parameters as a value.
enum LSPRequest: Sendable {
    case willSaveWaitUntil(DocumentPosition)
    case completion(DocumentPosition)
    case documentSymbol(DocumentPosition)
    case definition(DocumentPosition)
    case references(DocumentPosition)
    case hover(DocumentPosition)
    case prepareRename(DocumentPosition)
    case rename(DocumentPosition, newName: String?)
    case workspaceSymbol(query: String)
    case codeAction(DocumentPosition)
    case executeCommand(command: String?, arguments: [JSON], workDoneToken: JSON?)

    /// Decodes `method` with `params`; an unknown method is `methodNotFound`.
    init(method: String, params: JSON) throws(ResponseError) {
        let place = DocumentPosition(params)
        switch method {
        case "textDocument/willSaveWaitUntil": self = .willSaveWaitUntil(place)
        case "textDocument/completion": self = .completion(place)
        case "textDocument/documentSymbol": self = .documentSymbol(place)
        case "textDocument/definition": self = .definition(place)
        case "textDocument/references": self = .references(place)
        case "textDocument/hover": self = .hover(place)
        case "textDocument/prepareRename": self = .prepareRename(place)
        case "textDocument/rename": self = .rename(place, newName: params["newName"]?.string)
        case "workspace/symbol": self = .workspaceSymbol(query: params["query"]?.string ?? "")
        case "textDocument/codeAction": self = .codeAction(place)
        case "workspace/executeCommand":
            self = .executeCommand(command: params["command"]?.string, arguments: params["arguments"]?.array ?? [],
                                   workDoneToken: params["workDoneToken"])
        default: throw .methodNotFound(method)
        }
    }
}

/// A notification, decoded from its JSON-RPC message here and nowhere else.
enum LSPNotification: Sendable {
    case initialized
    case didOpen(uri: String?, text: String?, version: Int)
    case didChange(uri: String?, version: Int?, changes: [ContentChange]?)
    case didClose(uri: String?)
    case didSave(uri: String?)
    /// A notification the server takes no action on.
    case ignored
    /// A method the server does not know.
    case unknown(String)

    /// Decodes `method` with `params`.
    init(method: String, params: JSON) {
        let uri = params["textDocument"]?["uri"]?.string
        switch method {
        case "initialized": self = .initialized
        case "textDocument/didOpen":
            let item = params["textDocument"]
            self = .didOpen(uri: uri, text: item?["text"]?.string, version: item?["version"]?.int ?? 0)
        case "textDocument/didChange":
            let changes = params["contentChanges"]?.array?.map { change in
                ContentChange(text: change["text"]?.string, hasRange: change["range"] != nil, range: TextRange(change["range"]))
            }
            self = .didChange(uri: uri, version: params["textDocument"]?["version"]?.int, changes: changes)
        case "textDocument/didClose": self = .didClose(uri: uri)
        case "textDocument/didSave": self = .didSave(uri: uri)
        case "workspace/didChangeWatchedFiles", "workspace/didChangeConfiguration": self = .ignored
        default: self = .unknown(method)
        }
    }
}

/// `initialize`'s parameters.
struct InitializeParams: Sendable {
    /// Whether the parameters were an object at all.
    var present: Bool
    /// The client's capabilities (a tree the server asks as it goes).
    var capabilities: JSON
    /// The encodings of positions the client offers.
    var positionEncodings: [String]
    /// The folder the client opened: the first workspace folder, else `rootUri`, else `rootPath`.
    var workspace: URL?

    init(_ params: JSON) {
        present = params.isObject
        capabilities = params["capabilities"] ?? .null
        positionEncodings = capabilities["general"]?["positionEncodings"]?.array?.compactMap(\.string) ?? []
        let uri = params["workspaceFolders"]?[0]?["uri"]?.string ?? params["rootUri"]?.string
        if let uri, let url = URL(string: uri), url.isFileURL {
            workspace = url
        } else if let path = params["rootPath"]?.string, !path.isEmpty {
            workspace = URL(fileURLWithPath: path)
        }
    }
}
