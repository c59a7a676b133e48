import Foundation
import QuireCore
import QuireKit

extension LanguageServer {
    /// `textDocument/codeAction`: create the note of an unresolved link, extract a selection into
    /// a new note; for a note with unresolved sync conflicts, list them and replace the buffer
    /// with a conflict's losing version (an edit the editor can undo).
    func codeActions(_ params: DocumentPosition) throws(ResponseError) -> JSON {
        let open = try openDocument(params)
        guard let path = open.path else { return .array([]) }
        guard let range = params.range else { throw .invalidParams("range is missing") }
        var actions = try linkActions(open, path: path, range: range)
        if let records = conflicts.byPath[path], !records.isEmpty {
            actions.append(CodeAction(title: "List the sync conflicts of this note", kind: "quickfix", effect: .command(
                Command(title: "List sync conflicts", command: "quire.conflicts", arguments: [.string(path)]))))
            for record in records {
                let losing = record.winner == "ours" ? "theirs" : "ours"
                actions.append(CodeAction(
                    title: "Restore the losing version of conflict \(record.id) (\(losing), \(record.device))", kind: "quickfix",
                    effect: .command(Command(title: "Restore conflict \(record.id)", command: "quire.restoreConflict",
                                             arguments: [.string(open.uri), .string(record.id)]))))
            }
        }
        return .array(actions.map(\.json))
    }

    /// `quire.conflicts`: the unresolved sync conflicts (of one note when `path` is given),
    /// shown as a message and returned.
    func conflictList(path: String?) -> JSON {
        let records = conflicts.byPath.keys.sorted().filter { path == nil || $0 == path }.flatMap { conflicts.byPath[$0] ?? [] }
        let lines = records.map { "\($0.id) \($0.path): \($0.winner) won on \($0.device) — \($0.reason)" }
        showMessage(records.isEmpty ? "no unresolved sync conflicts" : lines.joined(separator: "\n"))
        return .array(records.map(\.json))
    }

    /// `quire.restoreConflict URI ID`: asks the editor to replace the buffer with the losing
    /// version of conflict `id`, stamped (`workspace/applyEdit`; the user saves or undoes it).
    func restoreConflict(uri: String, id: String) throws(ResponseError) -> JSON {
        guard let open = documents[uri], let session else { throw .invalidParams("\(uri) is not open") }
        let data: Data?
        do {
            data = try SyncConflicts.losingVersion(id, in: session.vault, now: try now())
        } catch {
            throw .requestFailed("conflict \(id): \(error)")
        }
        guard let data else { throw .requestFailed("the losing side of conflict \(id) deleted the note") }
        guard let edit = open.document.minimalEdit(to: [UInt8](data)) else { return .bool(true) }
        request("workspace/applyEdit", .object([
            ("label", .string("Restore conflict \(id)")),
            ("edit", .object([("changes", .object([(uri, .array([TextEdit(range: edit.range, newText: edit.text).json]))]))])),
        ]))
        return .bool(true)
    }
}
