import Foundation
import Testing
@testable import QuireLSP
import QuireCore

/// The bytes of the answers encoded from values (`InitializeResult`, `Hover`, `DocumentSymbol`,
/// `SymbolInformation`, `CodeAction`, `PrepareRenameResult`, `ServerStatus`) are the ones
/// clients have always received: same members, same order.
@Suite struct ResponseBytesTests {
    /// The answer as one line of JSON, the vault's address and path written `VAULT`, new ids `ID`.
    func bytes(_ answer: JSON, _ client: LSPClient) -> String {
        answer.rendered(.compact).replacingOccurrences(of: client.root.absoluteString, with: "VAULT")
            .replacingOccurrences(of: client.root.path, with: "VAULT")
            .replacingOccurrences(of: #"id: [0-9a-f-]{36}"#, with: "id: ID", options: .regularExpression)
    }

    func at(_ client: LSPClient, _ path: String, _ line: Int, _ character: Int) -> JSON {
        .object([("textDocument", .object([("uri", .string(client.uri(path)))])), ("position", LSPClient.position(line, character))])
    }

    @Test func answersKeepTheirBytes() throws {
        let client = LSPClient(inProcess: try LSPHarness.vault(LinkFeatureTests.files))
        let initialized = try client.result("initialize", .object([("rootUri", .string(client.root.absoluteString)),
                                                                    ("capabilities", LinkFeatureTests.fileOperations)]))
        client.notify("initialized")
        var seen: [String] = [bytes(initialized, client)]
        client.open("new.md", "# Top\n## Under\nAbout [[woody]] and [[Big Plan]].\n")
        seen.append(bytes(try client.result("textDocument/hover", at(client, "new.md", 2, 9)), client))
        seen.append(bytes(try client.result("textDocument/hover", at(client, "new.md", 2, 23)), client))
        seen.append(bytes(try client.result("textDocument/documentSymbol", .object([
            ("textDocument", .object([("uri", .string(client.uri("new.md")))])),
        ])), client))
        seen.append(bytes(try client.result("workspace/symbol", .object([("query", .string("e"))])), client))
        seen.append(bytes(try client.result("textDocument/codeAction", .object([
            ("textDocument", .object([("uri", .string(client.uri("new.md")))])), ("range", LSPClient.range((2, 23, 2, 23))),
            ("context", .object([("diagnostics", .array([]))])),
        ])), client))
        seen.append(bytes(try client.result("textDocument/prepareRename", at(client, "new.md", 2, 9)), client))
        seen.append(bytes(try client.result("workspace/executeCommand", .object([("command", .string("quire.status"))])), client))
        seen.append(bytes(try client.result("textDocument/rename", .object([
            ("textDocument", .object([("uri", .string(client.uri("new.md")))])), ("position", LSPClient.position(2, 9)),
            ("newName", .string("Sheriff Woody")),
        ])), client))
        #expect(seen == Self.expected)
        #expect(try client.stop() == 0)
    }

    /// The answers as the server wrote them before they were encoded from values.
    static let expected = [
        ###"{"capabilities":{"positionEncoding":"utf-16","textDocumentSync":{"openClose":true,"change":2,"willSave":false,"willSaveWaitUntil":true,"save":{"includeText":false}},"completionProvider":{"triggerCharacters":["[","#",":"," ",","],"resolveProvider":false},"definitionProvider":true,"referencesProvider":true,"hoverProvider":true,"documentSymbolProvider":true,"workspaceSymbolProvider":true,"codeActionProvider":{"codeActionKinds":["quickfix","refactor.extract"]},"renameProvider":{"prepareProvider":true},"executeCommandProvider":{"commands":["quire.sync","quire.status","quire.conflicts","quire.restoreConflict"]}},"serverInfo":{"name":"quire","version":"0.1"}}"###,
        ###"{"contents":{"kind":"markdown","value":"**Woody Pride** — `woody.md`\n\n#toys\n\n---\n\nThe sheriff.\n\n## Hat\nBrown. ^hat-block"},"range":{"start":{"line":2,"character":6},"end":{"line":2,"character":15}}}"###,
        ###"{"contents":{"kind":"markdown","value":"**no note** is named `Big Plan` — a code action creates it"},"range":{"start":{"line":2,"character":20},"end":{"line":2,"character":32}}}"###,
        ###"[{"name":"Top","detail":"#","kind":15,"range":{"start":{"line":0,"character":0},"end":{"line":3,"character":0}},"selectionRange":{"start":{"line":0,"character":0},"end":{"line":0,"character":5}},"children":[{"name":"Under","detail":"##","kind":15,"range":{"start":{"line":1,"character":0},"end":{"line":3,"character":0}},"selectionRange":{"start":{"line":1,"character":0},"end":{"line":1,"character":8}},"children":[]}]}]"###,
        ###"[{"name":"new","kind":1,"location":{"uri":"VAULT/new.md","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}}},{"name":"Jessie","kind":1,"containerName":"notes","location":{"uri":"VAULT/notes/jessie.md","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}}},{"name":"Woody Pride","kind":1,"location":{"uri":"VAULT/woody.md","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}}}]"###,
        ###"[{"title":"Create note 'Big Plan' (big-plan.md)","kind":"quickfix","edit":{"documentChanges":[{"kind":"create","uri":"VAULT/big-plan.md","options":{"overwrite":false,"ignoreIfExists":false}},{"textDocument":{"uri":"VAULT/big-plan.md","version":null},"edits":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"newText":"---\nid: ID\ntitle: Big Plan\ncreatedAt: 2026-11-29T12:00:00+00:00\nupdatedAt: 2026-11-29T12:00:00+00:00\ntags: []\n---\n"}]}]}}]"###,
        ###"{"range":{"start":{"line":2,"character":8},"end":{"line":2,"character":13}},"placeholder":"Woody Pride"}"###,
        ###"{"vault":"VAULT","notes":4,"openDocuments":1,"uncommitted":6,"ahead":0,"behind":0,"conflicts":0,"syncRunning":false}"###,
        ###"{"documentChanges":[{"textDocument":{"uri":"VAULT/new.md","version":1},"edits":[{"range":{"start":{"line":2,"character":6},"end":{"line":2,"character":15}},"newText":"[[sheriff-woody]]"}]}]}"###,
    ]

    @Test func conflictActionsAreCommands() {
        let command = Command(title: "Restore conflict c1", command: "quire.restoreConflict", arguments: [.string("file:///n.md"), .string("c1")])
        let action = CodeAction(title: "Restore", kind: "quickfix", effect: .command(command))
        #expect(action.json.rendered(.compact) == #"{"title":"Restore","kind":"quickfix","command":{"title":"Restore conflict c1","#
            + #""command":"quire.restoreConflict","arguments":["file:///n.md","c1"]}}"#)
    }

    @Test func aFileRenameInAnEditKeepsItsBytes() {
        var edit = WorkspaceEditBuilder()
        edit.rename("file:///a.md", "file:///b.md", overwrite: true)
        #expect(edit.json.rendered(.compact) == #"{"documentChanges":[{"kind":"rename","oldUri":"file:///a.md","newUri":"file:///b.md","#
            + #""options":{"overwrite":true,"ignoreIfExists":false}}]}"#)
    }
}
