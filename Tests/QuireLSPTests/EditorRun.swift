import Foundation
import Testing

/// What the real-editor tests (`NeovimTests`, `EmacsTests`) share: the snippet a user copies
/// from Docs/editors.md, and one headless run of the editor in a vault with the built `quire`
/// first on the PATH.
enum EditorRun {
    /// The first code block of `language` (` ```lua `, ` ```elisp `) in Docs/editors.md.
    static func documentedSnippet(_ language: String) throws -> String {
        let text = try String(contentsOf: LSPHarness.packageRoot.appendingPathComponent("Docs/editors.md"), encoding: .utf8)
        let start = try #require(text.range(of: "```\(language)\n"))
        let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
        return String(text[start.upperBound..<end.lowerBound])
    }

    /// Runs `editor` with `arguments` in `vault` (`VAULT` and `extra` in its environment), for 60
    /// seconds at most; fails the test with the editor's standard error unless it exits 0.
    static func run(_ editor: String, _ arguments: [String], in vault: URL, environment extra: [String: String]) throws {
        let scratch = vault.deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: editor)
        process.arguments = arguments
        process.currentDirectoryURL = vault
        var environment = LSPHarness.environment(home: scratch)
        environment["PATH"] = LSPHarness.binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
        environment["VAULT"] = vault.path
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let errors = scratch.appendingPathComponent("editor.err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        try #require(process.terminationStatus == 0, "\(editor) failed (\(process.terminationStatus)): \(log)")
    }
}
