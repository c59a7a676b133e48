import Foundation
import QuireCore
import Synchronization

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
/// Isolation: `run()`'s thread reads and frames messages and takes `$/cancelRequest` and `exit`
/// at once; every other message is handled in order on `LanguageServerActor`, which alone holds
/// the documents, the vault session and the lifecycle state. The watcher's thread and a running
/// sync hand their results to the actor.
@LanguageServerActor
public final class LanguageServer {
    let options: LanguageServerOptions
    private let input: Int32
    let writer: MessageWriter
    /// Opens the vault's catalog (`VaultSession.init`; tests hold it back to see what waits).
    private let openSession: @Sendable (Vault, [String: String]) throws -> VaultSession
    /// Work off the actor (a sync, the conflicts read from history, a watcher's batch on its way):
    /// `exit` waits for it a while, for libgit2 must not be torn down under it (the process
    /// crashed at exit now and then).
    let background = DispatchGroup()
    /// The requests the client cancelled (by `key(_:)`), set by `run()`'s thread.
    private let cancelledIDs = Mutex<Set<String>>([])

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
    public nonisolated convenience init(input: Int32, output: Int32, options: LanguageServerOptions) {
        self.init(input: input, output: output, options: options) { vault, environment in
            try VaultSession(vault: vault, environment: environment)
        }
    }

    /// A server whose catalog is opened by `openSession`.
    nonisolated init(input: Int32, output: Int32, options: LanguageServerOptions,
                     openSession: @escaping @Sendable (Vault, [String: String]) throws -> VaultSession) {
        self.options = options
        self.openSession = openSession
        self.input = input
        writer = MessageWriter(descriptor: output)
    }

    /// Serves until `exit` (or the end of input) and returns the process exit code the
    /// specification asks for: 0 when `shutdown` came first, else 1. Blocks the calling thread
    /// (never call it from a task).
    public nonisolated func run() -> Int32 {
        let (messages, handOver) = AsyncStream.makeStream(of: JSON.self)
        let handled = DispatchSemaphore(value: 0)
        LanguageServerActor.perform {
            for await message in messages { self.dispatch(message) }
            handled.signal()
        }
        read(into: handOver)
        handOver.finish()
        handled.wait()
        return finish()
    }

    /// Reads and frames messages until `exit` or the end of input, answering what cannot be
    /// parsed and taking cancellations at once; hands every other message over in order.
    private nonisolated func read(into handOver: AsyncStream<JSON>.Continuation) {
        let reader = MessageReader(descriptor: input)
        while true {
            switch reader.next() {
            case .end:
                options.log("the client closed the input")
                return
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
                    return
                case "$/cancelRequest"?:
                    if let id = message["params"]?["id"] { cancel(id) }
                default:
                    handOver.yield(message)
                }
            }
        }
    }

    /// Once every message is handled: stops the watcher, waits for the work off the actor
    /// (a sync, a batch the watcher handed over while it stopped: work still running while the
    /// process tears down can crash it) and gives the exit code.
    private nonisolated func finish() -> Int32 {
        let code = Self.blocking { @LanguageServerActor in self.stopWatching() } ?? 1
        if background.wait(timeout: .now() + 10) == .timedOut {
            options.log("exiting while background work still runs (a sync stops at its safe points)")
        }
        return code
    }

    /// Stops the watcher; the exit code.
    private func stopWatching() -> Int32 {
        watcher?.stop()
        watcher = nil
        return state == .shutDown ? 0 : 1
    }

    /// Runs `work` on the actor and waits for its value on this thread.
    private nonisolated static func blocking<Value: Sendable>(
        _ work: @escaping @Sendable @LanguageServerActor () -> Value) -> Value? {
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox<Value>()
        LanguageServerActor.perform {
            let value = work()
            result.value.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.value.withLock { $0 }
    }

    // MARK: cancellation

    private nonisolated static func key(_ id: JSON) -> String {
        switch id {
        case let .int(number): return "i\(number)"
        case let .string(text): return "s" + text
        default: return id.rendered(.compact)
        }
    }

    private nonisolated func cancel(_ id: JSON) {
        _ = cancelledIDs.withLock { $0.insert(Self.key(id)) }
    }

    /// Whether the client cancelled request `id` (long answers ask between steps).
    nonisolated func isCancelled(_ id: JSON) -> Bool {
        cancelledIDs.withLock { $0.contains(Self.key(id)) }
    }

    private nonisolated func forget(_ id: JSON) {
        _ = cancelledIDs.withLock { $0.remove(Self.key(id)) }
    }

    // MARK: dispatch (on the actor)

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
        case (.starting, "initialize"): return try initialize(InitializeParams(params))
        case (.starting, _): throw .notInitialized
        case (.running, "initialize"), (.shutDown, "initialize"):
            throw .invalidRequest("initialize was already received")
        case (.shutDown, _): throw .invalidRequest("the server was shut down")
        case (.running, "shutdown"):
            state = .shutDown
            watcher?.stop()
            watcher = nil
            return .null
        case (.running, _): return try route(LSPRequest(method: method, params: params), id: id)
        }
    }

    private func handleNotification(_ method: String, _ params: JSON) {
        guard state == .running else {
            if state == .starting && method != "initialized" { options.log("ignored '\(method)' before initialize") }
            return
        }
        switch LSPNotification(method: method, params: params) {
        case .initialized: started()
        case let .didOpen(uri, text, version): didOpen(uri: uri, text: text, version: version)
        case let .didChange(uri, version, changes): didChange(uri: uri, version: version, changes: changes)
        case .didClose(let uri): didClose(uri: uri)
        case .didSave(let uri): didSave(uri: uri)
        case .ignored: break
        case .unknown(let method):
            if !method.hasPrefix("$/") { options.log("ignored notification '\(method)'") }
        }
    }

    private func initialize(_ params: InitializeParams) throws(ResponseError) -> JSON {
        guard params.present else { throw .invalidParams("initialize needs its parameters") }
        clientCapabilities = params.capabilities
        encoding = params.positionEncodings.contains("utf-8") ? .utf8 : .utf16
        let start = params.workspace ?? options.fallbackDirectory
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
        return initializeResult.json
    }

    /// Opens the catalog of `vault` (on the actor, right after `initialize` is answered); a
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
}

/// Where `LanguageServer.blocking` leaves the value its task computed.
private final class ResultBox<Value: Sendable>: Sendable {
    let value = Mutex<Value?>(nil)
}
