import Foundation
import Testing

/// Runs the chaos driver (`Benchmarks/chaos/chaos.py`) against the built binary, and gives the
/// regression tests two devices sharing a bare repository by path.
enum ChaosSupport {
    /// The driver script in the package.
    static let driver = Harness.packageRoot.appendingPathComponent("Benchmarks/chaos/chaos.py")

    /// Runs the driver with `arguments`; returns its exit code and everything it printed.
    static func runDriver(_ arguments: [String]) throws -> (code: Int32, output: String) {
        let environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                           "TMPDIR": NSTemporaryDirectory(), "LANG": "C.UTF-8"]
        return try capture(["python3", driver.path, "--binary", Harness.binary.path] + arguments,
                           in: Harness.packageRoot, environment: environment, withErrors: true)
    }

    /// Runs `arguments` through `/usr/bin/env` in `directory`; returns the exit code and standard
    /// output (and standard error, `withErrors`).
    static func capture(_ arguments: [String], in directory: URL, environment: [String: String],
                        withErrors: Bool) throws -> (code: Int32, output: String) {
        let scratch = try Harness.temporaryDirectory("quire-chaos-run")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL)
        defer { try? outHandle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = environment
        process.standardOutput = outHandle
        process.standardError = withErrors ? outHandle : FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: try Data(contentsOf: outURL), as: UTF8.self))
    }

    /// The figure `name=value` from the driver's summary line, or nil.
    static func figure(_ name: String, in output: String) -> Int? {
        for word in output.split(whereSeparator: { $0 == " " || $0 == "\n" }) where word.hasPrefix(name + "=") {
            return Int(word.dropFirst(name.count + 1))
        }
        return nil
    }

    /// Runs the git CLI with `arguments` in `directory`; returns the exit code and standard output.
    @discardableResult
    static func git(_ arguments: [String], in directory: URL) throws -> (code: Int32, output: String) {
        let home = try Harness.temporaryDirectory("quire-chaos-home")
        return try capture(["git"] + arguments, in: directory,
                           environment: Harness.environment(home: home, extra: [:]), withErrors: false)
    }

    /// Two vaults, `first` (inited, pushed) and `second` (cloned), sharing a bare repository.
    static func twoDevices() throws -> (bare: URL, first: URL, second: URL) {
        let base = try Harness.temporaryDirectory("quire-chaos-pair")
        let bare = base.appendingPathComponent("remote.git")
        try #require(try git(["init", "-q", "--bare", "-b", "main", bare.path], in: base).code == 0)
        let first = base.appendingPathComponent("first")
        let second = base.appendingPathComponent("second")
        try #require(try Harness.run(["init", first.path], in: base).code == 0)
        try #require(try Harness.run(["remote", bare.path], in: first).code == 0)
        try #require(try Harness.run(["sync"], in: first, environment: device("first")).code == 0)
        try #require(try Harness.run(["clone", bare.path, second.path], in: base, environment: device("second")).code == 0)
        return (bare, first, second)
    }

    /// On device `first` (at minutes 4 and 5): a local note, so that the next sync merges, then a
    /// sync killed between writing the journal and updating the work tree (`before-checkout:kill`).
    static func crashBeforeWorkTreeUpdate(_ first: URL) throws {
        try #require(try Harness.run(["new", "Other", "--body", "x"], in: first,
                                     environment: device("first", minute: 4)).code == 0)
        let crashed = try Harness.run(["sync"], in: first, environment: device("first", minute: 5)
                                      .merging(["QUIRE_FAULT": "before-checkout:kill"]) { $1 })
        try #require(crashed.code != 0)
    }

    /// A note "Shared" (body `base line`) made on `first` and synced to `second` (minutes 1 and 2);
    /// returns its path.
    static func sharedNote(_ first: URL, _ second: URL) throws -> String {
        let created = try Harness.run(["new", "Shared", "--body", "base line"], in: first,
                                      environment: device("first", minute: 1))
        let path = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(try Harness.run(["sync"], in: first, environment: device("first", minute: 1)).code == 0)
        try #require(try Harness.run(["sync"], in: second, environment: device("second", minute: 2)).code == 0)
        return path
    }

    /// The ids of every conflict record of `vault` (`conflicts --all --json`), and that output.
    static func conflictIDs(in vault: URL) throws -> (ids: [String], listed: QuireRun) {
        let listed = try Harness.run(["conflicts", "--all", "--json"], in: vault)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        return (records.compactMap { $0["id"] as? String }, listed)
    }

    /// The environment of one device at `minute` past noon on the test day.
    static func device(_ name: String, minute: Int = 0) -> [String: String] {
        ["QUIRE_DEVICE": name, "QUIRE_NOW": String(format: "2026-11-29T12:%02d:00Z", minute)]
    }
}
