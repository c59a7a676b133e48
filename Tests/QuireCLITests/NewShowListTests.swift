import Foundation
import Testing

@Suite("quire new, show, list")
struct NewShowListTests {
    static let idLine = #"^id: [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"#

    /// Tags given twice in two cases are one tag (as everywhere else); a tag with white space or
    /// a comma is refused, by `new` and `tag` alike (it was stored, and `tags: a b` splits it).
    @Test func givenTagsAreOneEachAndHoldNoSpace() throws {
        let vault = try TestVault()
        #expect(try vault.run(["new", "T", "--tag", "Idea", "--tag", "#idea", "--tag", "work"]).code == 0)
        #expect(try vault.read("t.md").contains("tags: [Idea, work]\n"))
        for arguments in [["new", "U", "--tag", "two words"], ["new", "U", "--tag", "a,b"], ["tag", "t.md", "+two words"]] {
            let run = try vault.run(arguments)
            #expect(run.code == 2, "\(arguments)")
            #expect(run.stderr.hasPrefix("quire: error: a tag cannot hold white space or a comma"), "\(run.stderr)")
        }
        #expect(!vault.exists("u.md"))
    }

    @Test func newWritesKeysInOrderAndPrintsThePath() throws {
        let vault = try TestVault()
        let run = try vault.run(["new", "Woody's Last Ride!", "--tag", "#ending", "--tag", "toy", "--project", "Toy Story 5",
                                 "--final", "--pinned", "--color", "red", "--mood", "4", "--body", "The end."])
        #expect(run.code == 0)
        #expect(run.stdout == "woodys-last-ride.md\n")
        let lines = try vault.read("woodys-last-ride.md").components(separatedBy: "\n")
        #expect(lines[1].range(of: Self.idLine, options: .regularExpression) != nil)
        #expect(Array(lines[2...]) == [
            "title: Woody's Last Ride!", "createdAt: 2026-11-29T12:00:00+00:00", "updatedAt: 2026-11-29T12:00:00+00:00",
            "tags: [ending, toy]", "project: Toy Story 5", "draft: false", "pinned: true", "color: red", "mood: 4",
            "---", "The end.", "",
        ])
    }

    @Test func newDraftFlagAndNeither() throws {
        let vault = try TestVault()
        #expect(try vault.run(["new", "A", "--draft"]).code == 0)
        #expect(try vault.run(["new", "B"]).code == 0)
        #expect(try vault.read("a.md").contains("\ndraft: true\n"))
        #expect(!(try vault.read("b.md").contains("draft")))
        let both = try vault.run(["new", "C", "--draft", "--final"])
        #expect(both.code == 2)
        #expect(both.stderr.hasPrefix("quire: error: --draft and --final cannot be used together\nusage: quire new TITLE"))
        #expect(!vault.exists("c.md"))
        #expect(try vault.run(["new", "D", "--mood", "9"]).code == 2)
        #expect(try vault.run(["new", "D", "--tag", "#"]).code == 2)
        #expect(!vault.exists("d.md"))
        #expect(try vault.run(["new", "  "]).code == 2)
        #expect(try vault.run(["new"]).code == 2)
    }

    @Test func newCollisionGetsANumberAndMissingFolderIsCreated() throws {
        let vault = try TestVault()
        #expect(try vault.run(["new", "Same"]).stdout == "same.md\n")
        #expect(try vault.run(["new", "Same"]).stdout == "same-2.md\n")
        #expect(try vault.run(["new", "Same"]).stdout == "same-3.md\n")
        #expect(try vault.run(["new", "Same", "--folder", "Deep/Er"]).stdout == "Deep/Er/same.md\n")
        #expect(vault.exists("Deep/Er/same.md"))
        let escape = try vault.run(["new", "X", "--folder", "../out"])
        #expect(escape.code == 1)
        #expect(escape.stderr.hasPrefix("quire: error: the path leaves the vault (../out)\nhint: "))
    }

    @Test func newBodyFromStdinAndPathRelativeToSubfolder() throws {
        let vault = try TestVault()
        try FileManager.default.createDirectory(at: vault.url("Journal"), withIntermediateDirectories: true)
        let run = try vault.run(["new", "Rain", "--folder", "Drafts", "--body", "-"], subfolder: "Journal", stdin: "Rain all day.")
        #expect(run.code == 0)
        #expect(run.stdout == "../Drafts/rain.md\n")
        #expect(try vault.read("Drafts/rain.md").hasSuffix("tags: []\n---\nRain all day.\n"))
    }

    @Test func showJSONShape() throws {
        let vault = try TestVault()
        try vault.write(noteText("""
            id: 3f2b0000-0000-4000-8000-000000000001
            title: Forky
            updatedAt: 2026-03-04T10:25:48+01:00
            tags: [toy, philosophy]
            mood: 2
            reviewer: Pete
            """, body: "Am I trash?\n"), to: "Dialogue/forky.md")
        let run = try vault.run(["show", "Dialogue/forky.md", "--json"])
        #expect(run.code == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["path", "id", "title", "folder", "tags", "project", "draft", "pinned", "color", "mood",
                                     "priority", "createdAt", "updatedAt", "createdAtSource", "updatedAtSource", "words",
                                     "frontMatter", "body"])
        let keyOrder = run.stdout.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { $0.dropFirst(3).prefix { $0 != "\"" } }
        #expect(keyOrder.map(String.init) == ["path", "id", "title", "folder", "tags", "project", "draft", "pinned", "color",
                                              "mood", "priority", "createdAt", "updatedAt", "createdAtSource", "updatedAtSource",
                                              "words", "frontMatter", "body"])
        #expect(object["path"] as? String == "Dialogue/forky.md")
        #expect(object["folder"] as? String == "Dialogue")
        #expect(object["tags"] as? [String] == ["toy", "philosophy"])
        #expect(object["project"] is NSNull)
        // No createdAt: the earlier of updatedAt and the file's time (DateFallbackTests), written
        // with the offset the note's own value has.
        #expect(object["createdAt"] as? String == "2026-03-04T10:25:48+01:00")
        #expect(object["createdAtSource"] as? String == "frontMatter:updatedAt")
        #expect(object["draft"] as? Bool == false)
        #expect(object["mood"] as? Int == 2)
        #expect(object["words"] as? Int == 3)
        #expect(object["body"] as? String == "Am I trash?\n")
        #expect((object["frontMatter"] as? [String: Any])?["reviewer"] as? String == "Pete")
    }

    @Test func showTextForHumans() throws {
        let vault = try TestVault()
        try vault.write(noteText("""
            title: Full
            project: P
            tags: [a, b]
            draft: true
            pinned: true
            color: red
            mood: 3
            createdAt: 2026-01-02T03:04:05+02:00
            updatedAt: 2026-01-03T00:00:00Z
            """, body: "Hello there world\n"), to: "Sub/full.md")
        let run = try vault.run(["show", "full"], subfolder: "Sub")
        #expect(run.code == 0)
        #expect(run.stdout == """
            Full
            full.md · project: P · #a #b · draft · pinned · color: red · mood: 3
            created 2026-01-02 01:04 · updated 2026-01-03 00:00 · 3 words

            Hello there world

            """)
        try vault.write(noteText("title: FULL"), to: "other.md")
        let ambiguous = try vault.run(["show", "Full"])
        #expect(ambiguous.code == 1)
        #expect(ambiguous.stderr == "quire: error: 'Full' matches several notes (Sub/full.md, other.md)\nhint: give the path or the full id\n")
    }

    @Test func showRawIsByteExact() throws {
        let vault = try TestVault()
        let text = "\u{FEFF}---\r\ntitle: Crlf ünïcode\r\n# comment\r\n---\r\nbody\r\nno newline"
        try vault.write(text, to: "crlf.md")
        let run = try vault.run(["show", "crlf.md", "--raw"])
        #expect(run.code == 0)
        #expect(Data(run.stdout.utf8) == Data(text.utf8))
        #expect(try vault.run(["show", "crlf.md", "--raw", "--json"]).code == 2)
    }

    @Test func noteResolution() throws {
        let vault = try TestVault()
        try vault.write(noteText("id: abcd1234-0000-4000-8000-000000000001\ntitle: Alpha Note"), to: "a.md")
        try vault.write(noteText("id: abcd5678-0000-4000-8000-000000000002\ntitle: Beta"), to: "Sub/b.md")
        for query in ["a.md", "abcd1234-0000-4000-8000-000000000001", "ALPHA note", "abcd1"] {
            let run = try vault.run(["show", query, "--json"])
            #expect(run.code == 0, "\(query): \(run.stderr)")
            #expect(run.stdout.contains("\"path\": \"a.md\""), "\(query)")
        }
        #expect(try vault.run(["show", "b.md"], subfolder: "Sub").stdout.hasPrefix("Beta\nb.md\n"))
        let ambiguous = try vault.run(["show", "abcd"])
        #expect(ambiguous.code == 1)
        #expect(ambiguous.stderr == "quire: error: 'abcd' matches several notes (Sub/b.md, a.md)\nhint: give the path or the full id\n")
        let short = try vault.run(["show", "abc"])
        #expect(short.code == 1)
        #expect(short.stderr.hasPrefix("quire: error: no note matches 'abc'\nhint: "))
        let missing = try vault.run(["show", "nothing"])
        #expect(missing.code == 1)
        #expect(missing.stdout == "")
    }

    @Test func listJSONOrderPinnedThenNewest() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: Old\nupdatedAt: 2026-01-01T00:00:00Z"), to: "old.md")
        try vault.write(noteText("title: New\nupdatedAt: 2026-06-01T00:00:00Z"), to: "new.md")
        try vault.write(noteText("title: Pinned old\nupdatedAt: 2025-01-01T00:00:00Z\npinned: true"), to: "P/pin.md")
        try vault.write(noteText("title: Middle\nupdatedAt: 2026-03-01T00:00:00+02:00"), to: "mid.md")
        let run = try vault.run(["list", "--json"])
        #expect(run.code == 0)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(items.compactMap { $0["path"] as? String } == ["P/pin.md", "new.md", "mid.md", "old.md"])
        let empty = try TestVault().run(["list", "--json"])
        #expect(empty.code == 0)
        #expect(empty.stdout == "[]\n")
    }
}

/// Notes ignored by git (root and nested `.gitignore`, ignored folders) are not notes.
@Suite("quire list and git's ignore rules")
struct IgnoreRulesTests {
    @Test func ignoredNotesAreNotListed() throws {
        let vault = try TestVault()
        try vault.write("# a\n", to: "Private/deep/a.md")
        try vault.write("# b\n", to: "Sub/b.md")
        try vault.write("# c\n", to: "Sub/c.md")
        try vault.write(try vault.read(".gitignore") + "Private/\n", to: ".gitignore")
        try vault.write("c.md\n", to: "Sub/.gitignore")
        let run = try vault.run(["list", "--paths"])
        #expect(run.code == 0)
        #expect(run.stdout == "Sub/b.md\n")
    }
}
