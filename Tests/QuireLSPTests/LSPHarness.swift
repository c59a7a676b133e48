import Foundation
import QuireCore
import QuireTestSupport
import Testing

/// Where the built `quire` is and how tests make vaults for it.
enum LSPHarness {
    static var packageRoot: URL { BuiltQuire.packageRoot }

    /// The built `quire` binary (`BuiltQuire`, as the command line's tests find it).
    static var binary: URL { BuiltQuire.binary }

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
