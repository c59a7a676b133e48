import Foundation
import Testing
@testable import QuireLSP
import QuireCore

/// `workspace/executeCommand` through the built `quire lsp`: sync now with `$/progress`, status,
/// and the sync-conflict diagnostics and actions on a real conflict between two devices.
@Suite struct SyncCommandTests {
    @Test func syncRunsWithProgressAndStatusReportsIt() throws {
        let (vault, remote) = try LSPHarness.vaultWithRemote(["a.md": "---\ntitle: A\n---\nBody.\n"])
        let client = try LSPClient(root: vault)
        _ = try client.result("initialize", .object([("rootUri", .string(vault.absoluteString)),
                                                      ("capabilities", .object([("window", .object([("workDoneProgress", .bool(true))]))]))]))
        client.notify("initialized")
        let started = try client.result("workspace/executeCommand", .object([("command", .string("quire.sync")), ("arguments", .array([]))]))
        #expect(started["started"] == .bool(true))
        let create = try client.wait { $0["method"]?.string == "window/workDoneProgress/create" }
        client.answer(create)
        let token = try #require(create["params"]?["token"])
        let begin = try client.wait { $0["method"]?.string == "$/progress" && $0["params"]?["value"]?["kind"] == .string("begin") }
        #expect(begin["params"]?["token"] == token)
        #expect(try client.wait { $0["params"]?["value"]?["message"] == .string("pushing") }["params"]?["value"]?["kind"] == .string("report"))
        let end = try client.wait(timeout: 30) { $0["method"]?.string == "$/progress" && $0["params"]?["value"]?["kind"] == .string("end") }
        #expect(end["params"]?["value"]?["message"]?.string?.hasSuffix("pushed") == true)
        let message = try client.wait { $0["method"]?.string == "window/showMessage" }
        #expect(message["params"]?["message"]?.string?.hasPrefix("sync: committed") == true)
        // The remote has the commit.
        #expect(try LSPHarness.run(LSPHarness.git, ["--git-dir", remote.path, "rev-parse", "--verify", "-q", "main"], in: vault) == 0)
        let status = try client.result("workspace/executeCommand", .object([("command", .string("quire.status"))]))
        #expect(status["ahead"] == .int(0) && status["uncommitted"] == .int(0))
        #expect(status["remote"] == .string(remote.path))
        #expect(status["notes"] == .int(1))
        #expect(try client.stop() == 0)
    }

    @Test func aNoteWithAnUnresolvedConflictIsDiagnosedAndItsLosingVersionRestorable() throws {
        let original = "---\ntitle: Plan\nupdatedAt: 2026-11-01T10:00:00+00:00\n---\nLine one.\n"
        let (laptop, desktop, _) = try LSPHarness.twoDevices(["plan.md": original])
        // Both devices change the same line; the desktop's edit is newer and wins.
        try LSPHarness.write(original.replacingOccurrences(of: "Line one.", with: "Laptop text.")
            .replacingOccurrences(of: "10:00:00", with: "11:00:00"), to: laptop.appendingPathComponent("plan.md"))
        try LSPHarness.write(original.replacingOccurrences(of: "Line one.", with: "Desktop text.")
            .replacingOccurrences(of: "10:00:00", with: "12:00:00"), to: desktop.appendingPathComponent("plan.md"))
        try #require(try LSPHarness.quire(["sync"], in: desktop, environment: LSPHarness.desktopEnvironment) == 0)
        try #require(try LSPHarness.quire(["sync"], in: laptop) == 0)

        let client = try LSPClient(root: laptop)
        try client.initialize()
        let merged = try String(contentsOf: laptop.appendingPathComponent("plan.md"), encoding: .utf8)
        #expect(merged.contains("Desktop text."))
        client.open("plan.md", merged)
        let found = try client.diagnostics("plan.md") { $0.contains { $0["code"] == .string("sync-conflict") } }
        let conflict = try #require(found.first { $0["code"] == .string("sync-conflict") })
        let id = try #require(conflict["data"]?[0]?.string)
        let actions = try #require(try client.result("textDocument/codeAction", .object([
            ("textDocument", .object([("uri", .string(client.uri("plan.md")))])), ("range", LSPClient.range((0, 0, 0, 0))),
            ("context", .object([("diagnostics", .array([conflict]))])),
        ])).array)
        #expect(actions.first?["command"]?["command"] == .string("quire.conflicts"))
        let restore = try #require(actions.first { $0["command"]?["command"] == .string("quire.restoreConflict") })
        let listed = try client.result("workspace/executeCommand", .object([("command", .string("quire.conflicts")),
                                                                             ("arguments", .array([.string("plan.md")]))]))
        #expect(listed[0]?["id"] == .string(id))
        #expect(listed[0]?.members?.map(\.key) == ["id", "path", "time", "device", "winner", "reason"])
        _ = try client.result("workspace/executeCommand", try #require(restore["command"]).replacingCommandKey())
        let apply = try client.wait { $0["method"]?.string == "workspace/applyEdit" }
        client.answer(apply, .object([("applied", .bool(true))]))
        let edits = try #require(apply["params"]?["edit"]?["changes"]?[client.uri("plan.md")]?.array)
        let restored = applying(edits, to: merged)
        #expect(restored.contains("Laptop text.") && !restored.contains("Desktop text."))
        #expect(restored.contains("updatedAt: 2026-11-29T12:00:00+00:00"))
        #expect(try client.stop() == 0)
    }
}

extension JSON {
    /// A code action's `Command` as `workspace/executeCommand` parameters.
    func replacingCommandKey() -> JSON {
        .object([("command", self["command"] ?? .null), ("arguments", self["arguments"] ?? .array([]))])
    }
}
