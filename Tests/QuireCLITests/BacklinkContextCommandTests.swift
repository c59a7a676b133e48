import Foundation
import Testing

/// `quire backlinks` of a busy note answered from the context lines the link table keeps: the
/// same output, and a linking note edited by an editor shows its new line at the next command.
@Suite("backlinks from kept context lines")
struct BacklinkContextCommandTests {
    /// A hub with 20 linking notes (more than `VaultLinks.keptContextsFrom`).
    private static func vault() throws -> TestVault {
        let vault = try TestVault()
        try vault.write("# Hub\n", to: "Hub.md")
        for index in 0..<20 {
            try vault.write("# Note \(index)\nsee [[Hub]] from note \(index), and ünïcödé\r\nlast [[Hub|hub]]", to: "n/\(index).md")
        }
        return vault
    }

    private static func editedByAnEditor(_ vault: TestVault) throws {
        let table = vault.url(".quire/cache/links.bin")
        #expect(try vault.run(["graph", "--json"]).code == 0)
        func size() throws -> Int { try FileManager.default.attributesOfItem(atPath: table.path)[.size] as? Int ?? 0 }
        let resolved = try size()
        let first = try vault.run(["backlinks", "Hub"])
        #expect(first.code == 0 && first.stdout.contains("n/3.md:2: see [[Hub]] from note 3, and ünïcödé\n"), "\(first)")
        // The answer kept its lines: the table grew, and the next answer is the same.
        #expect(try size() > resolved)
        #expect(try vault.run(["backlinks", "Hub"]).stdout == first.stdout)
        try vault.write("# Note 3\nnow the line reads [[Hub]] otherwise\nlast [[Hub|hub]]\n", to: "n/3.md")
        let second = try vault.run(["backlinks", "Hub"])
        #expect(second.stdout.contains("n/3.md:2: now the line reads [[Hub]] otherwise\n"), "\(second)")
        #expect(!second.stdout.contains("from note 3,"))
        #expect(second.stdout == first.stdout.replacingOccurrences(of: "see [[Hub]] from note 3, and ünïcödé",
                                                                    with: "now the line reads [[Hub]] otherwise"))
    }

    @Test func aLinkingNoteEditedByAnEditorShowsItsNewLine() throws {
        try Self.editedByAnEditor(try Self.vault())
    }

    @Test func aLinkingNoteEditedByAnEditorShowsItsNewLineWithTheWatcher() throws {
        let vault = try Self.vault()
        try vault.withWatcher { try Self.editedByAnEditor(vault) }
    }
}
