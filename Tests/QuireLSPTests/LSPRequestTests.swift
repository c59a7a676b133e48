import Foundation
import Testing
@testable import QuireLSP
import QuireCore

/// Requests and notifications are decoded from their JSON-RPC messages in one place
/// (`LSPRequest`, `LSPNotification`, `InitializeParams`); results are encoded from values
/// (`Location`, `TextEdit`, `CompletionList`, `CompletionItem`).
@Suite struct LSPRequestTests {
    @Test func aRequestCarriesItsParametersAsValues() throws {
        let params = JSON.object([
            ("textDocument", .object([("uri", .string("file:///v/a.md"))])),
            ("position", .object([("line", .int(2)), ("character", .int(5))])), ("newName", .string("Buzz")),
        ])
        guard case let .rename(place, newName) = try LSPRequest(method: "textDocument/rename", params: params) else {
            Issue.record("not a rename")
            return
        }
        #expect(place.uri == "file:///v/a.md")
        #expect(place.position == Position(line: 2, character: 5))
        #expect(newName == "Buzz")
        guard case .workspaceSymbol(let query) = try LSPRequest(method: "workspace/symbol", params: .object([])) else {
            Issue.record("not a workspace symbol request")
            return
        }
        #expect(query == "")
    }

    @Test func anUnknownMethodIsMethodNotFoundAndMissingPartsStayNil() throws {
        #expect(throws: ResponseError.methodNotFound("no/such/method")) {
            try LSPRequest(method: "no/such/method", params: .null)
        }
        let place = DocumentPosition(.object([("position", .object([("line", .int(-1)), ("character", .int(0))]))]))
        #expect(place.uri == nil && place.position == nil && place.range == nil)
    }

    @Test func notificationsAndInitializeDecode() {
        guard case let .didChange(uri, version, changes) = LSPNotification(method: "textDocument/didChange", params: .object([
            ("textDocument", .object([("uri", .string("file:///v/a.md")), ("version", .int(7))])),
            ("contentChanges", .array([.object([("text", .string("x"))]), .object([("range", .object([])), ("text", .string("y"))])])),
        ])) else {
            Issue.record("not a change")
            return
        }
        #expect(uri == "file:///v/a.md" && version == 7)
        #expect(changes?.map(\.hasRange) == [false, true])
        #expect(changes?.last?.range == nil)
        let initialize = InitializeParams(.object([
            ("rootUri", .string("file:///v")),
            ("capabilities", .object([("general", .object([("positionEncodings", .array([.string("utf-8")]))]))])),
        ]))
        #expect(initialize.present && initialize.positionEncodings == ["utf-8"] && initialize.workspace?.path == "/v")
        #expect(!InitializeParams(.null).present)
    }

    @Test func resultsEncodeAsTheProtocolSpellsThem() {
        let start = JSON.object([("line", .int(0)), ("character", .int(0))])
        #expect(Location.top(of: "file:///v/a.md").json
            == .object([("uri", .string("file:///v/a.md")), ("range", .object([("start", start), ("end", start)]))]))
        let edit = TextEdit(range: TextRange(start: Position(line: 0, character: 0), end: Position(line: 0, character: 0)), newText: "x")
        #expect(edit.json == .object([("range", .object([("start", start), ("end", start)])), ("newText", .string("x"))]))
        #expect(CompletionList(isIncomplete: true, items: []).json == .object([("isIncomplete", .bool(true)), ("items", .array([]))]))
        let item = CompletionItem(label: "woody", kind: 14, detail: "2 notes", textEdit: edit).json
        #expect(item["label"] == .string("woody") && item["kind"] == .int(14) && item["textEdit"] == edit.json)
        #expect(item["filterText"] == nil && item["sortText"] == nil && item["documentation"] == nil)
    }
}
