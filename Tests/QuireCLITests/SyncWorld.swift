import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// The output of one git CLI run (tests only: the product never shells out to git).
struct GitRun {
    var stdout: String
    var stderr: String
    var code: Int32
}

/// Runs the git CLI with a fixed author, no user or system configuration, and UTC (standard
/// input read from `stdin` when given).
@discardableResult
func gitCLI(_ arguments: [String], in directory: URL, environment extra: [String: String] = [:],
            stdin: URL? = nil) throws -> GitRun {
    let scratch = try Harness.temporaryDirectory("quire-git")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let outURL = scratch.appendingPathComponent("out"), errURL = scratch.appendingPathComponent("err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-c", "user.name=cli", "-c", "user.email=cli@example.invalid"] + arguments
    process.currentDirectoryURL = directory
    var environment = Harness.environment(home: scratch, extra: extra)
    environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
    process.environment = environment
    let outHandle = try FileHandle(forWritingTo: outURL), errHandle = try FileHandle(forWritingTo: errURL)
    defer { try? outHandle.close(); try? errHandle.close() }
    process.standardOutput = outHandle
    process.standardError = errHandle
    process.standardInput = try stdin.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return GitRun(stdout: try Harness.read(outURL), stderr: try Harness.read(errURL), code: process.terminationStatus)
}

/// One device's vault in a multi-device scenario: runs `quire` with its own device name.
struct Device {
    let name: String
    let vault: TestVault
    var root: URL { vault.root }

    /// Runs `quire` on this device (`QUIRE_DEVICE` = its name), `extra` added to the environment.
    @discardableResult
    func run(_ arguments: [String], now: String = "2026-11-29T12:00:00Z", environment extra: [String: String] = [:]) throws -> QuireRun {
        var environment = ["QUIRE_DEVICE": name, "QUIRE_NOW": now]
        for (key, value) in extra { environment[key] = value }
        return try vault.run(arguments, environment: environment)
    }

    /// `quire sync` that must succeed.
    @discardableResult
    func sync(_ options: [String] = [], now: String = "2026-11-29T12:00:00Z", environment: [String: String] = [:],
              sourceLocation: SourceLocation = #_sourceLocation) throws -> QuireRun {
        let result = try run(["sync"] + options, now: now, environment: environment)
        #expect(result.code == 0, "sync on \(name) failed: \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    /// Runs `quire` on this device with `QUIRE_FAULT=<point>:stop`: when the process stops itself
    /// there, `whileStopped` runs (the test plays the user, at exactly that moment) and the process
    /// goes on. `stopped` is false when it never reached the point.
    /// With `signal`, that signal is sent to the stopped process just before SIGCONT.
    func runStopping(at point: String, _ arguments: [String], now: String = "2026-11-29T12:00:00Z", signal: Int32? = nil,
                     whileStopped: () throws -> Void) throws -> (run: QuireRun, stopped: Bool) {
        let environment = Harness.environment(home: root.appendingPathComponent(".test-home"),
                                              extra: ["QUIRE_DEVICE": name, "QUIRE_NOW": now, "QUIRE_FAULT": "\(point):stop"])
        return try runUntilStopped([Harness.binary.path] + arguments, in: root, environment: environment,
                                   signal: signal, whileStopped: whileStopped)
    }

    func write(_ text: String, to path: String) throws { try vault.write(text, to: path) }
    func read(_ path: String) throws -> String { try vault.read(path) }
    func exists(_ path: String) -> Bool { vault.exists(path) }
    func remove(_ path: String) throws { try FileManager.default.removeItem(at: vault.url(path)) }

    /// Sets a file's modification time (external-editor edits are stamped from it).
    func touch(_ path: String, _ iso: String) throws {
        let date = try #require(ISO8601DateFormatter().date(from: iso))
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: vault.url(path).path)
    }

    /// The git CLI in this vault.
    @discardableResult
    func git(_ arguments: [String]) throws -> GitRun { try gitCLI(arguments, in: root) }

    /// The tree id of HEAD.
    func headTree() throws -> String {
        try git(["rev-parse", "HEAD^{tree}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every file in the work tree outside `.git/`, `.quire/local/` and `.quire/cache/`.
    func files() throws -> [String: String] {
        try TestVault.snapshot(root).filter { !$0.key.hasPrefix(".quire/local/") }.mapValues { String(decoding: $0, as: UTF8.self) }
    }
}

/// A bare repository on disk and devices syncing through it: `a` made the vault and pushed,
/// the others cloned it.
struct SyncWorld {
    let directory: URL
    let bare: URL
    var remoteURL: String

    /// A bare repository at `directory/remote.git` (or `url` when given, for servers).
    init(directory: URL? = nil, bare: URL? = nil, url: String? = nil) throws {
        self.directory = try directory ?? Harness.temporaryDirectory("quire-sync")
        self.bare = bare ?? self.directory.appendingPathComponent("remote.git")
        if !FileManager.default.fileExists(atPath: self.bare.path) {
            try #require(try gitCLI(["init", "-q", "--bare", "-b", "main", self.bare.path], in: self.directory).code == 0)
        }
        remoteURL = url ?? self.bare.path
    }

    /// Device `name`'s vault folder (not created).
    func folder(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// Makes device `name` with `quire init`, writes `notes`, sets the remote and syncs.
    func first(_ name: String = "a", notes: [String: String] = [:], environment: [String: String] = [:]) throws -> Device {
        let root = folder(name)
        let made = try Harness.run(["init", root.path], in: directory)
        try #require(made.code == 0, "init failed: \(made.stderr)")
        let device = Device(name: name, vault: TestVault(existing: root))
        for (path, text) in notes { try device.write(text, to: path) }
        try #require(try device.run(["remote", remoteURL], environment: environment).code == 0)
        let synced = try device.run(["sync"], environment: environment)
        try #require(synced.code == 0, "first sync failed: \(synced.stderr)")
        return device
    }

    /// Device `name` made with `quire clone`.
    func clone(_ name: String, environment: [String: String] = [:]) throws -> Device {
        var env = ["QUIRE_DEVICE": name]
        for (key, value) in environment { env[key] = value }
        let cloned = try Harness.run(["clone", remoteURL, name], in: directory, environment: env)
        try #require(cloned.code == 0, "clone failed: \(cloned.stderr)")
        return Device(name: name, vault: TestVault(existing: folder(name)))
    }

    /// Two devices: `a` with `notes`, synced, and `b` cloned from the remote.
    func pair(_ notes: [String: String]) throws -> (Device, Device) {
        let a = try first("a", notes: notes)
        return (a, try clone("b"))
    }

    /// The git CLI in the bare repository.
    @discardableResult
    func git(_ arguments: [String]) throws -> GitRun { try gitCLI(arguments, in: bare) }
}

/// A git server on loopback started by `Tests/Servers/git-server.sh`; `stop()` it in a `defer`.
struct GitServer {
    let directory: URL
    let baseURL: String
    let port: Int

    /// A port unlikely to be taken by a parallel test: 20000 + random.
    static func freePort() -> Int { 20000 + Int.random(in: 0..<20000) }

    /// Starts a server of `kind` (daemon, ssh, http, http-auth); retries on another port if taken.
    static func start(_ kind: String, directory: URL? = nil, port fixedPort: Int? = nil) throws -> GitServer {
        let directory = try directory ?? Harness.temporaryDirectory("quire-server-\(kind)")
        var lastError = ""
        for _ in 0..<3 {
            let port = fixedPort ?? freePort()
            let script = Harness.packageRoot.appendingPathComponent("Tests/Servers/git-server.sh").path
            // Not Foundation's Process: the daemons the script starts inherit its descriptors, and
            // Process waits for them to close; posix_spawn + waitpid waits for the script alone.
            let outURL = directory.appendingPathComponent("start.out"), errURL = directory.appendingPathComponent("start.err")
            let status = try spawnAndWait(["/bin/sh", "-c", "exec sh \"$0\" start \"$1\" \"$2\" \"$3\" >\"$4\" 2>\"$5\" </dev/null",
                                           script, kind, directory.path, String(port), outURL.path, errURL.path])
            let data = try Data(contentsOf: outURL), errors = try Data(contentsOf: errURL)
            let url = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if status == 0, !url.isEmpty {
                return GitServer(directory: directory, baseURL: url, port: port)
            }
            lastError = String(decoding: errors, as: UTF8.self)
            stopServer(directory)
        }
        throw ServerError.notStarted(kind, lastError)
    }

    /// The folder the server serves bare repositories from.
    var repositories: URL { directory.appendingPathComponent("repos") }

    /// Makes an empty bare repository `name` served by this server (http push enabled).
    func makeRepository(_ name: String = "vault.git") throws -> URL {
        let bare = repositories.appendingPathComponent(name)
        try #require(try gitCLI(["init", "-q", "--bare", "-b", "main", bare.path], in: directory).code == 0)
        try #require(try gitCLI(["config", "http.receivepack", "true"], in: bare).code == 0)
        return bare
    }

    func stop() { Self.stopServer(directory) }

    private static func stopServer(_ directory: URL) {
        let script = Harness.packageRoot.appendingPathComponent("Tests/Servers/git-server.sh").path
        _ = try? spawnAndWait(["/bin/sh", script, "stop", directory.path])
    }

    enum ServerError: Error {
        case notStarted(String, String)
    }
}

/// Starts `arguments` (an absolute program path first) and returns its process id.
func spawn(_ arguments: [String]) throws -> pid_t {
    var pid: pid_t = 0
    let cArguments = arguments.map { strdup($0) } + [nil]
    defer { for pointer in cArguments { free(pointer) } }
    let spawned = posix_spawn(&pid, arguments[0], nil, nil, cArguments, environ)
    guard spawned == 0 else { throw GitServer.ServerError.notStarted(arguments[0], "posix_spawn \(spawned)") }
    return pid
}

/// Runs `arguments` (an absolute program path first) and waits for that process only.
func spawnAndWait(_ arguments: [String]) throws -> Int32 {
    let pid = try spawn(arguments)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
}

/// A standard note with an id, a title, `updatedAt` and a body.
func note(_ id: String, title: String, updated: String, extra: String = "", body: String = "Body.\n") -> String {
    "---\nid: \(id)\ntitle: \(title)\n\(extra)updatedAt: \(updated)\n---\n" + body
}

/// Runs `arguments` (an absolute program path first) in `directory` with exactly `environment`;
/// when the process stops itself (SIGSTOP), runs `whileStopped` and continues it (SIGCONT).
/// Returns its output, exit code (-1 when killed by a signal) and whether it stopped.
func runUntilStopped(_ arguments: [String], in directory: URL, environment: [String: String], signal: Int32? = nil,
                     whileStopped: () throws -> Void) throws -> (run: QuireRun, stopped: Bool) {
    let scratch = try Harness.temporaryDirectory("quire-stop")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let outPath = scratch.appendingPathComponent("out").path, errPath = scratch.appendingPathComponent("err").path
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    // The shell only changes folder, then becomes the program (same process id).
    let command = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory.path] + arguments
    let cArguments = command.map { strdup($0) } + [nil]
    defer { for pointer in cArguments { free(pointer) } }
    let cEnvironment = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in cEnvironment { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, command[0], &actions, nil, cArguments, cEnvironment)
    guard spawned == 0 else { throw GitServer.ServerError.notStarted(command[0], "posix_spawn \(spawned)") }
    var status: Int32 = 0
    while waitpid(pid, &status, WUNTRACED) < 0 && errno == EINTR {}
    let stopped = status & 0xff == 0x7f
    if stopped {
        do {
            try whileStopped()
        } catch {
            kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            throw error
        }
        if let signal { kill(pid, signal) }
        kill(pid, SIGCONT)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
    let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    return (QuireRun(stdout: try Harness.read(URL(fileURLWithPath: outPath)),
                     stderr: try Harness.read(URL(fileURLWithPath: errPath)), code: code), stopped)
}
