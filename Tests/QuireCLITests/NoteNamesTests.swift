import Foundation
import Testing

/// What a NOTE argument or a command name may be, and what a mistyped one gets.
@Suite("NOTE names, did you mean, command groups")
struct NoteNamesTests {
    @Test func aliasesAndFileNamesNameANoteAndTyposGetSuggestions() throws {
        let vault = try TestVault()
        try vault.write("---\ntitle: Plans for 2027\naliases: [Roadmap]\n---\nSteps.\n", to: "Areas/road-map.md")
        try vault.write("Books to read.\n", to: "Reading list.md")
        #expect(try vault.run(["show", "roadmap", "--json"]).stdout.contains("\"path\": \"Areas/road-map.md\""))
        #expect(try vault.run(["show", "road-map", "--json"]).stdout.contains("\"path\": \"Areas/road-map.md\""))
        let typo = try vault.run(["show", "roadmop"])
        #expect(typo.code == 1)
        #expect(typo.stderr == """
            quire: error: no note matches 'roadmop'
            hint: did you mean 'Roadmap', 'road-map'? ('quire list' shows the notes)

            """)
        let nothing = try vault.run(["show", "zzzzzzzzzzzz"])
        #expect(nothing.code == 1)
        #expect(nothing.stderr.hasPrefix("quire: error: no note matches 'zzzzzzzzzzzz'\nhint: give a path"))
    }

    @Test func mistypedCommandsGetTheClosestNames() throws {
        let vault = try TestVault()
        let run = try vault.run(["serch", "x"])
        #expect(run.code == 2)
        #expect(run.stderr == "quire: error: unknown command 'serch'\nhint: did you mean 'quire search'? ('quire --help' lists the commands)\n")
    }

    @Test func folderAloneListsItsSubcommands() throws {
        let vault = try TestVault()
        let run = try vault.run(["folder"])
        #expect(run.code == 0)
        #expect(run.stdout.hasPrefix("quire folder commands:\n  quire folder add PATH"))
        #expect(run.stdout.contains("\n  quire folder rename OLD NEW [--dry-run] [--no-links]\n"))
        #expect(run.stdout.contains("\n  quire folder rm PATH\n"))
        let wrong = try vault.run(["folder", "move"])
        #expect(wrong.code == 2)
        #expect(wrong.stderr.hasPrefix("quire: error: unknown command 'quire folder move'\nhint: the folder commands are: quire folder add, quire folder rename, quire folder rm\n"))
    }
}
