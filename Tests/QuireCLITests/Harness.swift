import Foundation
import QuireTestSupport
import Testing

/// The result of running the built `quire` binary once.
struct QuireRun {
    var stdout: String
    var stderr: String
    var code: Int32
}

/// Runs the built `quire` binary end to end in temporary directories, with a controlled environment:
/// a temporary HOME, a fixed clock (`QUIRE_NOW`), a fixed device name, UTC, and no color.
enum Harness {
    /// The package root.
    static var packageRoot: URL { BuiltQuire.packageRoot }

    /// The built `quire` binary.
    static var binary: URL { BuiltQuire.binary }

    /// A fresh temporary directory (removed by the OS; tests never write elsewhere).
    static func temporaryDirectory(_ label: String = "quire-test") throws -> URL {
        let base = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        // Resolve symlinks (e.g. /tmp → /private/tmp elsewhere) so printed paths compare equal.
        return base.resolvingSymlinksInPath()
    }

    /// The environment every run gets, plus `extra`.
    static func environment(home: URL, extra: [String: String]) -> [String: String] {
        var environment: [String: String] = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home.path,
            "QUIRE_NOW": "2026-11-29T12:00:00Z",
            "QUIRE_DEVICE": "laptop",
            "TZ": "UTC",
            "NO_COLOR": "1",
            "GIT_CONFIG_NOSYSTEM": "1",
            "LANG": "C.UTF-8",
        ]
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    /// Runs `quire` with `arguments` in `directory`; `stdin` is fed to it when given.
    @discardableResult
    static func run(_ arguments: [String], in directory: URL, environment extra: [String: String] = [:],
                    stdin: String? = nil) throws -> QuireRun {
        let scratch = try temporaryDirectory("quire-run")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out")
        let errURL = scratch.appendingPathComponent("err")
        let inURL = scratch.appendingPathComponent("in")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: inURL.path, contents: Data((stdin ?? "").utf8))
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let home = directory.appendingPathComponent(".test-home")
        process.environment = environment(home: extra["HOME"].map { URL(fileURLWithPath: $0) } ?? home, extra: extra)
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        let inHandle = try FileHandle(forReadingFrom: inURL)
        defer { try? outHandle.close(); try? errHandle.close(); try? inHandle.close() }
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = inHandle
        try process.run()
        process.waitUntilExit()
        let out = String(decoding: try Data(contentsOf: outURL), as: UTF8.self)
        let err = String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
        return QuireRun(stdout: out, stderr: err, code: process.terminationStatus)
    }

    /// Copies `SampleVault` into a temporary directory and returns its path.
    static func copySampleVault() throws -> URL {
        let destination = try temporaryDirectory("quire-sample").appendingPathComponent("vault")
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("SampleVault"), to: destination)
        return destination
    }

    /// Reads a file as UTF-8 text.
    static func read(_ url: URL) throws -> String {
        String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    /// Writes UTF-8 text to a file, creating folders.
    static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
}
