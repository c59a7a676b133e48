import Foundation
import Testing

@Suite("quire init")
struct InitCommandTests {
    @Test func createsANewVaultInANewFolder() throws {
        let parent = try Harness.temporaryDirectory()
        let run = try Harness.run(["init", "notes"], in: parent)
        #expect(run.code == 0)
        #expect(run.stdout == "Initialized an empty quire vault in notes\n")
        #expect(run.stderr == "")
        let root = parent.appendingPathComponent("notes")
        let vault = TestVault(existing: root)
        #expect(vault.exists(".git"))
        #expect(vault.exists(".quire/config.yml"))
        let ignore = try vault.read(".gitignore").split(separator: "\n")
        #expect(ignore.contains(".quire/local/"))
        #expect(ignore.contains(".quire/cache/"))
        let attributes = try vault.read(".gitattributes").split(separator: "\n")
        #expect(attributes.contains("*.md merge=quire"))
        let head = try vault.read(".git/HEAD")
        #expect(head == "ref: refs/heads/main\n")
    }

    @Test func adoptsExistingNotesWithoutTouchingThem() throws {
        let root = try Harness.temporaryDirectory().appendingPathComponent("obsidian")
        try Harness.write("---\ncreated: 2026-01-04 10:22\ntags: a, b\n---\n# One\n", to: root.appendingPathComponent("one.md"))
        try Harness.write("no front matter at all", to: root.appendingPathComponent("Sub/two.md"))
        try Harness.write("---\r\ntitle: CRLF\r\n---\r\nx\r\n", to: root.appendingPathComponent("Sub/three.md"))
        let before = try TestVault.snapshot(root)
        let run = try Harness.run(["init"], in: root)
        #expect(run.code == 0)
        #expect(run.stdout == "Initialized a quire vault in . (3 notes adopted as they are)\n")
        let after = try TestVault.snapshot(root)
        for (path, data) in before { #expect(after[path] == data, "\(path) changed") }
        let added = Set(after.keys).subtracting(before.keys)
        #expect(added == [".gitignore", ".gitattributes", ".quire/config.yml"])
    }

    /// Notes named by their titles (an Obsidian vault whose `.obsidian/` git ignores) make new
    /// notes named so too; slugs keep slugs; names that tell nothing keep the default.
    @Test func picksTitleFileNamesWhenTheNotesAreNamedByTitle() throws {
        for (names, style) in [(["Part 1 Basics.md", "Meeting notes.md", "ideas.md", "a/How it works.md"], "title"),
                               (["part-1-basics.md", "meeting-notes.md", "Odd One.md"], "slug"),
                               (["ideas.md", "README.md", "dendron.ref.cli.md"], "slug")] {
            let root = try Harness.temporaryDirectory().appendingPathComponent("vault")
            for name in names { try Harness.write("# x\n", to: root.appendingPathComponent(name)) }
            #expect(try Harness.run(["init"], in: root).code == 0)
            #expect(try TestVault(existing: root).read(".quire/config.yml").contains("fileNames: \(style)\n"), "\(names)")
        }
    }

    /// Issue 13 (Also): in an Obsidian vault, the per-device workspace layout and the trash are
    /// ignored, so a first sync neither shares them nor makes two devices collide on them.
    @Test func ignoresObsidiansWorkspaceAndTrash() throws {
        let root = try Harness.temporaryDirectory().appendingPathComponent("obsidian")
        try Harness.write("# One\n", to: root.appendingPathComponent("one.md"))
        try Harness.write("{}\n", to: root.appendingPathComponent(".obsidian/app.json"))
        try Harness.write("{\"main\": {}}\n", to: root.appendingPathComponent(".obsidian/workspace.json"))
        try Harness.write("{\"main\": {}}\n", to: root.appendingPathComponent(".obsidian/workspace-mobile.json"))
        try Harness.write("# Old\n", to: root.appendingPathComponent(".trash/old.md"))
        #expect(try Harness.run(["init"], in: root).code == 0)
        let vault = TestVault(existing: root)
        #expect(try vault.read(".gitignore") == ".quire/local/\n.quire/cache/\n.obsidian/workspace*.json\n.trash/\n")
        #expect(try vault.run(["sync"]).code == 0)
        let tracked = try gitCLI(["ls-files"], in: root).stdout.split(separator: "\n").map(String.init)
        #expect(tracked == [".gitattributes", ".gitignore", ".obsidian/app.json", ".quire/config.yml", "one.md"])
        let plain = try Harness.temporaryDirectory().appendingPathComponent("plain")
        try Harness.write("# One\n", to: plain.appendingPathComponent("one.md"))
        #expect(try Harness.run(["init"], in: plain).code == 0)
        #expect(try TestVault(existing: plain).read(".gitignore") == ".quire/local/\n.quire/cache/\n", "only in an Obsidian vault")
    }

    @Test func adoptsAnExistingRepositoryKeepingItsGitignore() throws {
        let vault = TestVault(existing: try Harness.temporaryDirectory().appendingPathComponent("repo"))
        try vault.write("build/\n", to: ".gitignore")
        try vault.write("---\ntitle: Kept\n---\n", to: "kept.md")
        try FileManager.default.createDirectory(at: vault.root, withIntermediateDirectories: true)
        #expect(try vault.git(["init", "-q", "-b", "main"]) == 0)
        let note = try vault.bytes("kept.md")
        let run = try vault.run(["init"])
        #expect(run.code == 0)
        #expect(run.stdout == "Made the git repository . a quire vault (1 note adopted as they are)\n")
        #expect(try vault.bytes("kept.md") == note)
        let ignore = try vault.read(".gitignore")
        #expect(ignore.hasPrefix("build/\n"))
        #expect(ignore.contains(".quire/local/\n"))
        #expect(ignore.contains(".quire/cache/\n"))
    }

    @Test func refusesAnExistingVault() throws {
        let vault = try TestVault()
        let config = try vault.bytes(".quire/config.yml")
        let run = try vault.run(["init"])
        #expect(run.code == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == "quire: error: the folder is already a quire vault (\(vault.root.path))\nhint: nothing was changed; run quire commands inside it\n")
        #expect(try vault.bytes(".quire/config.yml") == config)
    }

    @Test func refusesAFolderInsideAnotherRepository() throws {
        let outer = TestVault(existing: try Harness.temporaryDirectory().appendingPathComponent("outer"))
        try FileManager.default.createDirectory(at: outer.url("inner"), withIntermediateDirectories: true)
        #expect(try outer.git(["init", "-q"]) == 0)
        let run = try outer.run(["init", "inner"])
        #expect(run.code == 1)
        #expect(run.stderr.hasPrefix("quire: error: a vault must be the root of its git work tree (\(outer.root.path)/inner is inside \(outer.root.path))\nhint: "))
        #expect(run.stderr.contains("\nhint: "))
        #expect(!outer.exists("inner/.quire"))
    }

    @Test func sampleVaultRoundTrip() throws {
        let root = try Harness.copySampleVault()
        let before = try TestVault.snapshot(root)
        let initRun = try Harness.run(["init"], in: root)
        #expect(initRun.code == 0)
        #expect(initRun.stdout.hasPrefix("Initialized a quire vault in . ("))
        let list = try Harness.run(["list", "--json"], in: root)
        #expect(list.code == 0)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(items.count == before.keys.filter { $0.hasSuffix(".md") }.count)
        let after = try TestVault.snapshot(root)
        for (path, data) in before { #expect(after[path] == data, "\(path) changed") }
        #expect(Set(after.keys).subtracting(before.keys) == [".gitattributes"])
    }
}
