import Foundation
import Testing
@testable import QuireLSP
import QuireCore

/// Where the built `quire` is and how tests make vaults for it.
enum LSPHarness {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built `quire` binary next to the test bundle (`swift build` puts both in one folder).
    static let binary: URL = {
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first {
            var directory = URL(fileURLWithPath: first).deletingLastPathComponent()
            for _ in 0..<4 {
                candidates.append(directory.appendingPathComponent("quire"))
                directory = directory.deletingLastPathComponent()
            }
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/quire"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
            ?? packageRoot.appendingPathComponent(".build/debug/quire")
    }()

    /// The fixed environment of every run: clock, device, zone, a temporary HOME.
    static func environment(home: URL) -> [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home.path, "QUIRE_NOW": "2026-11-29T12:00:00Z", "QUIRE_DEVICE": "laptop", "TZ": "UTC",
            "NO_COLOR": "1", "GIT_CONFIG_NOSYSTEM": "1", "LANG": "C.UTF-8",
        ]
    }

    /// A new vault (`quire init`) in a fresh temporary folder, with `files` written into it.
    static func vault(_ files: [String: String] = [:]) throws -> URL {
        let base = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("quire-lsp-\(UUID().uuidString.prefix(8))").resolvingSymlinksInPath()
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        let root = base.appendingPathComponent("vault")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["init", root.path]
        process.environment = environment(home: base)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "quire init failed")
        for (path, text) in files { try write(text, to: root.appendingPathComponent(path)) }
        return root
    }

    /// Runs the built `quire` with `arguments` in `directory`; returns its exit code.
    @discardableResult
    static func quire(_ arguments: [String], in directory: URL, environment extra: [String: String] = [:]) throws -> Int32 {
        try run(binary.path, arguments, in: directory, environment: extra)
    }

    /// Runs a program with the tests' environment; returns its exit code.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], in directory: URL, environment extra: [String: String] = [:]) throws -> Int32 {
        try output(program, arguments, in: directory, environment: extra).code
    }

    /// Runs a program with the tests' environment; returns its exit code and standard output.
    static func output(_ program: String, _ arguments: [String], in directory: URL,
                       environment extra: [String: String] = [:]) throws -> (code: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = environment(home: directory.deletingLastPathComponent())
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static let git = "/usr/bin/git"

    /// A vault with a bare remote next to it (a local path), set as its remote.
    static func vaultWithRemote(_ files: [String: String]) throws -> (vault: URL, remote: URL) {
        let vault = try vault(files)
        let remote = vault.deletingLastPathComponent().appendingPathComponent("remote.git")
        try #require(try run(git, ["init", "-q", "--bare", "-b", "main", remote.path], in: vault) == 0)
        try #require(try quire(["remote", remote.path], in: vault) == 0)
        return (vault, remote)
    }

    /// Two devices of one vault: `laptop` (the tests' device) holding `files`, synced to a bare
    /// remote, and `desktop`, its clone (device `desktop`: pass `desktopEnvironment` to its runs).
    static func twoDevices(_ files: [String: String]) throws -> (laptop: URL, desktop: URL, remote: URL) {
        let (laptop, remote) = try vaultWithRemote(files)
        try #require(try quire(["sync"], in: laptop) == 0)
        let desktop = laptop.deletingLastPathComponent().appendingPathComponent("desktop")
        try #require(try quire(["clone", remote.path, desktop.path], in: laptop.deletingLastPathComponent(),
                               environment: desktopEnvironment) == 0)
        return (laptop, desktop, remote)
    }

    /// The `workspace` capabilities of a client that applies edits and renames files in them.
    static let renamingWorkspace = JSON.object([
        ("applyEdit", .bool(true)),
        ("workspaceEdit", .object([("documentChanges", .bool(true)), ("resourceOperations", .array([.string("create"), .string("rename")]))])),
    ])

    /// The second device's environment.
    static let desktopEnvironment = ["QUIRE_DEVICE": "desktop"]

    static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
}

/// `quire lsp` started as a subprocess, spoken to over its standard input and output.
final class LSPClient: @unchecked Sendable {
    let process = Process()
    let root: URL
    private let input = Pipe()
    private let output = Pipe()
    private let errors: URL
    private let lock = NSCondition()
    private var received: [JSON] = []
    private var nextID = 1
    private var closed = false

    /// Starts `quire lsp` in `root` (the vault).
    init(root: URL, arguments: [String] = [], environment extra: [String: String] = [:]) throws {
        self.root = root
        errors = root.deletingLastPathComponent().appendingPathComponent("lsp-\(UUID().uuidString.prefix(6)).err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
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
    var log: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

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

    /// Waits for the process to end (killing it after 60 s: a loaded machine running the whole
    /// suite in parallel can keep the server's queue busy for seconds) and returns its exit code.
    func waitForExit() -> Int32 {
        let deadline = Date().addingTimeInterval(60)
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
        if process.isRunning { process.terminate() }
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
