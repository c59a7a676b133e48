import Foundation
import QuireCore
import Testing

@Suite("quire import FILE.json, quire export --json")
struct ImportExportTests {
    /// Every `.md` file below `root` with its bytes (outside `.git/`, `.quire/`, the test home).
    static func notes(_ root: URL) throws -> [String: Data] {
        try TestVault.snapshot(root).filter { $0.key.hasSuffix(".md") && !$0.key.hasPrefix(".quire/") }
    }

    @Test func exportThenImportIntoAnEmptyVaultGivesEveryNoteByteForByte() throws {
        let source = try TestVault()
        // SampleVault's notes, the odd fixtures (BOM, CRLF, TOML, unclosed fence, no front
        // matter) and a note that is not UTF-8.
        let sample = Harness.packageRoot.appendingPathComponent("SampleVault")
        for (path, data) in try TestVault.snapshot(sample) where path.hasSuffix(".md") {
            try FileManager.default.createDirectory(at: source.url(path).deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: source.url(path))
        }
        let fixtures = Harness.packageRoot.appendingPathComponent("Tests/Fixtures")
        for name in try FileManager.default.contentsOfDirectory(atPath: fixtures.path) where name.hasSuffix(".md") {
            try FileManager.default.createDirectory(at: source.url("Odd"), withIntermediateDirectories: true)
            try Data(contentsOf: fixtures.appendingPathComponent(name)).write(to: source.url("Odd/" + name))
        }
        try Data([0x2D, 0x2D, 0x2D, 0x0A, 0x74, 0x69, 0x74, 0x6C, 0x65, 0x3A, 0x20, 0xFF, 0xFE, 0x0A, 0x2D, 0x2D, 0x2D, 0x0A, 0xC3])
            .write(to: source.url("Odd/latin1.md"))
        let before = try Self.notes(source.root)
        #expect(before.count > 40)

        let exportFile = source.root.deletingLastPathComponent().appendingPathComponent("export.json")
        let export = try source.run(["export", "--json", exportFile.path])
        #expect(export.code == 0, "\(export.stderr)")
        #expect(export.stdout == "exported \(before.count) notes to \(exportFile.path)\n")
        // Standard output gets the same JSON when no FILE is given.
        #expect(try source.run(["export", "--json"]).stdout == (try Harness.read(exportFile)))

        let target = try TestVault()
        let imported = try target.run(["import", exportFile.path])
        #expect(imported.code == 0, "\(imported.stderr)")
        #expect(imported.stdout == "imported \(before.count) notes, skipped 0 already in the vault, 0 failed\n")
        let after = try Self.notes(target.root)
        #expect(after.keys.sorted() == before.keys.sorted())
        for (path, data) in before { #expect(after[path] == data, "\(path) differs") }

        // Idempotent: the same file again imports nothing and changes nothing.
        let again = try target.run(["import", exportFile.path])
        #expect(again.code == 0)
        #expect(again.stdout == "imported 0 notes, skipped \(before.count) already in the vault, 0 failed\n")
        #expect(try Self.notes(target.root) == before)
    }

    /// Notes sharing an id (a copied note) all come back from the export; only an entry the
    /// vault already holds (same id and bytes, or at that note's place) or one repeating an
    /// earlier entry is skipped, and the summary says which.
    @Test func entriesSharingAnIdAreAllImported() throws {
        let source = try TestVault()
        let id = "id: 11111111-1111-1111-1111-111111111111"
        try source.write(noteText(id + "\ntitle: Original", body: "original text\n"), to: "a.md")
        try source.write(noteText(id + "\ntitle: Original", body: "original text\n"), to: "a-copy.md")
        try source.write(noteText(id + "\ntitle: Copy", body: "edited copy, different text\n"), to: "b.md")
        let before = try Self.notes(source.root)
        let exportFile = source.root.deletingLastPathComponent().appendingPathComponent("shared.json")
        #expect(try source.run(["export", "--json", exportFile.path]).code == 0)

        let target = try TestVault()
        let imported = try target.run(["import", exportFile.path])
        #expect(imported.code == 0, "\(imported.stderr)")
        #expect(imported.stdout == "imported 3 notes, skipped 0 already in the vault, 0 failed\n")
        #expect(try Self.notes(target.root) == before)
        try target.write(noteText(id + "\ntitle: Copy", body: "edited copy, edited again\n"), to: "b.md")
        let again = try target.run(["import", exportFile.path])
        #expect(again.stdout == "imported 0 notes, skipped 3 already in the vault, 0 failed\n", "\(again.stderr)")

        let twice = try Harness.read(exportFile).replacingOccurrences(of: "\n]", with: ",\n" + "{\"path\": \"c.md\", \"content\": \"c\\n\"},\n{\"path\": \"c.md\", \"content\": \"c\\n\"}\n]")
        try Harness.write(twice, to: exportFile)
        let fresh = try TestVault()
        let run = try fresh.run(["import", exportFile.path])
        #expect(run.stdout == "imported 4 notes, skipped 0 already in the vault, skipped 1 repeated in the input, 0 failed\n", "\(run.stderr)")

        // Journal entries sharing an id but not their text are two notes.
        try fresh.write("[{\"id\": \"j\", \"title\": \"Day\", \"body\": \"one\"}, {\"id\": \"j\", \"title\": \"Day\", \"body\": \"two\"}]",
                        to: "../journal.json")
        let journal = try fresh.run(["import", "../journal.json", "--folder", "J"])
        #expect(journal.stdout == "imported 2 notes, skipped 0 already in the vault, 0 failed\n", "\(journal.stderr)")
        #expect(try fresh.read("J/day.md").hasSuffix("---\none\n") && fresh.read("J/day-2.md").hasSuffix("---\ntwo\n"))
    }

    @Test func journalEntriesBecomeCanonicalNotesAndBadOnesAreReportedWithTheirIndex() throws {
        let vault = try TestVault()
        let json = """
        [
          {"title": "Rain", "body": "Rain all day.", "tags": ["#weather", "Weather", " mood "],
           "createdAt": "2024-01-05T08:30:00+02:00", "updatedAt": 1704443400000, "project": "Life",
           "mood": 3, "draft": false, "weather": {"sky": "grey", "temp": 4.5}, "people": ["Ann"]},
          {"title": "Broken mood", "mood": 9},
          "not an object",
          {"body": "# First line as title\\nmore", "createdAt": 1704443400},
          {"id": "fixed-id", "title": "Rain", "createdAt": "yesterday"},
          {"id": "fixed-id", "title": "Rain", "createdAt": "2024-01-06"}
        ]
        """
        try vault.write(json, to: "../journal.json")
        let run = try vault.run(["import", "../journal.json", "--folder", "Journal"])
        #expect(run.code == 1)
        #expect(run.stdout == "imported 3 notes, skipped 0 already in the vault, 3 failed\n")
        #expect(run.stderr == """
        quire: warning: entry 1 not imported: 'mood' must be a whole number from 1 to 5, not 9
        quire: warning: entry 2 not imported: the entry is not an object
        quire: warning: entry 4 not imported: 'createdAt' is not a date (ISO 8601 text or epoch seconds or milliseconds): "yesterday"

        """)
        let rain = try vault.read("Journal/rain.md")
        let lines = rain.components(separatedBy: "\n")
        #expect(lines[1].hasPrefix("id: ") && lines[1].count == 40)
        #expect(Array(lines[2...]) == [
            "title: Rain", "createdAt: 2024-01-05T06:30:00+00:00", "updatedAt: 2024-01-05T08:30:00+00:00",
            "tags: [weather, mood]", "project: Life", "draft: false", "mood: 3",
            "weather:", "  sky: grey", "  temp: 4.5", "people: [Ann]", "---", "Rain all day.", "",
        ])
        #expect(try vault.read("Journal/first-line-as-title.md").contains("title: First line as title\n"))
        // The second entry with id fixed-id reuses the title: its file gets -2.
        #expect(try vault.read("Journal/rain-2.md").hasPrefix("---\nid: fixed-id\ntitle: Rain\ncreatedAt: 2024-01-06T00:00:00+00:00\n"))

        // Again: the good entries are duplicates now (the ones without id by their derived id).
        let again = try vault.run(["import", "../journal.json", "--folder", "Journal", "--json"])
        #expect(again.code == 1)
        #expect(again.stdout.contains("\"imported\": []"))
        #expect(again.stdout.contains("\"existingPath\": \"Journal/rain-2.md\""))
        #expect(try FileManager.default.contentsOfDirectory(atPath: vault.url("Journal").path).count == 3)
    }

    /// One JSON object over several lines is not JSON Lines: Day One's export (pretty or
    /// compact) gives its entries, any other object (or broken JSON) is refused, nothing written.
    @Test func aJSONObjectIsNotReadAsJSONLines() throws {
        let vault = try TestVault()
        try vault.write("""
        {
          "metadata" : { "version" : "1.0" },
          "entries" : [
            { "uuid" : "A1B2", "creationDate" : "2024-01-15T09:30:00Z", "text" : "First entry\\n\\nDear diary", "tags" : ["life"] },
            { "uuid" : "B1B2", "creationDate" : "2024-01-17T09:30:00Z", "text" : "Second entry" }
          ]
        }

        """, to: "../Journal.json")
        let run = try vault.run(["import", "../Journal.json", "--folder", "Journal"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout == "imported 2 notes, skipped 0 already in the vault, 0 failed\n")
        #expect(try vault.read("Journal/first-entry.md") == """
        ---
        id: A1B2
        title: First entry
        createdAt: 2024-01-15T09:30:00+00:00
        updatedAt: 2024-01-15T09:30:00+00:00
        tags: [life]
        ---
        First entry

        Dear diary

        """)
        try vault.write("{\"metadata\": {}, \"entries\": [{\"uuid\": \"C1\", \"creationDate\": \"2024-02-01T10:00:00Z\", "
                        + "\"modifiedDate\": \"2024-02-02T10:00:00Z\", \"text\": \"Compact\", \"starred\": true, \"timeZone\": \"Europe/Paris\"}]}\n",
                        to: "../compact.json")
        #expect(try vault.run(["import", "../compact.json"]).code == 0)
        #expect(try vault.read("compact.md").hasPrefix("---\nid: C1\ntitle: Compact\ncreatedAt: 2024-02-01T10:00:00+00:00\n"
                                                         + "updatedAt: 2024-02-02T10:00:00+00:00\ntags: []\npinned: true\ntimeZone: Europe/Paris\n---\n"))

        let before = try Self.notes(vault.root)
        try vault.write("{\n  \"title\": \"One\",\n  \"notes\": [{\"title\": \"Two\"}]\n}\n", to: "../object.json")
        let object = try vault.run(["import", "../object.json"])
        #expect(object.code == 1)
        #expect(object.stderr == "quire: error: cannot read ../object.json: expected an array of entries, JSON Lines (one entry a line)"
                + " or an object with an array under \"entries\", found one JSON object over several lines\n"
                + "hint: put the entries in an array ([{…}, {…}]) or one a line; see 'quire import --help'\n")
        try vault.write("{\n  \"entries\": [\n{\"title\": \"A\"},\n{\"title\": }\n]}\n", to: "../broken.json")
        let broken = try vault.run(["import", "../broken.json"])
        #expect(broken.code == 1)
        #expect(broken.stderr.hasPrefix("quire: error: cannot read ../broken.json:4: "), "\(broken.stderr)")
        #expect(try Self.notes(vault.root) == before, "nothing is written")
    }

    @Test func jsonLinesWithABadLineAndABrokenArray() throws {
        let vault = try TestVault()
        try vault.write("{\"title\": \"One\"}\n\n{\"title\": \"Two\"\n{\"title\": \"Three\", \"tags\": \"a, b\"}\n", to: "../lines.jsonl")
        let run = try vault.run(["import", "../lines.jsonl"])
        #expect(run.code == 1)
        #expect(run.stderr == "quire: warning: entry 1 not imported: line 3: expected ',' or '}'\n")
        #expect(vault.exists("one.md"))
        #expect(try vault.read("three.md").contains("\ntags: [a, b]\n"))

        try vault.write("[{\"title\": \"A\"},\n{\"title\": ", to: "../broken.json")
        let broken = try vault.run(["import", "../broken.json"])
        #expect(broken.code == 1)
        #expect(broken.stderr.hasPrefix("quire: error: cannot read ../broken.json:2: unexpected end of the text\n"))
        #expect(!vault.exists("a.md"))
    }

    @Test func anEntryNeverOverwritesAFileAndNeverLeavesTheVault() throws {
        let vault = try TestVault()
        try vault.write("mine\n", to: "taken.md")
        try vault.write("""
        [{"path": "taken.md", "content": "theirs\\n"},
         {"path": "../outside.md", "title": "X"},
         {"path": ".quire/x.md", "title": "Y"},
         {"path": "notes/a.txt", "title": "Z"},
         {"path": "taken.md", "content": "mine\\n"}]
        """, to: "../paths.json")
        let run = try vault.run(["import", "../paths.json", "--json"])
        #expect(run.code == 1)
        #expect(try vault.read("taken.md") == "mine\n")
        #expect(!FileManager.default.fileExists(atPath: vault.root.deletingLastPathComponent().appendingPathComponent("outside.md").path))
        #expect(run.stdout.contains("\"reason\": \"a different file is already at taken.md\""))
        #expect(run.stdout.contains("\"reason\": \"path leaves the vault: ../outside.md\""))
        #expect(run.stdout.contains("\"reason\": \"'path' must not be in a hidden folder (.quire/x.md)\""))
        #expect(run.stdout.contains("\"reason\": \"'path' must name a .md file (notes/a.txt)\""))
        #expect(run.stdout.contains("\"existingPath\": \"taken.md\""))
        let hidden = try vault.run(["import", "../paths.json", "--folder", ".quire/notes"])
        #expect(hidden.code == 1)
        #expect(hidden.stderr == "quire: error: notes cannot go in a hidden folder: .quire/notes\n")
    }

    @Test func aTerminalShowsTheProgressLine() throws {
        let vault = try TestVault()
        try vault.write("[" + (0..<50).map { "{\"title\": \"Entry \($0)\"}" }.joined(separator: ",") + "]", to: "../many.json")
        let driver = Harness.packageRoot.appendingPathComponent("Tests/Servers/pty-editor.py")
        let environment = Harness.environment(home: vault.root.appendingPathComponent(".test-home"), extra: ["TERM": "xterm"])
        let run = try ChaosSupport.capture(["python3", driver.path, "60", "--", Harness.binary.path, "import", "../many.json"],
                                           in: vault.root, environment: environment, withErrors: true)
        #expect(run.code == 0, "\(run.output)")
        #expect(run.output.contains("importing: 50/50 entries (100%)"))
        #expect(run.output.contains("imported 50 notes, skipped 0 already in the vault, 0 failed"))
        // Not on a terminal: no progress line.
        let plain = try vault.run(["import", "../many.json"])
        #expect(!plain.stderr.contains("importing"))
    }

    /// SIGKILL at some point of a long import: every note on disk is whole (it reads back as
    /// its entry wrote it), and importing again finishes the job without a duplicate.
    @Test func anImportKilledMidwayLeavesWholeNotesAndFinishesOnTheNextRun() throws {
        let vault = try TestVault()
        let count = 4000
        let entries = (0..<count).map { "{\"id\": \"entry-\($0)\", \"title\": \"Entry \($0)\", \"body\": \"\(String(repeating: "word ", count: 200))end \($0)\"}" }
        try vault.write("[" + entries.joined(separator: ",\n") + "]", to: "../big.json")
        let process = Process()
        process.executableURL = Harness.binary
        process.arguments = ["import", "../big.json"]
        process.currentDirectoryURL = vault.root
        process.environment = Harness.environment(home: vault.root.appendingPathComponent(".test-home"), extra: [:])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Kill it once the first notes are on disk (or when it is done).
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline,
              ((try? FileManager.default.contentsOfDirectory(atPath: vault.root.path)) ?? []).filter({ $0.hasSuffix(".md") }).isEmpty {
            usleep(2_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let written = try Self.notes(vault.root)
        for (path, data) in written {
            let note = NoteParser.parse(data, path: path)
            #expect(note.problems.isEmpty, "\(path)")
            let number = try #require(note.id.flatMap { Int($0.dropFirst("entry-".count)) }, "\(path)")
            #expect(note.title == "Entry \(number)" && note.body.hasSuffix(" end \(number)\n"), "\(path)")
        }
        let again = try vault.run(["import", "../big.json"])
        #expect(again.code == 0)
        #expect(again.stdout == "imported \(count - written.count) notes, skipped \(written.count) already in the vault, 0 failed\n")
        let all = try Self.notes(vault.root)
        #expect(all.count == count)
        #expect(Set(all.values.compactMap { NoteParser.parse($0, path: "").id }).count == count)
    }
}
