import Foundation
import QuireTestSupport
import Testing

/// The progress line (issue 20): drawn only on a terminal, naming each step of the sync and each
/// phase of a transfer with counts, erased before the report; nothing under `--json` or into a pipe.
@Suite struct TransferProgressTests {
    /// Runs `quire arguments` in `directory` on a pseudo-terminal (`script`), returning everything
    /// the terminal received (standard output and error together) and the exit code; `extra`
    /// adds environment variables.
    static func onTerminal(_ arguments: [String], in directory: URL,
                           environment extra: [String: String] = [:]) throws -> (text: String, code: Int32) {
        let command = ([Harness.binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let run = try ProgramOutput.run("/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"], in: directory,
                                        environment: Harness.environment(home: directory.appendingPathComponent(".test-home"),
                                                                         extra: extra),
                                        input: FileHandle.nullDevice)
        return (run.text, run.code)
    }

    /// The progress lines drawn (each begins with a carriage return), without the erasures.
    static func drawn(_ text: String) -> [String] {
        text.components(separatedBy: "\r").dropFirst().map { $0.replacingOccurrences(of: "\u{1B}[K", with: "") }
            .filter { $0.contains(" objects") || $0.contains(" deltas") }
    }

    @Test func aSyncAndACloneOnATerminalShowNamedPhasesAndEraseTheirLine() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["one.md": SyncMergeTests.base])
        try SyncServerDeathTests.bulk(a, tag: "big")
        let sync = try Self.onTerminal(["sync"], in: a.root)
        #expect(sync.code == 0, "\(sync.text)")
        for step in ["scanning the vault…", "committing…", "fetching…", "merging…", "pushing…"] {
            #expect(sync.text.contains("\r\(step)\u{1B}[K"), "\(step) \(sync.text)")
        }
        let lines = Self.drawn(sync.text)
        #expect(lines.contains { $0.hasPrefix("sending: ") || $0.hasPrefix("packing: ") }, "\(lines)")
        for line in lines {
            #expect(["receiving: ", "resolving deltas: ", "counting: ", "packing: ", "sending: "].contains { line.hasPrefix($0) }, "\(line)")
        }
        // A first push counts its objects before it packs them (libgit2 gives no total then).
        #expect(lines.contains { $0.hasPrefix("counting: ") }, "\(lines)")
        // The last line drawn is erased before the report is printed.
        let report = try #require(sync.text.range(of: "pushed 1 commit"))
        let lastDraw = try #require(sync.text.range(of: " objects", options: .backwards, range: sync.text.startIndex..<report.lowerBound))
        #expect(sync.text[lastDraw.upperBound..<report.lowerBound].contains("\r\u{1B}[K"))

        let clone = try Self.onTerminal(["clone", world.bare.path, world.folder("b").path], in: world.directory)
        #expect(clone.code == 0, "\(clone.text)")
        #expect(Self.drawn(clone.text).contains { $0.hasPrefix("receiving: ") }, "\(clone.text)")
        #expect(Self.drawn(clone.text).last.map { clone.text.hasSuffix($0) } != true, "erased")

        try a.write(note("n2", title: "Two", updated: "2026-11-29T12:00:00Z"), to: "two.md")
        try SyncServerDeathTests.bulk(a, tag: "more")
        let json = try Self.onTerminal(["sync", "--json"], in: a.root)
        #expect(json.code == 0, "\(json.text)")
        #expect(!json.text.contains("\r\u{1B}[K") && Self.drawn(json.text).isEmpty, "\(json.text)")
        // Into a pipe: nothing but the report.
        try a.write(note("n3", title: "Three", updated: "2026-11-29T12:00:00Z"), to: "three.md")
        try SyncServerDeathTests.bulk(a, tag: "piped")
        let piped = try a.run(["sync"])
        #expect(!piped.stderr.contains("\r") && !piped.stdout.contains("\r"))
    }
}
