import Foundation
import Testing

@Suite("quire edit, set, unset")
struct EditSetTests {
    static let later = ["QUIRE_NOW": "2026-11-30T08:00:00Z"]
    static let note = noteText("id: 11110000-0000-4000-8000-000000000001\ntitle: Note\nupdatedAt: 2026-01-01T00:00:00+00:00\nmood: 2",
                               body: "Body.\n")

    @Test func editStampsUpdatedAtWhenTheContentChanged() throws {
        let vault = try TestVault()
        try vault.write(Self.note, to: "n.md")
        let editor = try TestVault.script("echo appended >> \"$1\"")
        let run = try vault.run(["edit", "n.md"], environment: Self.later.merging(["EDITOR": editor]) { $1 })
        #expect(run.code == 0)
        #expect(try vault.read("n.md") == Self.note.replacingOccurrences(of: "2026-01-01T00:00:00+00:00", with: "2026-11-30T08:00:00+00:00") + "appended\n")
    }

    @Test func editThatChangesNothingLeavesTheFileByteIdentical() throws {
        let vault = try TestVault()
        try vault.write(Self.note, to: "n.md")
        let run = try vault.run(["edit", "Note"], environment: Self.later.merging(["VISUAL": try TestVault.script("exit 0"), "EDITOR": "false"]) { $1 })
        #expect(run.code == 0)
        #expect(try vault.read("n.md") == Self.note)
    }

    @Test func editorSettingUpdatedAtItselfIsKept() throws {
        let vault = try TestVault()
        try vault.write(Self.note, to: "n.md")
        let editor = try TestVault.script("sed -i 's/2026-01-01T00:00:00+00:00/2025-05-05T05:05:05+00:00/; s/mood: 2/mood: 3/' \"$1\"")
        #expect(try vault.run(["edit", "n.md"], environment: Self.later.merging(["EDITOR": editor]) { $1 }).code == 0)
        let text = try vault.read("n.md")
        #expect(text.contains("updatedAt: 2025-05-05T05:05:05+00:00\n"))
        #expect(text.contains("mood: 3\n"))
    }

    /// An edit that leaves the front matter unreadable is said at once (it ended with exit 0 and
    /// no word, and the note silently lost its title and stamp); the file stays as written.
    @Test func anEditThatBreaksTheFrontMatterIsSaidAtOnce() throws {
        let vault = try TestVault()
        try vault.write(Self.note, to: "n.md")
        let editor = try TestVault.script("sed -i 's/^title: .*/title: \"oops/' \"$1\"")
        let run = try vault.run(["edit", "n.md"], environment: Self.later.merging(["EDITOR": editor]) { $1 })
        #expect(run.code == 0)
        #expect(run.stderr.contains("quire: warning: n.md:"), "\(run.stderr)")
        #expect(run.stderr.contains("the note was left as written and updatedAt was not stamped\nhint: run 'quire edit "), "\(run.stderr)")
        #expect(try vault.read("n.md") == Self.note.replacingOccurrences(of: "title: Note", with: "title: \"oops"))
    }

    /// A key whose anchor another key's alias refers to cannot be removed or replaced (the
    /// front matter would not read); the message names the key that refers to it.
    @Test func aKeyWhoseAnchorIsInUseNamesTheKeyUsingIt() throws {
        let vault = try TestVault()
        let text = "---\ntitle: A\nbase: &b\n  k: v\ncopy: *b\n---\n"
        try vault.write(text, to: "a.md")
        for arguments in [["unset", "a.md", "base"], ["set", "a.md", "base=plain"]] {
            let run = try vault.run(arguments)
            #expect(run.code == 1, "\(arguments)")
            #expect(run.stderr.hasPrefix("quire: error: cannot change 'base': 'copy' refers to its anchor &b (*b); change or remove 'copy' first"),
                    "\(run.stderr)")
        }
        #expect(try vault.read("a.md") == text)
    }

    @Test func editorFailureIsReported() throws {
        let vault = try TestVault()
        try vault.write(Self.note, to: "n.md")
        let run = try vault.run(["edit", "n.md"], environment: ["EDITOR": try TestVault.script("exit 3")])
        #expect(run.code == 1)
        #expect(run.stderr.hasPrefix("quire: error: the editor "))
        #expect(try vault.read("n.md") == Self.note)
    }

    @Test func setTypedValues() throws {
        let vault = try TestVault()
        try vault.write(Self.note, to: "n.md")
        let run = try vault.run(["set", "n.md", "draft=false", "mood=4", "tags=[a, b]", "title=2024", "reviewer=Pete"], environment: Self.later)
        #expect(run.code == 0)
        #expect(run.stdout == "n.md\n")
        #expect(try vault.read("n.md") == noteText("""
            id: 11110000-0000-4000-8000-000000000001
            title: "2024"
            updatedAt: 2026-11-30T08:00:00+00:00
            mood: 4
            draft: false
            tags: [a, b]
            reviewer: Pete
            """))
        let json = try vault.run(["show", "n.md", "--json"]).stdout
        #expect(json.contains("\"title\": \"2024\""))
        #expect(json.contains("\"draft\": false"))
        #expect(json.contains("\"mood\": 4"))
    }

    @Test(arguments: [
        ("Dialogue/forky-teaches-philosophy.md", ["color=blue", "draft=false"],
         [("color: green\r\n", "color: blue\r\n"), ("draft: true\r\n", "draft: false\r\n"),
          ("updatedAt: 2026-03-04T10:25:48+01:00\r\n", "updatedAt: 2026-11-30T08:00:00+00:00\r\n")]),
        ("Pitches/inside-out-3-one-pager.md", ["reviewer=Bing Bong"],
         [("reviewer: Pete\n", "reviewer: Bing Bong\n"),
          ("updatedAt: 2026-04-08T17:45:00-07:00\n", "updatedAt: 2026-11-30T08:00:00+00:00\n")]),
    ])
    func setIsSurgicalOnCRLFAndCommentedNotes(path: String, assignments: [String], edits: [(String, String)]) throws {
        let root = try Harness.copySampleVault()
        #expect(try Harness.run(["init"], in: root).code == 0)
        let vault = TestVault(existing: root)
        var expected = try vault.read(path)
        for (old, new) in edits {
            #expect(expected.contains(old))
            expected = expected.replacingOccurrences(of: old, with: new)
        }
        #expect(try vault.run(["set", path] + assignments, environment: Self.later).code == 0)
        #expect(try vault.read(path) == expected)
    }

    @Test func setKeepsTextWithACommentMark() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: N\ntags: [old]"), to: "n.md")
        let run = try vault.run(["set", "n.md", "x=#hash", "tags=#a", "q=it's # x", "n=null", "updatedAt=2026-01-01T00:00:00Z"])
        #expect(run.code == 0)
        #expect(try vault.read("n.md") == noteText("title: N\ntags: [a]\nx: \"#hash\"\nq: \"it's # x\"\nn: null\nupdatedAt: 2026-01-01T00:00:00Z"))
    }

    @Test func setKeepsAnExplicitUpdatedAt() throws {
        let vault = try TestVault()
        try vault.write(Self.note, to: "n.md")
        #expect(try vault.run(["set", "n.md", "updatedAt=2020-02-02T02:02:02Z", "mood=5"], environment: Self.later).code == 0)
        #expect(try vault.read("n.md") == Self.note.replacingOccurrences(of: "2026-01-01T00:00:00+00:00", with: "2020-02-02T02:02:02Z")
            .replacingOccurrences(of: "mood: 2", with: "mood: 5"))
    }

    @Test(arguments: ["mood", "=3", "mood=abc", "mood=9", "draft=maybe", "pinned=3", "tags=[a, b", "updatedAt=yesterday"])
    func setRefusesBadValues(_ assignment: String) throws {
        let vault = try TestVault()
        try vault.write(Self.note, to: "n.md")
        let run = try vault.run(["set", "n.md", assignment])
        #expect(run.code == 2)
        #expect(run.stderr.hasPrefix("quire: error: "))
        #expect(run.stderr.contains("\nusage: quire set NOTE KEY=VALUE…\n"))
        #expect(try vault.read("n.md") == Self.note)
    }

    @Test func unreadableFrontMatterIsRefusedAndUntouched() throws {
        let vault = try TestVault()
        let bad = "---\ntitle: [unclosed\nmood: 2\n---\nbody\n"
        try vault.write(bad, to: "bad.md")
        for arguments in [["set", "bad.md", "mood=3"], ["unset", "bad.md", "mood"], ["tag", "bad.md", "+x"], ["rename", "bad.md", "Good"]] {
            let run = try vault.run(arguments)
            #expect(run.code == 1, "\(arguments)")
            #expect(run.stderr.contains("quire: error: front matter is unreadable, the note is left as it is (bad.md:3: "), "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("\nhint: "))
            #expect(try vault.read("bad.md") == bad)
        }
    }

    @Test func unsetRemovesKeysAndStamps() throws {
        let vault = try TestVault()
        try vault.write(Self.note, to: "n.md")
        let run = try vault.run(["unset", "n.md", "mood"], environment: Self.later)
        #expect(run.code == 0)
        #expect(try vault.read("n.md") == noteText("id: 11110000-0000-4000-8000-000000000001\ntitle: Note\nupdatedAt: 2026-11-30T08:00:00+00:00"))
        let again = try vault.bytes("n.md")
        #expect(try vault.run(["unset", "n.md", "nothere"], environment: ["QUIRE_NOW": "2027-01-01T00:00:00Z"]).code == 0)
        #expect(try vault.bytes("n.md") == again)
        #expect(try vault.run(["unset", "n.md", "id"]).code == 2)
        #expect(try vault.run(["unset", "n.md"]).code == 2)
    }
}
