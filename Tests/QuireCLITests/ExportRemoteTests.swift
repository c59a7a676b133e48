import Foundation
import Testing

/// Issue 36: `export --json` says what it left out (or copies the attachments beside the JSON
/// with `--attachments`); `quire remote URL` never replaces another origin without a yes.
@Suite struct ExportRemoteTests {
    @Test func jsonExportNamesTheAttachmentsItLeavesOutOrCopiesThem() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: Trip", body: "![map](img/map.png)\n"), to: "trip.md")
        try vault.write("PNG bytes", to: "img/map.png")
        try vault.write("%PDF", to: "Docs/ticket.pdf")
        let folder = vault.root.deletingLastPathComponent()

        let plain = try vault.run(["export", "--json", folder.appendingPathComponent("notes.json").path])
        #expect(plain.code == 0)
        #expect(plain.stdout.hasSuffix("notes.json; 2 attachments left out (--attachments copies them beside it)\n"), "\(plain.stdout)")
        let piped = try vault.run(["export", "--json"])
        #expect(piped.stdout.hasPrefix("[\n"))
        #expect(piped.stderr == "quire: note: 2 attachments left out (the JSON holds notes only); "
                + "'quire export --json FILE --attachments' copies them beside FILE\n")

        let copied = try vault.run(["export", "--json", "../all.json", "--attachments"])
        #expect(copied.code == 0, "\(copied.stderr)")
        #expect(copied.stdout == "exported 1 note to ../all.json and 2 attachments to ../all.attachments/\n")
        #expect(try Harness.read(folder.appendingPathComponent("all.attachments/img/map.png")) == "PNG bytes")
        #expect(try Harness.read(folder.appendingPathComponent("all.attachments/Docs/ticket.pdf")) == "%PDF")

        // Back into an empty vault: the notes from the JSON, the attachments from their folder.
        let target = try TestVault()
        #expect(try target.run(["import", folder.appendingPathComponent("all.json").path]).code == 0)
        #expect(try target.run(["import", folder.appendingPathComponent("all.attachments").path, "--from", "plain"]).code == 0)
        #expect(try target.read("img/map.png") == "PNG bytes")

        #expect(try vault.run(["export", "--json", "--attachments"]).code == 2)
        #expect(try vault.run(["export", "--html", "../site", "--attachments"]).code == 2)
    }

    @Test func anotherOriginIsReplacedOnlyWithAYes() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["one.md": SyncMergeTests.base])
        let other = world.folder("other.git").path
        let refused = try a.run(["remote", other])
        #expect(refused.code == 2)
        #expect(refused.stderr == "quire: error: this vault already syncs with \(world.bare.path)\nhint: add --replace to sync with \(other) instead\n")
        #expect(try a.run(["remote"]).stdout == "origin  \(world.bare.path)\n")
        // The same URL again is no replacement.
        #expect(try a.run(["remote", world.bare.path]).code == 0)

        let declined = try Self.onTerminal(["remote", other], answer: "n\n", in: a.root)
        #expect(declined.code == 2 && declined.text.contains("replace it with \(other)? [y/N] "), "\(declined.text)")
        #expect(try a.run(["remote"]).stdout == "origin  \(world.bare.path)\n")
        let agreed = try Self.onTerminal(["remote", other], answer: "y\n", in: a.root)
        #expect(agreed.code == 0 && agreed.text.contains("origin  \(other)"), "\(agreed.text)")
        #expect(try a.run(["remote"]).stdout == "origin  \(other)\n")

        let replaced = try a.run(["remote", "--replace", world.bare.path])
        #expect(replaced.code == 0 && replaced.stdout == "origin  \(world.bare.path)\n")
        #expect(try a.run(["remote", "--replace"]).code == 2)
    }

    /// Runs `quire arguments` on a pseudo-terminal (`script`) with `answer` typed into it.
    static func onTerminal(_ arguments: [String], answer: String, in directory: URL) throws -> (text: String, code: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        let command = ([Harness.binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        process.arguments = ["-q", "-e", "-c", command, "/dev/null"]
        process.currentDirectoryURL = directory
        process.environment = Harness.environment(home: directory.appendingPathComponent(".test-home"), extra: [:])
        let output = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data(answer.utf8))
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    }
}
