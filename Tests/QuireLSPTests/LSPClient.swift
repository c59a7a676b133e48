import Foundation
import Testing
@testable import QuireLSP
import QuireCore

/// A language server spoken to over pipes: `quire lsp` started as a subprocess, or a
/// `LanguageServer` run in this process on a thread of its own (`init(inProcess:)`).
final class LSPClient: @unchecked Sendable {
    let root: URL
    private let server: Server
    private let input = Pipe()
    private let output = Pipe()
    private let lock = NSCondition()
    /// Guards `logLines` (`log` is read while `lock` is held).
    private let logLock = NSLock()
    private var received: [JSON] = []
    private var nextID = 1
    private var closed = false
    /// The in-process server's log lines and exit code.
    private var logLines: [String] = []
    private var exitCode: Int32?

    /// Where the server runs.
    private enum Server {
        /// `quire lsp`, with its standard error in the file.
        case process(Process, errors: URL)
        /// A `LanguageServer` on a thread of this process.
        case thread
    }

    /// Starts `quire lsp` in `root` (the vault).
    init(root: URL, arguments: [String] = [], environment extra: [String: String] = [:]) throws {
        self.root = root
        let errors = root.deletingLastPathComponent().appendingPathComponent("lsp-\(UUID().uuidString.prefix(6)).err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = LSPHarness.binary
        process.arguments = ["lsp"] + arguments
        process.currentDirectoryURL = root
        var environment = LSPHarness.environment(home: root.deletingLastPathComponent())
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        server = .process(process, errors: errors)
        startReading()
    }

    /// Runs a `LanguageServer` for `root` (the vault, also the fallback directory) in this
    /// process; `openSession` replaces the catalog's opening (a test holds it back).
    init(inProcess root: URL, environment extra: [String: String] = [:],
         openSession: (@Sendable (Vault, [String: String]) throws -> VaultSession)? = nil) {
        self.root = root
        server = .thread
        var environment = LSPHarness.environment(home: root.deletingLastPathComponent())
        for (key, value) in extra { environment[key] = value }
        let options = LanguageServerOptions(environment: environment, fallbackDirectory: root) { [weak self] line in
            guard let self else { return }
            self.logLock.lock()
            self.logLines.append(line)
            self.logLock.unlock()
        }
        let reading = input.fileHandleForReading.fileDescriptor, writing = output.fileHandleForWriting.fileDescriptor
        let languageServer = openSession.map { LanguageServer(input: reading, output: writing, options: options, openSession: $0) }
            ?? LanguageServer(input: reading, output: writing, options: options)
        let output = output
        Thread { [self] in
            let code = languageServer.run()
            try? output.fileHandleForWriting.close()
            lock.lock()
            exitCode = code
            lock.broadcast()
            lock.unlock()
        }.start()
        startReading()
    }

    private func startReading() {
        let handle = output.fileHandleForReading
        Thread { [self] in
            let reader = MessageReader(descriptor: handle.fileDescriptor)
            while case .body(let bytes) = reader.next() {
                let message = (try? JSON.parse(bytes)) ?? .string("not json: " + String(decoding: bytes, as: UTF8.self))
                lock.lock()
                received.append(message)
                lock.broadcast()
                lock.unlock()
            }
            lock.lock()
            closed = true
            lock.broadcast()
            lock.unlock()
        }.start()
    }

    /// What the server wrote to standard error.
    var log: String {
        switch server {
        case .process(_, let errors): return (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        case .thread:
            logLock.lock()
            defer { logLock.unlock() }
            return logLines.map { "quire lsp: " + $0 + "\n" }.joined()
        }
    }

    func uri(_ path: String) -> String { root.appendingPathComponent(path).absoluteString }

    /// Sends raw bytes (for malformed-input tests).
    func sendRaw(_ bytes: [UInt8]) {
        input.fileHandleForWriting.write(Data(bytes))
    }

    /// Closes the server's standard input.
    func closeInput() throws {
        try input.fileHandleForWriting.close()
    }

    /// Sends a message.
    func send(_ message: JSON) {
        let body = message.encoded(.compact)
        sendRaw(Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
    }

    /// Sends a notification.
    func notify(_ method: String, _ params: JSON = .object([])) {
        send(.object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)]))
    }

    /// Answers a request the server sent (its whole message) with `result`.
    func answer(_ request: JSON, _ result: JSON = .null) {
        send(.object([("jsonrpc", .string("2.0")), ("id", request["id"] ?? .null), ("result", result)]))
    }

    /// Sends a request without waiting; returns its id.
    @discardableResult
    func start(_ method: String, _ params: JSON = .object([])) -> Int {
        lock.lock()
        let id = nextID
        nextID += 1
        lock.unlock()
        send(.object([("jsonrpc", .string("2.0")), ("id", .int(id)), ("method", .string(method)), ("params", params)]))
        return id
    }

    /// Sends a request and waits for its answer (the whole response object).
    func request(_ method: String, _ params: JSON = .object([])) throws -> JSON {
        let id = start(method, params)
        return try wait { $0["id"] == .int(id) && $0["method"] == nil }
    }

    /// Sends a request and returns its result; fails on an error answer.
    func result(_ method: String, _ params: JSON = .object([])) throws -> JSON {
        let response = try request(method, params)
        try #require(response["error"] == nil, "\(method) failed: \(response.rendered(.compact))\n\(log)")
        return response["result"] ?? .null
    }

    /// Whether a message `matching` was received (and not yet taken), without waiting.
    func hasReceived(_ matching: (JSON) -> Bool) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return received.contains(where: matching)
    }

    /// Waits (10 s at most) for the first received message `matching`, removing it.
    func wait(timeout: TimeInterval = 10, _ matching: (JSON) -> Bool) throws -> JSON {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let index = received.firstIndex(where: matching) { return received.remove(at: index) }
            if closed || !lock.wait(until: deadline) {
                throw LSPTestError.timeout("no matching message; received: \(received.map { $0.rendered(.compact) })\nlog: \(log)")
            }
        }
    }

    /// The next diagnostics published for `path` whose list satisfies `condition`.
    func diagnostics(_ path: String, timeout: TimeInterval = 10, _ condition: ([JSON]) -> Bool = { _ in true }) throws -> [JSON] {
        let uri = uri(path)
        let message = try wait(timeout: timeout) {
            $0["method"]?.string == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.string == uri
                && condition($0["params"]?["diagnostics"]?.array ?? [])
        }
        return message["params"]?["diagnostics"]?.array ?? []
    }

    /// `initialize` (with the vault as workspace folder) and `initialized`.
    @discardableResult
    func initialize(encodings: [String] = ["utf-16"], workspace: JSON? = nil) throws -> JSON {
        var capabilities: [(String, JSON)] = [("general", .object([("positionEncodings", .array(encodings.map { .string($0) }))]))]
        if let workspace { capabilities.append(("workspace", workspace)) }
        let result = try result("initialize", .object([
            ("processId", .null), ("rootUri", .string(root.absoluteString)), ("capabilities", .object(capabilities)),
        ]))
        notify("initialized")
        return result
    }

    /// Opens a document with `text`.
    func open(_ path: String, _ text: String, version: Int = 1) {
        notify("textDocument/didOpen", .object([("textDocument", .object([
            ("uri", .string(uri(path))), ("languageId", .string("markdown")), ("version", .int(version)),
            ("text", .string(text)),
        ]))]))
    }

    /// Sends one incremental change.
    func change(_ path: String, version: Int, range: (Int, Int, Int, Int), text: String) {
        notify("textDocument/didChange", .object([
            ("textDocument", .object([("uri", .string(uri(path))), ("version", .int(version))])),
            ("contentChanges", .array([.object([("range", Self.range(range)), ("text", .string(text))])])),
        ]))
    }

    /// Replaces the whole text (a change without a range).
    func replace(_ path: String, version: Int, text: String) {
        notify("textDocument/didChange", .object([
            ("textDocument", .object([("uri", .string(uri(path))), ("version", .int(version))])),
            ("contentChanges", .array([.object([("text", .string(text))])])),
        ]))
    }

    /// Saves an open buffer as an editor does: `willSaveWaitUntil`'s edits (sent as change
    /// `version`), the file, `didSave`; returns the text saved.
    func save(_ path: String, _ buffer: String, version: Int) throws -> String {
        let edits = try #require(try result("textDocument/willSaveWaitUntil", .object([
            ("textDocument", .object([("uri", .string(uri(path)))])), ("reason", .int(1)),
        ])).array)
        let saved = applying(edits, to: buffer)
        if saved != buffer { replace(path, version: version, text: saved) }
        try LSPHarness.write(saved, to: root.appendingPathComponent(path))
        notify("textDocument/didSave", .object([("textDocument", .object([("uri", .string(uri(path)))]))]))
        return saved
    }

    static func range(_ range: (Int, Int, Int, Int)) -> JSON {
        .object([("start", .object([("line", .int(range.0)), ("character", .int(range.1))])),
                 ("end", .object([("line", .int(range.2)), ("character", .int(range.3))]))])
    }

    static func position(_ line: Int, _ character: Int) -> JSON {
        .object([("line", .int(line)), ("character", .int(character))])
    }

    /// `shutdown`, `exit`, and the exit code.
    func stop() throws -> Int32 {
        _ = try result("shutdown", .null)
        notify("exit")
        return waitForExit()
    }

    /// Waits for the server to end (killing a process after 60 s: a loaded machine running the
    /// whole suite in parallel can keep the server's queue busy for seconds) and returns its exit
    /// code (-1: an in-process server still running after 60 s).
    func waitForExit() -> Int32 {
        let deadline = Date().addingTimeInterval(60)
        guard case .process(let process, _) = server else {
            lock.lock()
            defer { lock.unlock() }
            while exitCode == nil && lock.wait(until: deadline) {}
            return exitCode ?? -1
        }
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? "gone"
            let stack = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/task/\(process.processIdentifier)/wchan", encoding: .utf8)) ?? "?"
            FileHandle.standardError.write(Data("LSPDEBUG pid \(process.processIdentifier) still running: \(status.prefix(200)) wchan=\(stack)\n".utf8))
            process.terminate()
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        switch server {
        case .process(let process, _): if process.isRunning { process.terminate() }
        case .thread: try? input.fileHandleForWriting.close()  // the end of input ends the server
        }
    }
}

enum LSPTestError: Error {
    case timeout(String)
}

/// `text` with the text edits of an answer applied (last first, as they do not overlap).
func applying(_ edits: [JSON], to text: String) -> String {
    var document = TextDocument(text: text, version: 0, encoding: .utf16)
    let sorted = edits.compactMap { edit -> (TextRange, String)? in
        guard let range = TextRange(edit["range"]), let newText = edit["newText"]?.string else { return nil }
        return (range, newText)
    }.sorted { $0.0.start > $1.0.start }
    for (range, newText) in sorted { document.apply(range: range, text: newText) }
    return document.text
}
