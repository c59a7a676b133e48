import Foundation
#if canImport(Glibc)
import Glibc
#endif
import QuireCore
import QuireKit
import Testing

/// A vault made by `VaultSetup` in a temporary folder, with the git CLI at hand to commit (its
/// own empty HOME: no user configuration reaches it). Removed by `remove()`.
struct KitVault {
    let vault: Vault
    let home: URL
    var root: URL { vault.root }

    init(file: StaticString = #filePath, line: UInt = #line) throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("quirekit-\(UUID().uuidString)")
        home = parent.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        _ = try VaultSetup.initialize(at: parent.appendingPathComponent("vault"), driverProgram: "/usr/bin/quire")
        vault = try Vault(at: parent.appendingPathComponent("vault"))
    }

    /// An existing vault (a clone) with its own HOME.
    init(vault: Vault, home: URL) {
        self.vault = vault
        self.home = home
    }

    /// The environment of a command in this vault: the fixed HOME, nothing else.
    var environment: [String: String] { ["HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path] }

    func write(_ text: String, to path: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) }

    /// Runs the git CLI in `directory` (default: the vault) and returns its standard output.
    /// The output is trimmed of surrounding white space unless `trimmed` is false.
    @discardableResult
    func git(_ arguments: [String], in directory: URL? = nil, trimmed: Bool = true,
             environment extra: [String: String] = [:]) throws -> String {
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-c", "user.name=t", "-c", "user.email=t@e", "-c", "commit.gpgsign=false"] + arguments
        process.currentDirectoryURL = directory ?? root
        process.environment = ["HOME": home.path, "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin"].merging(extra) { $1 }
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "git", code: Int(process.terminationStatus), userInfo: [NSLocalizedDescriptionKey: "git \(arguments)"])
        }
        let text = String(decoding: data, as: UTF8.self)
        return trimmed ? text.trimmingCharacters(in: .whitespacesAndNewlines) : text
    }

    /// Commits everything; returns the commit's id.
    @discardableResult
    func commitAll(_ message: String = "test") throws -> String {
        try git(["add", "-A"])
        try git(["commit", "-q", "-m", message])
        return try git(["rev-parse", "HEAD"])
    }

    /// A clock a second ahead of the real one, for the racily-clean rule: what a test has just
    /// written is past `FileStamp.racyWindow` and trusted, with no wait. Sound only while a later
    /// change cannot keep a stamp recorded with it: wait for the file clock to tick
    /// (`waitForFileClockTick`) after a walk that recorded stamps, before the next change.
    static let settledClock: @Sendable () -> Int64 = { FileStamp.now() + 1_000_000_000 }

    /// Returns once the file system's clock has moved on: a file touched now gets a later change
    /// time than any file changed before the call, so a change made afterwards never keeps a
    /// stamp recorded before it (git's racy-clean case). A probe beside the vault is touched
    /// until its change time moves: at most one tick of the kernel's clock, a few milliseconds.
    func waitForFileClockTick() {
        let probe = root.deletingLastPathComponent().appendingPathComponent("clock-probe").path
        let descriptor = open(probe, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { Issue.record("cannot make \(probe)"); return }
        defer { close(descriptor) }
        var status = stat()
        func changed() -> Int64 {
            futimens(descriptor, nil)
            fstat(descriptor, &status)
            return Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
        }
        let first = changed()
        let deadline = Date().addingTimeInterval(5)
        while changed() == first {
            if Date() > deadline { Issue.record("the file clock did not move in 5 s"); return }
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: root.deletingLastPathComponent())
    }
}
