import Foundation
import Testing

@Suite("quire tag, mv, rename, rm")
struct TagMoveRemoveTests {
    static let later = ["QUIRE_NOW": "2026-11-30T08:00:00Z"]
    static let note = noteText("id: 22220000-0000-4000-8000-000000000001\ntitle: Tagged\nupdatedAt: 2026-01-01T00:00:00+00:00\ntags: [Rain, walk]")

    @Test func tagAddsRemovesAndDedupes() throws {
        let vault = try TestVault()
        try vault.write(Self.note, to: "t.md")
        let run = try vault.run(["tag", "t.md", "+new", "-walk", "#hash", "+RAIN", "+New"], environment: Self.later)
        #expect(run.code == 0)
        #expect(run.stdout == "#Rain #new #hash\n")
        #expect(try vault.read("t.md") == Self.note.replacingOccurrences(of: "[Rain, walk]", with: "[Rain, new, hash]")
            .replacingOccurrences(of: "2026-01-01T00:00:00+00:00", with: "2026-11-30T08:00:00+00:00"))
        let removeUpper = try vault.run(["tag", "Tagged", "-RAIN"])
        #expect(removeUpper.stdout == "#new #hash\n")
        #expect(try vault.run(["tag", "t.md", "+h", "+v"]).stdout == "#new #hash #h #v\n")
        let dashH = try vault.run(["tag", "t.md", "-h", "-v"])
        #expect(dashH.code == 0)
        #expect(dashH.stdout == "#new #hash\n")
        #expect(try vault.run(["tag", "-h"]).stdout.contains("USAGE: quire tag"))
    }

    @Test func tagWithNoChangeLeavesTheFileAlone() throws {
        let vault = try TestVault()
        try vault.write(Self.note, to: "t.md")
        let run = try vault.run(["tag", "t.md", "+rain", "-absent"], environment: Self.later)
        #expect(run.code == 0)
        #expect(run.stdout == "#Rain #walk\n")
        #expect(try vault.read("t.md") == Self.note)
        #expect(try vault.run(["tag", "t.md"]).code == 2)
        #expect(try vault.run(["tag", "t.md", "+"]).code == 2)
    }

    @Test func tagKeepsTheCommaStringForm() throws {
        let vault = try TestVault()
        let text = "---\ncreated: 2026-01-04 10:22\nmodified: 2026-02-11 16:05\ntags: writing, obsidian\n---\n# Habits\n"
        try vault.write(text, to: "habits.md")
        let run = try vault.run(["tag", "habits.md", "+habits", "-obsidian"], environment: Self.later)
        #expect(run.code == 0)
        #expect(try vault.read("habits.md") == text.replacingOccurrences(of: "writing, obsidian", with: "writing, habits")
            .replacingOccurrences(of: "modified: 2026-02-11 16:05", with: "modified: 2026-11-30 08:00"))
    }

    @Test func mvMovesWithoutStampingAndNumbersACollision() throws {
        let vault = try TestVault()
        try vault.write(Self.note, to: "t.md")
        try vault.write(Self.note.replacingOccurrences(of: "22220000", with: "33330000"), to: "Archive/t.md")
        let run = try vault.run(["mv", "t.md", "Archive"], environment: Self.later)
        #expect(run.code == 0)
        #expect(run.stdout == "Archive/t-2.md\n")
        #expect(!vault.exists("t.md"))
        #expect(try vault.read("Archive/t-2.md") == Self.note)
        #expect(try vault.read("Archive/t.md").contains("33330000"))
        let back = try vault.run(["mv", "Archive/t-2.md", "/"])
        #expect(back.code == 0)
        #expect(back.stdout == "t-2.md\n")
        #expect(try vault.run(["mv", "t-2.md", "../outside"]).code == 1)
        #expect(try vault.run(["mv", "t-2.md"]).code == 2)
        #expect(try vault.run(["mv", "nothing", "Archive"]).code == 1)
    }

    /// `quire mv a.md b.md`, as in a shell or git, asks for a new file name: refused with
    /// `quire rename` as the hint, nothing moved and no folder `b.md/` made; a folder that is
    /// named so and exists is still a destination.
    @Test func mvToANoteNameIsRefusedUnlessSuchAFolderExists() throws {
        let vault = try TestVault()
        try vault.write(Self.note, to: "t.md")
        let run = try vault.run(["mv", "t.md", "Renamed.MD"])
        #expect(run.code == 2)
        #expect(run.stderr.contains("quire: error: 'Renamed.MD' is named as a note, not a folder"))
        #expect(run.stderr.contains("quire rename NOTE NEW-TITLE"))
        #expect(try vault.read("t.md") == Self.note)
        #expect(!vault.exists("Renamed.MD"))
        #expect(try vault.run(["mv", "t.md", "Sub/other.md"]).code == 2)
        #expect(!vault.exists("Sub"))
        try FileManager.default.createDirectory(at: vault.root.appendingPathComponent("Odd.md"), withIntermediateDirectories: true)
        let into = try vault.run(["mv", "t.md", "Odd.md"])
        #expect(into.code == 0)
        #expect(into.stdout == "Odd.md/t.md\n")
        #expect(try vault.read("Odd.md/t.md") == Self.note)
    }

    @Test func renameChangesTitleFileNameAndStamps() throws {
        let vault = try TestVault()
        try vault.write(Self.note, to: "Sub/t.md")
        let run = try vault.run(["rename", "Sub/t.md", "A Better Name"], environment: Self.later)
        #expect(run.code == 0)
        #expect(run.stdout == "Sub/a-better-name.md\n")
        #expect(!vault.exists("Sub/t.md"))
        #expect(try vault.read("Sub/a-better-name.md") == Self.note.replacingOccurrences(of: "title: Tagged", with: "title: A Better Name")
            .replacingOccurrences(of: "2026-01-01T00:00:00+00:00", with: "2026-11-30T08:00:00+00:00"))
        #expect(try vault.run(["rename", "Sub/a-better-name.md", " "]).code == 2)
    }

    @Test func rmOfAnUncommittedNoteMovesItToTheTrash() throws {
        let vault = try TestVault()
        try vault.write(Self.note, to: "t.md")
        let run = try vault.run(["rm", "t.md"])
        #expect(run.code == 0)
        #expect(run.stdout == "moved t.md to .quire/local/trash/20261129T120000Z/t.md (never committed)\n")
        #expect(!vault.exists("t.md"))
        #expect(try vault.read(".quire/local/trash/20261129T120000Z/t.md") == Self.note)
        let restored = try vault.run(["restore", "t.md"])
        #expect(restored.code == 0)
        #expect(restored.stdout == "restored t.md from the trash\n")
        #expect(try vault.read("t.md") == Self.note)
        #expect(!vault.exists(".quire/local/trash/20261129T120000Z/t.md"))
    }

    @Test func rmOfACommittedNoteDeletesIt() throws {
        let vault = try TestVault()
        try vault.write(Self.note, to: "Sub/t.md")
        try vault.commitAll()
        let run = try vault.run(["rm", "Tagged"])
        #expect(run.code == 0)
        #expect(run.stdout == "removed Sub/t.md (it stays in history: 'quire restore Sub/t.md' brings it back)\n")
        #expect(!vault.exists("Sub/t.md"))
        #expect(!vault.exists(".quire/local/trash"))
        #expect(try vault.run(["rm", "Tagged"]).code == 1)
        // What the message says brings it back (the deletion is not committed yet).
        #expect(try vault.run(["restore", "Sub/t.md"]).code == 0)
        #expect(try vault.read("Sub/t.md") == Self.note)
    }

    /// `tag` changes only the tags it is given: the others keep their `#`, their quotes and
    /// their type, and words a YAML 1.1 reader takes for booleans stay quoted.
    @Test func tagKeepsTheFormOfTheTagsItDoesNotChange() throws {
        let vault = try TestVault()
        try vault.write("---\ntitle: A\ntags: [alpha, \"#beta\", gamma, 2024]\n---\nx\n", to: "a.md")
        try vault.write("---\ntitle: B\ntags:\n  - \"on\"\n  - \"yes\"\n---\nx\n", to: "b.md")
        try vault.write("---\ntitle: C\ntags: \"#one, #two\"\n---\nx\n", to: "c.md")
        #expect(try vault.run(["tag", "a.md", "-gamma", "+delta"]).code == 0)
        #expect(try vault.read("a.md").contains("tags: [alpha, \"#beta\", 2024, delta]\n"))
        #expect(try vault.run(["tag", "b.md", "+new", "+off"]).code == 0)
        let b = try vault.read("b.md")
        #expect(b.contains("tags:\n  - \"on\"\n  - \"yes\"\n  - new\n  - \"off\"\n"), "\(b)")
        #expect(try vault.run(["tag", "c.md", "+three"]).code == 0)
        #expect(try vault.read("c.md").contains("tags: \"#one, #two, #three\"\n"))
    }

    /// A Hugo note keeping tags under both `keywords` and `categories`: a removed tag leaves the
    /// key that holds it, a new one goes to `keywords`, and no key's tags move to another.
    @Test func tagEditsKeywordsAndCategoriesInPlace() throws {
        let vault = try TestVault()
        try vault.write("---\ntitle: K\nkeywords: [go, hugo]\ncategories: [docs, guide]\n---\nx\n", to: "k.md")
        let run = try vault.run(["tag", "k.md", "+new", "-go", "-guide", "+docs"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout == "#hugo #new #docs\n")
        let text = try vault.read("k.md")
        #expect(text.hasPrefix("---\ntitle: K\nkeywords: [hugo, new]\ncategories: [docs]\nupdatedAt: "), "\(text)")
    }

    /// `restore TITLE` finds a deleted note by the title, alias or file name of its last version,
    /// wherever `restore` takes it from: the trash, the last commit, a commit before its deletion.
    @Test func aDeletedNoteIsRestoredByItsTitle() throws {
        let vault = try TestVault()
        let aliased = "---\ntitle: Kept Plans\naliases: [the plan]\n---\nbody\n"
        try vault.write(Self.note, to: "Sub/t.md")
        try vault.write(aliased, to: "plans.md")
        try vault.commitAll()
        try vault.write("---\ntitle: Fresh Idea\n---\nnew\n", to: "fresh.md")
        // The trash: never committed.
        #expect(try vault.run(["rm", "Fresh Idea"]).code == 0)
        let fromTrash = try vault.run(["restore", "fresh idea"])
        #expect(fromTrash.code == 0, "\(fromTrash.stderr)")
        #expect(fromTrash.stdout == "restored fresh.md from the trash\n")
        // The last commit: removed since.
        #expect(try vault.run(["rm", "Tagged"]).code == 0)
        let fromHead = try vault.run(["restore", "TAGGED"])
        #expect(fromHead.code == 0, "\(fromHead.stderr)")
        #expect(fromHead.stdout.hasPrefix("restored Sub/t.md from the last commit"), "\(fromHead.stdout)")
        #expect(try vault.read("Sub/t.md") == Self.note)
        // A commit before its deletion, found by an alias and by its file name.
        #expect(try vault.run(["rm", "Kept Plans"]).code == 0)
        try vault.commitAll()
        let byAlias = try vault.run(["restore", "The Plan"])
        #expect(byAlias.code == 0, "\(byAlias.stderr)")
        #expect(byAlias.stdout.contains("restored plans.md from commit"), "\(byAlias.stdout)")
        #expect(try vault.read("plans.md").contains("title: Kept Plans"))
        try vault.commitAll()
        #expect(try vault.run(["rm", "Kept Plans"]).code == 0)
        try vault.commitAll()
        #expect(try vault.run(["history", "plans"]).stdout.contains("deleted"))
        #expect(try vault.run(["restore", "plans"]).code == 0)
        // A name no note ever had.
        let none = try vault.run(["restore", "Never Was"])
        #expect(none.code == 1)
        #expect(none.stderr.contains("hint: no note and no deleted note has that title"), "\(none.stderr)")
    }

    /// Two deleted notes of one title: neither is restored, both are named.
    @Test func aTitleTwoDeletedNotesHadIsAmbiguous() throws {
        let vault = try TestVault()
        try vault.write("---\ntitle: Twin\n---\none\n", to: "A/twin.md")
        try vault.write("---\ntitle: Twin\n---\ntwo\n", to: "B/twin.md")
        try vault.commitAll()
        #expect(try vault.run(["rm", "A/twin.md"]).code == 0)
        #expect(try vault.run(["rm", "B/twin.md"]).code == 0)
        let run = try vault.run(["restore", "Twin"])
        #expect(run.code == 1)
        #expect(run.stderr.contains("'Twin' names 2 deleted notes: A/twin.md, B/twin.md"), "\(run.stderr)")
        #expect(!vault.exists("A/twin.md") && !vault.exists("B/twin.md"))
    }

    @Test func rmOfACommittedNoteWithUncommittedChangesKeepsThemInTheTrash() throws {
        let vault = try TestVault()
        try vault.write(Self.note, to: "t.md")
        try vault.commitAll()
        try vault.write(Self.note + "An edit never committed.\n", to: "t.md")
        let run = try vault.run(["rm", "t.md"])
        #expect(run.code == 0)
        #expect(run.stdout == "moved t.md to .quire/local/trash/20261129T120000Z/t.md (changes never committed)\n")
        #expect(!vault.exists("t.md"))
        #expect(try vault.read(".quire/local/trash/20261129T120000Z/t.md") == Self.note + "An edit never committed.\n")
    }
}
