import Foundation
import QuireCore
import QuireKit

extension LanguageServer {
    /// The answer to `initialize`: what the server offers, in the agreed position encoding.
    var initializeResult: InitializeResult {
        InitializeResult(positionEncoding: encoding.rawValue, triggerCharacters: ["[", "#", ":", " ", ","],
                         codeActionKinds: ["quickfix", "refactor.extract"], commands: Self.commands,
                         serverName: "quire", serverVersion: Self.version)
    }

    /// The commands of `workspace/executeCommand`.
    static let commands = ["quire.sync", "quire.status", "quire.conflicts", "quire.restoreConflict"]

    /// Answers one request after `initialize`.
    func route(_ request: LSPRequest, id: JSON) throws(ResponseError) -> JSON {
        switch request {
        case .willSaveWaitUntil(let place): return try willSaveWaitUntil(place)
        case .completion(let place): return try completion(place, id: id)
        case .documentSymbol(let place): return try documentSymbols(place)
        case .definition(let place): return try definition(place)
        case .references(let place): return try references(place, id: id)
        case .hover(let place): return try hover(place)
        case .prepareRename(let place): return try prepareRename(place)
        case let .rename(place, newName): return try rename(place, newName: newName)
        case .workspaceSymbol(let query): return try workspaceSymbols(query: query, id: id)
        case .codeAction(let place): return try codeActions(place)
        case let .executeCommand(command, arguments, token):
            return try executeCommand(command, arguments: arguments, workDoneToken: token)
        }
    }

    /// The clock (`QUIRE_NOW` in tests).
    func now() throws(ResponseError) -> Date {
        do {
            return try QuireClock.now(environment: options.environment)
        } catch {
            throw .internalError("the clock could not be read: \(error)")
        }
    }

    /// Stamping at save: the edit that sets `updatedAt` (and `id`/`createdAt` of a new note) in
    /// the note's own format, or no edit. A change of the file on disk the buffer has not taken
    /// in yet is merged into it first (`mergedForSave`): the save never writes over it.
    func willSaveWaitUntil(_ params: DocumentPosition) throws(ResponseError) -> JSON {
        let open = try openDocument(params)
        guard let path = open.path, let session else { return .array([]) }
        let file = session.vault.url(for: path)
        var onDisk: Data?
        if FileManager.default.fileExists(atPath: file.path) {
            do {
                onDisk = try session.vault.readData(path)
            } catch {
                throw .requestFailed("\(path) could not be read: \(error)")
            }
        }
        // A note a sync moved elsewhere (the same id on disk at another path) is not a new note:
        // stamped as one it would become a second note of that id.
        if onDisk == nil, let other = open.movedTo ?? otherPath(ofNote: open.document.data, at: path) {
            options.log("not stamped: \(path) is the note at \(other)")
            return .array([])
        }
        let buffer = try mergedForSave(open, path: path, onDisk: onDisk)
        var saving = buffer
        do {
            saving = try SaveStamp.stamped(buffer: buffer, onDisk: onDisk, path: path, now: try now()) ?? buffer
        } catch {
            options.log("not stamped: \(path): \(error)")
        }
        documents[open.uri]?.saving = saving
        let edits = open.document.minimalEdits(to: [UInt8](saving))
        return .array(edits.map { TextEdit(range: $0.range, newText: $0.text).json })
    }

    /// `workspace/executeCommand`.
    func executeCommand(_ command: String?, arguments: [JSON], workDoneToken: JSON?) throws(ResponseError) -> JSON {
        guard let command else { throw .invalidParams("command is missing") }
        switch command {
        case "quire.sync": return try startSync(workDoneToken: workDoneToken)
        case "quire.status": return try status()
        case "quire.conflicts": return conflictList(path: arguments.first?.string)
        case "quire.restoreConflict":
            guard let uri = arguments.first?.string, let conflict = arguments.dropFirst().first?.string else {
                throw .invalidParams("quire.restoreConflict takes a document uri and a conflict id")
            }
            return try restoreConflict(uri: uri, id: conflict)
        default: throw .invalidParams("unknown command '\(command)'")
        }
    }
}
