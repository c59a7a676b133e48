import Foundation
import Testing
@testable import QuireLSP
import QuireCore

/// The protocol itself, from a server run in process: lifecycle, exit codes, malformed input,
/// cancellation, and that the output carries nothing but framed messages.
@Suite struct LifecycleTests {
    @Test func initializeAnnouncesCapabilitiesAndShutdownExitsZero() throws {
        let client = LSPClient(inProcess: try LSPHarness.vault(["a.md": "# A\n"]))
        let result = try client.initialize()
        let capabilities = try #require(result["capabilities"])
        #expect(capabilities["textDocumentSync"]?["change"] == .int(2))
        #expect(capabilities["textDocumentSync"]?["willSaveWaitUntil"] == .bool(true))
        #expect(capabilities["completionProvider"] != nil)
        #expect(capabilities["positionEncoding"] == .string("utf-16"))
        #expect(result["serverInfo"]?["name"] == .string("quire"))
        // A second initialize is refused; the server goes on.
        #expect(try client.request("initialize", .object([]))["error"]?["code"] == .int(-32600))
        #expect(try client.stop() == 0, "\(client.log)")
    }

    /// A big vault's catalog takes seconds to open: `initialize` is answered first, and the
    /// requests that follow wait for the catalog in order (never an empty answer meanwhile).
    @Test func initializeIsAnsweredBeforeTheCatalogOpensAndRequestsWaitForIt() throws {
        let root = try LSPHarness.vault(["a.md": "# A\n", "b.md": "# B\n"])
        let opening = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let client = LSPClient(inProcess: root) { vault, environment in
            opening.signal()
            release.wait()
            return try VaultSession(vault: vault, environment: environment)
        }
        #expect(try client.initialize()["capabilities"]?["completionProvider"] != nil)
        #expect(opening.wait(timeout: .now() + 60) == .success)
        let id = client.start("workspace/symbol", .object([("query", .string(""))]))
        let symbols = { (message: JSON) in message["id"] == .int(id) }
        #expect(!client.hasReceived(symbols))
        release.signal()
        #expect(try client.wait(symbols)["result"]?.array?.count == 2)
        #expect(try client.stop() == 0, "\(client.log)")
    }

    @Test func exitWithoutShutdownExitsOne() throws {
        let client = LSPClient(inProcess: try LSPHarness.vault())
        try client.initialize()
        client.notify("exit")
        #expect(client.waitForExit() == 1)
    }

    @Test func requestsBeforeInitializeAndAfterShutdownAreRefused() throws {
        let client = LSPClient(inProcess: try LSPHarness.vault())
        #expect(try client.request("textDocument/completion")["error"]?["code"] == .int(-32002))
        try client.initialize()
        _ = try client.result("shutdown", .null)
        #expect(try client.request("workspace/symbol", .object([("query", .string(""))]))["error"]?["code"] == .int(-32600))
        client.notify("exit")
        #expect(client.waitForExit() == 0)
    }

    @Test func malformedMessagesGetErrorsAndTheServerGoesOn() throws {
        let client = LSPClient(inProcess: try LSPHarness.vault())
        try client.initialize(encodings: ["utf-8", "utf-16"])
        client.sendRaw(Array("Content-Length: 9\r\n\r\n{not json".utf8))
        #expect(try client.wait { $0["error"]?["code"] == .int(-32700) }["id"] == .null)
        client.sendRaw(Array("Content-Type: text/plain\r\n\r\n".utf8))
        #expect(try client.wait { $0["error"]?["code"] == .int(-32700) }["error"]?["message"]?.string?.contains("Content-Length") == true)
        client.send(.array([.int(1)]))
        #expect(try client.wait { $0["error"]?["code"] == .int(-32600) }["id"] == .null)
        #expect(try client.request("no/such/method")["error"]?["code"] == .int(-32601))
        #expect(try client.request("textDocument/completion", .object([("textDocument", .object([]))]))["error"]?["code"] == .int(-32602))
        // Still serving.
        #expect(try client.result("workspace/symbol", .object([("query", .string(""))])) == .array([]))
        #expect(try client.stop() == 0)
        #expect(client.log.contains("not json"))
    }

    @Test func aCancelledRequestIsAnsweredWithRequestCancelled() throws {
        let client = LSPClient(inProcess: try LSPHarness.vault(["a.md": "# A\n"]))
        try client.initialize()
        // The cancel is read before the request it names is handled: the answer is the error.
        client.notify("$/cancelRequest", .object([("id", .int(77))]))
        client.send(.object([("jsonrpc", .string("2.0")), ("id", .int(77)), ("method", .string("workspace/symbol")),
                             ("params", .object([("query", .string(""))]))]))
        #expect(try client.wait { $0["id"] == .int(77) }["error"]?["code"] == .int(-32800))
        // Other requests are answered as usual.
        #expect(try client.result("workspace/symbol", .object([("query", .string("a"))])).array?.count == 1)
        #expect(try client.stop() == 0)
    }

    @Test func theEndOfInputWithoutExitEndsTheServerWithOne() throws {
        let client = LSPClient(inProcess: try LSPHarness.vault())
        try client.initialize()
        try client.closeInput()
        #expect(client.waitForExit() == 1)
    }

    @Test func noVaultIsAnInitializeError() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("quire-no-vault-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let client = LSPClient(inProcess: folder)
        let answer = try client.request("initialize", .object([("rootUri", .string(folder.absoluteString)), ("capabilities", .object([]))]))
        #expect(answer["error"]?["message"]?.string?.contains("no quire vault") == true)
        client.notify("exit")
        #expect(client.waitForExit() == 1)
    }
}
