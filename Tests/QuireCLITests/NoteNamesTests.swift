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

    /// `café.md` precomposed (NFC) and decomposed (NFD) side by side are two files on Linux:
    /// two notes to every command (they were one to a rebuilt catalog: Swift's `String` compares
    /// them equal), each found, shown and edited by its own name.
    /// Two folders whose names differ only in Unicode form (as a sync of a Linux and a macOS
    /// device makes them) are two folders: the walk took the second for one it had visited,
    /// and its notes were never listed, searched or checked.
    @Test func foldersEqualUnderNormalizationAreTwoFolders() throws {
        let vault = try TestVault()
        try vault.write("---\ntitle: Xylophone\n---\nxylophone\n", to: "R\u{E9}sum\u{E9}/x.md")
        try vault.write("---\ntitle: Yodel\n---\nyodel\n", to: "Re\u{301}sume\u{301}/y.md")
        #expect(try vault.run(["index", "--rebuild"]).stdout.hasPrefix("2 notes indexed"))
        for _ in 0..<2 {  // rebuilt, then from the folder listings the walk recorded
            #expect(try vault.run(["list", "--paths"]).stdout.split(separator: "\n").count == 2)
            #expect(try vault.run(["search", "xylophone", "--paths"]).stdout.hasSuffix("x.md\n"))
        }
    }

    @Test func namesEqualUnderNormalizationAreTwoNotes() throws {
        let vault = try TestVault()
        let composed = "caf\u{E9}.md"
        let decomposed = "cafe\u{301}.md"
        try vault.write("---\ntitle: Composed\n---\napple\n", to: composed)
        try vault.write("---\ntitle: Decomposed\n---\nbirch\n", to: decomposed)
        let names = try FileManager.default.contentsOfDirectory(atPath: vault.root.path).filter { $0.hasSuffix(".md") }
        try #require(Set(names.map { Array($0.utf8) }) == [Array(composed.utf8), Array(decomposed.utf8)])
        func paths(_ arguments: [String]) throws -> [[UInt8]] {
            let run = try vault.run(arguments + ["--json"])
            #expect(run.code == 0, "\(arguments): \(run.stderr)")
            let entries = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]] ?? []
            return entries.compactMap { ($0["path"] as? String).map { Array($0.utf8) } }.sorted { $0.lexicographicallyPrecedes($1) }
        }
        let rebuilt = try vault.run(["index", "--rebuild"])
        #expect(rebuilt.stdout.hasPrefix("2 notes indexed"), "\(rebuilt.stdout)")
        #expect(try paths(["list"]) == [Array(decomposed.utf8), Array(composed.utf8)])  // by bytes: "e" < "\u{E9}"
        #expect(try paths(["search", "birch"]) == [Array(decomposed.utf8)])
        #expect(try vault.run(["show", decomposed, "--json"]).stdout.contains("\"title\": \"Decomposed\""))
        #expect(try vault.run(["show", composed, "--json"]).stdout.contains("\"title\": \"Composed\""))
        #expect(try vault.run(["set", decomposed, "project=Trees"]).code == 0)
        #expect(try vault.read(decomposed).contains("project: Trees"))
        #expect(try vault.read(composed) == "---\ntitle: Composed\n---\napple\n")
        #expect(try paths(["list", "project:Trees"]) == [Array(decomposed.utf8)])
        #expect(try vault.run(["index"]).stdout.contains("2 notes"))
        // `check` names both (one file on macOS).
        let check = try vault.run(["check"])
        #expect(check.code == 1)
        #expect(check.stdout.hasSuffix("2 problems in 2 of 2 notes\n"), "\(check.stdout)")
        #expect(check.stdout.contains(": this name is written decomposed (NFD); another note has it precomposed (NFC)"))
        // Renaming one (what `check` advises) moves it with the links to it, and only those.
        try vault.write("---\ntitle: Linker\n---\nsee [[Decomposed]] and [[Composed]]\n", to: "linker.md")
        let renamed = try vault.run(["rename", decomposed, "Coffee"])
        #expect(renamed.code == 0, "\(renamed.stderr)")
        #expect(try vault.read("linker.md").hasSuffix("see [[Coffee]] and [[Composed]]\n"))
        #expect(try vault.read("coffee.md").contains("birch"))
        #expect(try vault.read(composed).contains("apple"))
        #expect(try paths(["list"]) == [Array(composed.utf8), Array("coffee.md".utf8), Array("linker.md".utf8)])
        #expect(try vault.run(["check"]).code == 0)
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

    /// A note, folder or attachment whose name is not UTF-8 is listed by `check` as skipped, its
    /// bad byte shown as `\xE9`; the other notes list, search and export as usual.
    @Test func namesThatAreNotUTF8AreSkippedAndNamed() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: Fine"), to: "ok.md")
        // Names made from raw bytes (a Swift string cannot hold them): a Latin-1 note and folder.
        for (name, isFolder) in [([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x6D, 0x64], false), ([0x64, 0xE9, 0x6A, 0xE0], true)]
            as [([UInt8], Bool)] {
            let path = Array(vault.root.path.utf8) + [0x2F] + name + [0]
            let made = path.withUnsafeBufferPointer { buffer -> Int32 in
                guard let base = buffer.baseAddress else { return -1 }
                return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { isFolder ? mkdir($0, 0o755) : creat($0, 0o644) }
            }
            #expect(made >= 0)
        }
        let check = try vault.run(["check"])
        #expect(check.stdout.contains("caf\\xE9.md: skipped: name is not valid UTF-8 (rename it)"), "\(check.stdout)")
        #expect(check.stdout.contains("d\\xE9j\\xE0: skipped: name is not valid UTF-8 (rename it)"), "\(check.stdout)")
        #expect(try vault.run(["list", "--paths"]).stdout == "ok.md\n")
        let export = try vault.run(["export", "--json", "out.json"])
        #expect(export.code == 0, "\(export.stderr)")
        #expect(try vault.read("out.json").contains("\"ok.md\""))
    }
}
