import Foundation
import QuireTestSupport
import Testing

/// A temporary vault made with `quire init`, with helpers to write, read and run in it.
struct TestVault {
    let root: URL

    /// Initializes an empty vault in a fresh temporary directory.
    init() throws {
        root = try Harness.temporaryDirectory("quire-vault").appendingPathComponent("vault")
        let run = try Harness.run(["init", root.path], in: root.deletingLastPathComponent())
        try #require(run.code == 0, "init failed: \(run.stderr)")
    }

    /// Wraps an existing vault folder (e.g. an initialized SampleVault copy).
    init(existing root: URL) { self.root = root }

    /// Runs `quire` in the vault root (or `subfolder` of it).
    @discardableResult
    func run(_ arguments: [String], subfolder: String? = nil, environment: [String: String] = [:],
             stdin: String? = nil) throws -> QuireRun {
        let directory = subfolder.map { root.appendingPathComponent($0) } ?? root
        return try Harness.run(arguments, in: directory, environment: environment, stdin: stdin)
    }

    func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    /// Starts the vault's watcher (`quire watch start`), runs `body`, and stops it whatever happens.
    func withWatcher(_ body: () throws -> Void) throws {
        let started = try run(["watch", "start"])
        try #require(started.code == 0, "watch start failed: \(started.stderr)")
        defer { _ = try? run(["watch", "stop"]) }
        try body()
    }

    func write(_ text: String, to path: String) throws { try Harness.write(text, to: url(path)) }

    func read(_ path: String) throws -> String { try Harness.read(url(path)) }

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: url(path)) }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: url(path).path) }

    /// Runs the git CLI in the vault with a fixed author and no user configuration.
    @discardableResult
    func git(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-c", "user.name=t", "-c", "user.email=t@e"] + arguments
        process.currentDirectoryURL = root
        process.environment = Harness.environment(home: root.appendingPathComponent(".test-home"), extra: [:])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Commits everything in the work tree.
    func commitAll() throws {
        try #require(try git(["add", "-A"]) == 0)
        try #require(try git(["commit", "-q", "-m", "test"]) == 0)
    }

    /// Writes an executable shell script (an editor stand-in) outside the vault and returns its path.
    static func script(_ body: String) throws -> String {
        let url = try Harness.temporaryDirectory("quire-editor").appendingPathComponent("editor.sh")
        try ExecutableScript.write("#!/bin/sh\n" + body + "\n", to: url)
        return url.path
    }

    /// Every regular file below `root` (outside `.git/`) with its bytes, keyed by relative path.
    static func snapshot(_ root: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let base = root.resolvingSymlinksInPath().path
        guard let walker = FileManager.default.enumerator(atPath: base) else { return files }
        while let relative = walker.nextObject() as? String {
            if relative == ".git" || relative.hasPrefix(".git/") || relative.hasPrefix(".test-home") || relative.hasPrefix(".quire/cache/") { continue }
            var isDirectory: ObjCBool = false
            let full = base + "/" + relative
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = try Data(contentsOf: URL(fileURLWithPath: full))
            }
        }
        return files
    }
}

/// The standard note text used by the tests (LF endings, trailing newline).
func noteText(_ frontMatter: String, body: String = "Body.\n") -> String {
    "---\n" + frontMatter + "\n---\n" + body
}
