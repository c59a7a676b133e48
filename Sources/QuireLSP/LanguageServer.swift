import Foundation
import QuireCore

/// How the front end starts the server.
public struct LanguageServerOptions: Sendable {
    /// The process environment (`QUIRE_VAULT`, `QUIRE_NOW`, `QUIRE_DEVICE`, …).
    public var environment: [String: String]
    /// Where to look for the vault when the client names no workspace folder (the current
    /// directory, or `--vault`).
    public var fallbackDirectory: URL
    /// Where log lines go (the CLI writes them to standard error); never standard output.
    public var log: @Sendable (String) -> Void

    /// Creates options.
    public init(environment: [String: String], fallbackDirectory: URL, log: @escaping @Sendable (String) -> Void) {
        self.environment = environment
        self.fallbackDirectory = fallbackDirectory
        self.log = log
    }
}

/// A language server for a Quire vault (LSP 3.17 over JSON-RPC 2.0 with `Content-Length`
/// framing). `run()` reads messages from the input descriptor until `exit` or the end of input
/// and writes only protocol messages to the output descriptor.
///
/// Threads: `run()`'s thread reads and frames messages and takes `$/cancelRequest` and `exit`
/// at once; every other message is handled in order on one serial queue, which alone touches
/// the documents, the vault session and the lifecycle state (hence `@unchecked Sendable`). The
/// watcher's thread and a running sync post their results onto that queue.
public final class LanguageServer: @unchecked Sendable {
    let options: LanguageServerOptions
    private let reader: MessageReader
    let writer: MessageWriter
    let queue = DispatchQueue(label: "quire.lsp")
    /// Opens the vault's catalog (`VaultSession.init`; tests hold it back to see what waits).
    private let openSession: @Sendable (Vault, [String: String]) throws -> VaultSession
    /// Work off `queue` (a sync, the conflicts read from history): `exit` waits for it a while,
    /// for libgit2 must not be torn down under it (the process crashed at exit now and then).
    let background = DispatchGroup()
    private let cancelLock = NSLock()
    private var cancelledIDs: Set<String> = []

    // State below is touched on `queue` only.
    var state = Lifecycle.starting
    var encoding = PositionEncoding.utf16
    var session: VaultSession?
    /// The vault `initialize` found, whose catalog opens once the answer is sent.
    private var vaultToOpen: Vault?
    var documents: [String: OpenDocument] = [:]
    var watcher: VaultWatcher?
    var clientCapabilities = JSON.null
    var nextRequestID = 1
    var syncRunning = false
    /// What to do with the client's answers to the server's requests, by request id.
    var answerHandlers: [String: (JSON) -> Void] = [:]
    var conflicts = ConflictIndex()

    /// Where the server is in the protocol's lifecycle.
    enum Lifecycle: Equatable {
        case starting, running, shutDown
    }

    /// A server reading `input` and writing `output` (descriptors the caller owns).
    public convenience init(input: Int32, output: Int32, options: LanguageServerOptions) {
        self.init(input: input, output: output, options: options) { vault, environment in
            try VaultSession(vault: vault, environment: environment)
        }
    }

    /// A server whose catalog is opened by `openSession`.
    init(input: Int32, output: Int32, options: LanguageServerOptions,
         openSession: @escaping @Sendable (Vault, [String: String]) throws -> VaultSession) {
        self.options = options
        self.openSession = openSession
        reader = MessageReader(descriptor: input)
        writer = MessageWriter(descriptor: output)
    }

    /// Serves until `exit` (or the end of input) and returns the process exit code the
    /// specification asks for: 0 when `shutdown` came first, else 1.
    public func run() -> Int32 {
        while true {
            switch reader.next() {
            case .end:
                options.log("the client closed the input")
                return finish()
            case .badHeader(let reason):
                options.log("skipped a message: \(reason)")
                sendError(id: .null, ResponseError.parseError(reason))
            case .body(let bytes):
                let message: JSON
                do throws(JSONSyntaxError) {
                    message = try JSON.parse(bytes)
                } catch {
                    let reason = "invalid json at byte \(error.offset): \(error.reason)"
                    options.log("not json: \(reason)")
                    sendError(id: .null, .parseError(reason))
                    continue
                }
                guard message.isObject else {
                    sendError(id: .null, .invalidRequest("a message must be a json object"))
                    continue
                }
                switch message["method"]?.string {
                case "exit"?:
                    return finish()
                case "$/cancelRequest"?:
                    if let id = message["params"]?["id"] { cancel(id) }
                default:
                    queue.async { self.dispatch(message) }
                }
            }
        }
    }

    /// Waits for the queue, stops the watcher and gives the exit code. A batch the watcher handed
    /// over while it stopped is queued behind that: the second wait lets it run before the
    /// process exits (work still running while the process tears down can crash it).
    private func finish() -> Int32 {
        let code: Int32 = queue.sync {
            watcher?.stop()
            watcher = nil
            return state == .shutDown ? 0 : 1
        }
        if background.wait(timeout: .now() + 10) == .timedOut {
            options.log("exiting while background work still runs (a sync stops at its safe points)")
        }
        queue.sync {}
        return code
    }

    // MARK: cancellation

    private static func key(_ id: JSON) -> String {
        switch id {
        case let .int(number): return "i\(number)"
        case let .string(text): return "s" + text
        default: return id.rendered(.compact)
        }
    }

    private func cancel(_ id: JSON) {
        cancelLock.lock()
        cancelledIDs.insert(Self.key(id))
        cancelLock.unlock()
    }

    /// Whether the client cancelled request `id` (long answers ask between steps).
    func isCancelled(_ id: JSON) -> Bool {
        cancelLock.lock()
        defer { cancelLock.unlock() }
        return cancelledIDs.contains(Self.key(id))
    }

    private func forget(_ id: JSON) {
        cancelLock.lock()
        cancelledIDs.remove(Self.key(id))
        cancelLock.unlock()
    }

    // MARK: sending

    func sendError(id: JSON, _ error: ResponseError) {
        writer.send(.object([("jsonrpc", .string("2.0")), ("id", id), ("error", error.json)]))
    }

    func sendResult(id: JSON, _ result: JSON) {
        writer.send(.object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)]))
    }

    /// Sends a notification.
    func notify(_ method: String, _ params: JSON) {
        writer.send(.object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)]))
    }

    /// Sends a request to the client; `then` gets its answer (the whole response) on the queue.
    func request(_ method: String, _ params: JSON, then: ((JSON) -> Void)? = nil) {
        let id = "quire-\(nextRequestID)"
        nextRequestID += 1
        if let then { answerHandlers[id] = then }
        writer.send(.object([("jsonrpc", .string("2.0")), ("id", .string(id)),
                             ("method", .string(method)), ("params", params)]))
    }

    /// Shows a message in the editor (`window/showMessage`; 1 error, 2 warning, 3 info).
    func showMessage(_ text: String, type: Int = 3) {
        notify("window/showMessage", .object([("type", .int(type)), ("message", .string(text))]))
    }

    // MARK: dispatch (on the queue)

    private func dispatch(_ message: JSON) {
        guard let method = message["method"]?.string else {
            if let id = message["id"], message["result"] != nil || message["error"] != nil {
                // A client's answer to one of the server's requests.
                if let key = id.string, let handler = answerHandlers.removeValue(forKey: key) { handler(message) }
                return
            }
            sendError(id: message["id"] ?? .null, .invalidRequest("a message needs a 'method' (or is an answer)"))
            return
        }
        let params = message["params"] ?? .null
        guard let id = message["id"] else {
            handleNotification(method, params)
            return
        }
        guard id.int != nil || id.string != nil else {
            sendError(id: .null, .invalidRequest("a request id must be a number or a string"))
            return
        }
        defer { forget(id) }
        if isCancelled(id) {
            sendError(id: id, .cancelled)
            return
        }
        do throws(ResponseError) {
            let result = try handleRequest(method, params, id: id)
            if isCancelled(id) { throw .cancelled }
            sendResult(id: id, result)
        } catch {
            sendError(id: id, error)
        }
        if let vault = vaultToOpen {
            vaultToOpen = nil
            openCatalog(vault)
        }
    }

    private func handleRequest(_ method: String, _ params: JSON, id: JSON) throws(ResponseError) -> JSON {
        switch (state, method) {
        case (.starting, "initialize"): return try initialize(params)
        case (.starting, _): throw .notInitialized
        case (.running, "initialize"), (.shutDown, "initialize"):
            throw .invalidRequest("initialize was already received")
        case (.shutDown, _): throw .invalidRequest("the server was shut down")
        case (.running, "shutdown"):
            state = .shutDown
            watcher?.stop()
            watcher = nil
            return .null
        case (.running, _): return try route(method, params, id: id)
        }
    }

    private func handleNotification(_ method: String, _ params: JSON) {
        guard state == .running else {
            if state == .starting && method != "initialized" { options.log("ignored '\(method)' before initialize") }
            return
        }
        switch method {
        case "initialized": started()
        case "textDocument/didOpen": didOpen(params)
        case "textDocument/didChange": didChange(params)
        case "textDocument/didClose": didClose(params)
        case "textDocument/didSave": didSave(params)
        case "workspace/didChangeWatchedFiles", "workspace/didChangeConfiguration": break
        default:
            if !method.hasPrefix("$/") { options.log("ignored notification '\(method)'") }
        }
    }

    private func initialize(_ params: JSON) throws(ResponseError) -> JSON {
        guard params.isObject else { throw .invalidParams("initialize needs its parameters") }
        clientCapabilities = params["capabilities"] ?? .null
        let offered = clientCapabilities["general"]?["positionEncodings"]?.array?.compactMap(\.string) ?? []
        encoding = offered.contains("utf-8") ? .utf8 : .utf16
        let start = Self.workspaceDirectory(params) ?? options.fallbackDirectory
        let vault: Vault
        do {
            vault = try Vault.locate(startingAt: start, environment: options.environment)
        } catch {
            throw .requestFailed("no quire vault at or above \(start.path): \(error)")
        }
        // The catalog opens right after the answer (a big vault's takes seconds): the messages
        // that follow wait for it in order, as they waited for the answer.
        vaultToOpen = vault
        state = .running
        return .object([
            ("capabilities", capabilities),
            ("serverInfo", .object([("name", .string("quire")), ("version", .string(Self.version))])),
        ])
    }

    /// Opens the catalog of `vault` (on the queue, right after `initialize` is answered); a
    /// failure is shown, and the requests that need the catalog answer as for no vault.
    private func openCatalog(_ vault: Vault) {
        do {
            session = try openSession(vault, options.environment)
            options.log("serving \(vault.root.path): \(session?.directory.count ?? 0) notes")
        } catch {
            options.log("the catalog of \(vault.root.path) could not be opened: \(error)")
            showMessage("quire: the catalog of \(vault.root.path) could not be opened: \(error)", type: 1)
        }
    }

    /// The version reported to the client.
    public static let version = "0.1"

    /// The folder the client opened: the first workspace folder, else `rootUri`, else `rootPath`.
    private static func workspaceDirectory(_ params: JSON) -> URL? {
        let uri = params["workspaceFolders"]?[0]?["uri"]?.string ?? params["rootUri"]?.string
        if let uri, let url = URL(string: uri), url.isFileURL { return url }
        if let path = params["rootPath"]?.string, !path.isEmpty { return URL(fileURLWithPath: path) }
        return nil
    }
}
