import Foundation
import Testing

/// NOTE arguments match words of a title, then its letters in order, when only one note fits;
/// the exact steps (path, id, exact title, id prefix) come first.
@Suite("partial NOTE arguments")
struct PartialNoteTests {
    static func vault() throws -> TestVault {
        let vault = try TestVault()
        try vault.write(noteText("id: 44440000-0000-4000-8000-000000000001\ntitle: Vim tricks"), to: "vim-tricks.md")
        try vault.write(noteText("id: 44440000-0000-4000-8000-000000000002\ntitle: Café crème"), to: "Food/cafe.md")
        try vault.write(noteText("id: 44440000-0000-4000-8000-000000000003\ntitle: Crème brûlée"), to: "Food/brulee.md")
        try vault.write(noteText("id: 44440000-0000-4000-8000-000000000004\ntitle: Tricks"), to: "tricks.md")
        return vault
    }

    @Test(arguments: [("vim", "vim-tricks.md"), ("TRICKS", "tricks.md"), ("cafe", "Food/cafe.md"),
                      ("creme cafe", "Food/cafe.md"), ("brulee", "Food/brulee.md"), ("vmtr", "vim-tricks.md"),
                      ("trick", ""), ("4444", "")])
    func aUniquePartialMatchIsTheNote(_ query: String, _ path: String) throws {
        let vault = try Self.vault()
        let run = try vault.run(["show", query, "--json"])
        if path.isEmpty {
            // Ambiguous: "trick" is in two titles; an id prefix matching several notes is
            // ambiguous at its own step, before any partial match.
            #expect(run.code == 1)
            return
        }
        #expect(run.code == 0, "\(query): \(run.stderr)")
        #expect(run.stdout.contains("\"path\": \"\(path)\""), "\(query)")
    }

    @Test func severalMatchesListTheCandidates() throws {
        let vault = try Self.vault()
        let run = try vault.run(["show", "crème"])
        #expect(run.code == 1)
        #expect(run.stderr == "quire: error: 'crème' matches several notes (Food/brulee.md, Food/cafe.md)\nhint: give the path or the full id\n")
        let none = try vault.run(["show", "xylophone"])
        #expect(none.code == 1)
        #expect(none.stderr.hasPrefix("quire: error: no note matches 'xylophone'\n"))
        // Editing commands resolve the same way.
        #expect(try vault.run(["tag", "vim", "+editor"]).stdout == "#editor\n")
    }
}
