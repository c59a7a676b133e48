import Foundation
import Testing

/// How `quire list` prints: `--format` templates and the table.
@Suite("quire list output")
struct ListOutputTests {
    @Test func unknownTemplateFieldIsAUsageErrorListingTheFields() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: Rain\nreviewer: Pete\nmood: 3"), to: "rain.md")
        let run = try vault.run(["list", "--format", "{title} {nope}"])
        #expect(run.code == 2)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix("""
            quire: error: unknown field '{nope}' in --format
            hint: fields: path, id, title, folder, tags, project, draft, pinned, color, mood, priority, createdAt, updatedAt, createdAtSource, updatedAtSource, words, frontMatter, score; front-matter keys: aliases, reviewer

            """))
        #expect(try vault.run(["search", "rain", "--format", "{nope}"]).code == 2)
        let known = try vault.run(["list", "--format", "{title}\\t{reviewer}\\t{mood}\\t{path}"])
        #expect(known.code == 0)
        #expect(known.stdout == "Rain\tPete\t3\train.md\n")
    }

    /// A newline or an escape sequence in a file name or a title (a file synced from another
    /// device, say) never breaks a line of output nor reaches the terminal raw: paths are quoted
    /// as git quotes them, titles and snippets show escapes, and `--null` keeps the bytes.
    @Test func controlCharactersInNamesAndTitlesAreShownEscaped() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: Split\nupdatedAt: 2026-01-02T00:00:00Z"), to: "a\nb.md")
        try vault.write(noteText("title: \"Bell\\a rings\"\nupdatedAt: 2026-01-01T00:00:00Z",
                                 body: "find\tthe \u{1B}[2J zap\n"), to: "e\u{1B}[31mred.md")
        let paths = try vault.run(["list", "--paths"])
        #expect(paths.code == 0)
        #expect(paths.stdout == "\"a\\nb.md\"\n\"e\\x1b[31mred.md\"\n")
        let null = try vault.run(["list", "--paths", "--null"])
        #expect(null.stdout == "a\nb.md\0e\u{1B}[31mred.md\0")
        let table = try vault.run(["list"], environment: ["COLUMNS": "80"])
        #expect(table.stdout == """
              2026-01-02 00:00  Split           "a\\nb.md"
              2026-01-01 00:00  Bell\\x07 rings  "e\\x1b[31mred.md"

            """, "\(table.stdout)")
        let search = try vault.run(["search", "zap"])
        #expect(search.stdout.contains("find the \\x1b[2J zap"), "\(search.stdout)")
        #expect(!search.stdout.contains("\u{1B}"))
        try vault.write(noteText("title: Tagged\ntags: [\"x\\e[1my\"]"), to: "tagged.md")
        #expect(try vault.run(["tags"]).stdout == "1  #x\\x1b[1my\n")
    }

    /// `--paths` writes most paths straight from the catalog's bytes: from the root, from a
    /// folder (ASCII or not) and with `--null`, rebuilt and loaded, they are the bytes
    /// `displayPath` gives — relative to the current folder, a quoted name quoted, a decomposed
    /// (NFD) name as it is — in the byte order of the paths (a file before a folder of its name).
    @Test func pathsAreTheDisplayedBytesFromEveryFolder() throws {
        let vault = try TestVault()
        let names = ["Plain.md", "Plain/one.md", "Plain/two words.md", "R\u{E9}sum\u{E9}/x.md", "a\nb.md",
                     "cafe\u{301}.md", "root.md"]
        for name in names { try vault.write(noteText("title: Same", body: "shared\n"), to: name) }
        let fromRoot = "Plain.md\nPlain/one.md\nPlain/two words.md\nR\u{E9}sum\u{E9}/x.md\n\"a\\nb.md\"\ncafe\u{301}.md\nroot.md\n"
        let fromPlain = "../Plain.md\none.md\ntwo words.md\n../R\u{E9}sum\u{E9}/x.md\n\"../a\\nb.md\"\n../cafe\u{301}.md\n../root.md\n"
        let fromResume = "../Plain.md\n../Plain/one.md\n../Plain/two words.md\nx.md\n\"../a\\nb.md\"\n../cafe\u{301}.md\n../root.md\n"
        for round in 0..<2 {  // rebuilt, then loaded from the snapshot
            for (folder, expected) in [(nil, fromRoot), ("Plain", fromPlain), ("R\u{E9}sum\u{E9}", fromResume)] {
                // Every score ties: relevance orders by path, as --sort path does.
                for extra in [[], ["--sort", "path"]] {
                    let run = try vault.run(["search", "shared", "--paths"] + extra, subfolder: folder)
                    #expect(Array(run.stdout.utf8) == Array(expected.utf8), "round \(round) in \(folder ?? "the root"): \(run.stdout)")
                }
                let reversed = try vault.run(["list", "--paths", "--sort", "path", "--reverse"], subfolder: folder)
                let lines = expected.split(separator: "\n").reversed().map { $0 + "\n" }.joined()
                #expect(Array(reversed.stdout.utf8) == Array(lines.utf8), "round \(round) in \(folder ?? "the root")")
            }
            let null = try vault.run(["search", "shared", "--paths", "-0"], subfolder: "Plain")
            let raw = "../Plain.md\0one.md\0two words.md\0../R\u{E9}sum\u{E9}/x.md\0../a\nb.md\0../cafe\u{301}.md\0../root.md\0"
            #expect(Array(null.stdout.utf8) == Array(raw.utf8), "\(null.stdout)")
        }
    }

    @Test func foldersWithControlCharactersAreQuoted() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: In"), to: "F\u{1B}[1m/in.md")
        let run = try vault.run(["folders"])
        #expect(run.stdout.contains("\"F\\x1b[1m\""), "\(run.stdout)")
        #expect(!run.stdout.contains("\u{1B}"))
    }

    static func tableVault() throws -> TestVault {
        let vault = try TestVault()
        try vault.write(noteText("title: A very long title that goes on and on and on forever\nupdatedAt: 2026-01-01T00:00:00Z\ncolor: red\ntags: [x, y]",
                                 body: "- [x] bought milk\n- [X] Bought bread\n  * [ ] buy milk again\n"), to: "long.md")
        try vault.write(noteText("title: Short\nupdatedAt: 2026-02-01T00:00:00Z\ndraft: true", body: "body milk\n"), to: "Sub/short.md")
        return vault
    }

    @Test func tableColumnsAreAlignedAndCutToTheTerminalWidth() throws {
        let vault = try Self.tableVault()
        let narrow = try vault.run(["list"], environment: ["COLUMNS": "62"])
        #expect(narrow.code == 0)
        #expect(narrow.stdout == """
              2026-02-01 00:00  Short (draft)          Sub/short.md
              2026-01-01 00:00  A very long tit…  red  long.md       #x #y

            """)
        #expect(narrow.stdout.split(separator: "\n").allSatisfy { $0.count <= 62 })
        let tiny = try vault.run(["list"], environment: ["COLUMNS": "40"])
        #expect(tiny.stdout == """
              2026-02-01 00:00  Sho… (draft)       …
              2026-01-01 00:00  A very long…  red  …

            """)
        // Not a terminal and no COLUMNS: nothing is cut, columns still line up.
        let piped = try vault.run(["list"])
        #expect(piped.stdout == """
              2026-02-01 00:00  Short (draft)                                              Sub/short.md
              2026-01-01 00:00  A very long title that goes on and on and on forever  red  long.md       #x #y

            """)
    }

    @Test func snippetsDropTaskMarksDoneOrNot() throws {
        let vault = try Self.tableVault()
        let run = try vault.run(["search", "bought", "--limit", "1"], environment: ["COLUMNS": "200"])
        #expect(run.code == 0)
        #expect(run.stdout.hasSuffix("\n    bought milk Bought bread buy milk again\n"))
        let cut = try vault.run(["search", "bought", "--limit", "1"], environment: ["COLUMNS": "24"])
        #expect(cut.stdout.hasSuffix("\n    bought milk Bought…\n"))
    }
}
