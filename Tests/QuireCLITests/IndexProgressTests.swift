import Foundation
import Testing

/// The progress line of a catalog refresh (issue 20): `quire index` and a command that rebuilds
/// the catalog show the phases by name with counts on a terminal and erase the line before
/// their output; nothing under `--json`, `NO_PROGRESS` or into a pipe. The test hook
/// `QUIRE_PROGRESS_AFTER=0` draws from the start (normally only after half a second).
@Suite struct IndexProgressTests {
    static let now = ["QUIRE_PROGRESS_AFTER": "0"]

    /// A vault of `count` small notes.
    static func vault(notes count: Int) throws -> TestVault {
        let vault = try TestVault()
        for number in 1...count {
            try vault.write(noteText("title: Note \(number)\ntags: [t\(number % 7)]", body: "Words about item \(number).\n"),
                            to: "n\(number).md")
        }
        return vault
    }

    @Test func indexAndAnAutomaticRebuildShowPhasesWithCountsAndEraseTheLine() throws {
        let vault = try Self.vault(notes: 600)
        let index = try TransferProgressTests.onTerminal(["index", "--rebuild"], in: vault.root, environment: Self.now)
        #expect(index.code == 0, "\(index.text)")
        for drawn in ["scanning the vault…", "indexing: 0/600 notes (0%)", "writing the catalog…"] {
            #expect(index.text.contains("\r\(drawn)\u{1B}[K"), "\(drawn) \(index.text)")
        }
        // Erased before the report, which is then printed clean.
        let report = try #require(index.text.range(of: "600 notes indexed in "))
        #expect(index.text[..<report.lowerBound].hasSuffix("\r\u{1B}[K"), "\(index.text)")
        #expect(!index.text[report.lowerBound...].contains("\u{1B}"), "\(index.text)")

        // A command that finds no usable cache rebuilds it with the same line.
        try FileManager.default.removeItem(at: vault.url(".quire/cache"))
        let list = try TransferProgressTests.onTerminal(["list", "--limit", "1"], in: vault.root, environment: Self.now)
        #expect(list.code == 0, "\(list.text)")
        #expect(list.text.contains("\rindexing: 0/600 notes (0%)\u{1B}[K"), "\(list.text)")
        let listed = try #require(list.text.range(of: "\r\u{1B}[K", options: .backwards))
        #expect(!list.text[listed.upperBound...].contains("\u{1B}") && list.text[listed.upperBound...].contains("Note"),
                "\(list.text)")
    }

    @Test func jsonNoProgressAndAPipeDrawNothing() throws {
        let vault = try Self.vault(notes: 300)
        let json = try TransferProgressTests.onTerminal(["index", "--rebuild", "--json"], in: vault.root, environment: Self.now)
        #expect(json.code == 0 && json.text.contains("\"notes\": 300"), "\(json.text)")
        #expect(!json.text.contains("\u{1B}") && !json.text.contains("indexing"), "\(json.text)")

        let off = try TransferProgressTests.onTerminal(["index", "--rebuild"], in: vault.root,
                                                       environment: Self.now.merging(["NO_PROGRESS": "1"]) { $1 })
        #expect(off.code == 0 && off.text.contains("300 notes indexed"), "\(off.text)")
        #expect(!off.text.contains("\u{1B}") && !off.text.contains("indexing"), "\(off.text)")

        try FileManager.default.removeItem(at: vault.url(".quire/cache"))
        let searched = try TransferProgressTests.onTerminal(["search", "item", "--json", "--limit", "1"], in: vault.root,
                                                            environment: Self.now)
        #expect(searched.code == 0 && !searched.text.contains("\u{1B}") && !searched.text.contains("indexing"),
                "\(searched.text)")

        let piped = try vault.run(["index", "--rebuild"], environment: Self.now)
        #expect(piped.code == 0 && piped.stderr.isEmpty && !piped.stdout.contains("\r"), "\(piped.stderr)")
    }
}
