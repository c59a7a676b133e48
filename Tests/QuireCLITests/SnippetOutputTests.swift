import Foundation
import Testing

/// `quire search` snippets read as prose (whole words, no Markdown syntax) and mark the hit
/// only on a terminal, never with `NO_COLOR` or when piped.
@Suite("search snippets")
struct SnippetOutputTests {
    static func vault() throws -> TestVault {
        let vault = try TestVault()
        try vault.write(noteText("title: Trip", body: """
            # Plans

            Read **the** [travel guide](https://example.com/guide?id=7) before [[Packing list|packing]]. <br/>
            ![map](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAUA) Then book trains.

            """), to: "trip.md")
        return vault
    }

    @Test func pipedSnippetsHaveNoMarkdownAndNoColor() throws {
        let vault = try Self.vault()
        let run = try vault.run(["search", "guide"], environment: ["COLUMNS": "200"])
        #expect(run.code == 0)
        #expect(run.stdout.hasSuffix("\n    Plans Read the travel guide before packing. Then book trains.\n"))
        let json = try vault.run(["search", "packing", "--json"])
        #expect(json.stdout.contains(#""snippet" : "Plans Read the travel guide before packing. Then book trains.""#)
                || json.stdout.contains(#""snippet": "Plans Read the travel guide before packing. Then book trains.""#))
        // A URL's words are found, but the snippet shows the link's text.
        #expect(try vault.run(["search", "example"]).stdout.contains("travel guide before"))
    }

    @Test func theHitIsMarkedOnATerminalOnly() throws {
        let vault = try Self.vault()
        let colored = try Self.onTerminal(["search", "guide"], in: vault, environment: ["NO_COLOR": ""])
        #expect(colored.contains("Read the travel \u{1B}[1;33mguide\u{1B}[0m before packing."))
        let plain = try Self.onTerminal(["search", "guide"], in: vault, environment: ["NO_COLOR": "1"])
        #expect(plain.contains("Read the travel guide before packing."))
        #expect(!plain.contains("\u{1B}["))
    }

    /// Runs quire with its output on a pseudo-terminal (`script`), returning what it wrote.
    static func onTerminal(_ arguments: [String], in vault: TestVault, environment extra: [String: String]) throws -> String {
        let scratch = try Harness.temporaryDirectory("quire-pty")
        let outURL = scratch.appendingPathComponent("out")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL)
        defer { try? outHandle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        let command = ([Harness.binary.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        process.arguments = ["-qec", command, "/dev/null"]
        process.currentDirectoryURL = vault.root
        var environment = extra
        environment["COLUMNS"] = "200"
        environment["TERM"] = "xterm"
        process.environment = Harness.environment(home: vault.root.appendingPathComponent(".test-home"), extra: environment)
        process.standardOutput = outHandle
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: try Data(contentsOf: outURL), as: UTF8.self)
    }
}
