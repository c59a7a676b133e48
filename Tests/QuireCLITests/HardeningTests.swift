import Foundation
import Testing

@Suite("quire: refusals that keep notes safe")
struct HardeningTests {
    static let hiddenHint = "hint: quire ignores .git/, .quire/ and folders whose name starts with '.'; choose another folder\n"

    @Test(arguments: [
        (["new", "X", "--folder", ".git"], ".git"),
        (["new", "X", "--folder", ".quire/local"], ".quire/local"),
        (["mv", "a.md", ".git"], ".git"),
        (["mv", "a.md", "Sub/.hidden"], "Sub/.hidden"),
        (["folder", "add", ".quire"], ".quire"),
        (["folder", "rename", "Sub", ".secret"], ".secret"),
        (["folder", "rm", ".quire"], ".quire"),
    ])
    func hiddenFoldersAreRefused(_ arguments: [String], _ folder: String) throws {
        let vault = try TestVault()
        try vault.write(noteText("title: A"), to: "a.md")
        try vault.write(noteText("title: S"), to: "Sub/s.md")
        let before = try TestVault.snapshot(vault.root)
        let run = try vault.run(arguments)
        #expect(run.code == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == "quire: error: notes cannot live in a hidden folder (\(folder))\n" + Self.hiddenHint)
        #expect(try TestVault.snapshot(vault.root) == before)
    }

    /// A folder with `.quire/` but no git repository: a command that needs git says what is
    /// wrong and what to do (it printed libgit2's words, with no hint), and changes nothing.
    @Test func aVaultWithoutARepositoryIsNamedSo() throws {
        let root = try Harness.temporaryDirectory("quire-no-git")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".quire"), withIntermediateDirectories: true)
        try Harness.write("hi\n", to: root.appendingPathComponent("a.md"))
        let run = try Harness.run(["rm", "a"], in: root)
        #expect(run.code == 1)
        #expect(run.stderr.contains("quire: error: the vault is not a git repository: "), "\(run.stderr)")
        #expect(run.stderr.contains("\nhint: run 'quire init' in it to make it one"), "\(run.stderr)")
        #expect(try Harness.read(root.appendingPathComponent("a.md")) == "hi\n")
    }

    /// The summary warning names problems, not "unreadable front matter": a value out of range
    /// reads fine, and the note is edited like any other.
    @Test func theSummaryWarningSaysProblems() throws {
        let vault = try TestVault()
        try vault.write("---\ntitle: D\nmood: 9\n---\nbody\n", to: "d.md")
        let list = try vault.run(["list"])
        #expect(list.stderr.contains("quire: warning: 1 note has problems in its front matter or text — run 'quire check'"), "\(list.stderr)")
        #expect(try vault.run(["index"]).stdout.contains("1 note has problems in its front matter or text — run 'quire check'"))
        #expect(try vault.run(["set", "d.md", "color=red"]).code == 0)
    }

    /// Every command's warning and `check`'s summary give the same number in the same words
    /// ("15 notes have problems" beside `check`'s 84 before); `check` adds what only it finds.
    @Test func theWarningCountIsTheNumberCheckGives() throws {
        let vault = try TestVault()
        try vault.write("---\ntitle: D\nmood: 9\n---\nbody\n", to: "d.md")
        try vault.write("---\ntitle: [unclosed\n---\nbody\n", to: "e.md")
        try vault.write("---\ntitle: F\n---\n[[Nowhere]] [[Gone]]\n", to: "f.md")
        let phrase = "2 notes have problems in their front matter or text"
        #expect(try vault.run(["list"]).stderr.contains("quire: warning: \(phrase) — run 'quire check'"))
        let check = try vault.run(["check"])
        #expect(check.stdout.hasSuffix("4 problems in 3 of 3 notes; \(phrase)\n"), "\(check.stdout)")
    }

    @Test func folderCommandsRefuseANoteFile() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: A"), to: "a.md")
        for arguments in [["folder", "rm", "a.md"], ["folder", "rename", "a.md", "B"]] {
            let run = try vault.run(arguments)
            #expect(run.code == 1, "\(arguments)")
            #expect(run.stderr == "quire: error: no such folder (a.md)\nhint: 'quire folders' lists the folders\n")
            #expect(try vault.read("a.md") == noteText("title: A"))
        }
    }

    @Test func readOnlyTOMLNoteIsRefusedWithItsPath() throws {
        let vault = try TestVault()
        let text = "+++\ntitle = \"T\"\ntags = [\"x\"]\n+++\nbody\n"
        try vault.write(text, to: "t.md")
        for arguments in [["set", "t.md", "mood=3"], ["tag", "t.md", "+z"], ["unset", "t.md", "title"]] {
            let run = try vault.run(arguments)
            #expect(run.code == 1, "\(arguments)")
            #expect(run.stderr == "quire: error: toml front matter is read-only (t.md)\nhint: quire edits YAML front matter only; edit this note in an editor\n")
            #expect(try vault.read("t.md") == text)
        }
        #expect(try vault.run(["show", "T", "--json"]).stdout.contains("\"tags\": [\n    \"x\"\n  ]"))
    }

    @Test func editorThatRemovesTheNoteIsReported() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: A"), to: "a.md")
        let run = try vault.run(["edit", "a.md"], environment: ["EDITOR": "rm"])
        #expect(run.code == 1)
        #expect(run.stderr.hasPrefix("quire: error: the note is gone after editing (a.md)\nhint: "))
    }

    @Test func editorCommandMayCarryArguments() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: A", body: "old words\n"), to: "a.md")
        let run = try vault.run(["edit", "a.md"], environment: ["EDITOR": "sed -i s/old/new/", "QUIRE_NOW": "2026-12-01T00:00:00Z"])
        #expect(run.code == 0)
        #expect(try vault.read("a.md") == noteText("title: A\nupdatedAt: 2026-12-01T00:00:00+00:00", body: "new words\n"))
    }

    @Test func titlesNeverMakePathsOutsideTheVault() throws {
        let vault = try TestVault()
        #expect(try vault.run(["new", "../../etc/passwd"]).stdout == "etc-passwd.md\n")
        #expect(try vault.run(["new", "a/b"]).stdout == "a-b.md\n")
        #expect(try vault.run(["new", "日本語 ノート"]).stdout == "日本語-ノート.md\n")
        #expect(try vault.run(["rename", "a-b.md", ".hidden"]).stdout == "hidden.md\n")
    }
}
