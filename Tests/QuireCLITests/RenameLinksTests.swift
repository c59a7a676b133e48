import Foundation
import QuireCore
import Testing

/// `quire rename`, `mv` and `folder rename` rewrite every link to the moved notes, surgically,
/// through the built binary.
@Suite struct RenameLinksTests {
    static let now = ["QUIRE_NOW": "2026-12-01T10:00:00Z"]
    static let stamped = "updatedAt: 2026-12-01T10:00:00Z"

    /// One linking note in every style, its relative Markdown paths written from `folder`.
    static func linking(_ index: Int, folder: String, name: String, fileName: String, frontMatter: Bool) -> String {
        let up = folder.split(separator: "/").map { _ in "../" }.joined()
        let relative = folder == "Folder" ? fileName : up + "Folder/" + fileName
        let encoded = relative.replacingOccurrences(of: " ", with: "%20")
        let head = frontMatter ? "---\ntitle: Linking \(index)\nupdatedAt: 2026-01-01T00:00:00Z\n---\n" : ""
        return head + """
            # Linking \(index)
            Plain [[\(name)]] and [[\(name)|a label]] and [[\(name)#Heading]] and [[\(name)#^block1]].
            An embed: ![[\(name)]]
            Markdown: [x](\(encoded)) and [y](<\(relative)>) and [z](\(encoded)#heading "title").
            Unrelated: [[Other note]] and [w](https://example.com/Name%20x.md) and `[[Name x]]`.
            ```
            [[Name x]] in a fence stays
            ```
            \r
            Last line without newline [[\(name)]]
            """
    }

    static let folders = ["", "Other", "Other/Deep", "Folder"]

    /// A title-named vault with "Folder/Name x.md" and 50 notes linking to it in every style.
    static func fiftyLinks() throws -> TestVault {
        let vault = try TestVault()
        try vault.write("version: 1\nfileNames: title\n", to: ".quire/config.yml")
        try vault.write("---\ntitle: Name x\nupdatedAt: 2026-01-01T00:00:00Z\n---\n# Heading\nText ^block1\n[back](../n00.md)\n", to: "Folder/Name x.md")
        try vault.write("# Other note\n", to: "Other note.md")
        for index in 0..<50 {
            let folder = folders[index % folders.count]
            let path = (folder.isEmpty ? "" : folder + "/") + String(format: "n%02d.md", index)
            try vault.write(linking(index, folder: folder, name: "Name x", fileName: "Name x.md", frontMatter: index % 2 == 0), to: path)
        }
        return vault
    }

    @Test func renamingANoteFiftyNotesLinkToChangesOnlyTheLinkTargets() throws {
        let vault = try Self.fiftyLinks()
        let before = try TestVault.snapshot(vault.root)
        let run = try vault.run(["rename", "Folder/Name x.md", "Name: y?"], environment: Self.now)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout == "Folder/Name y.md\n")
        #expect(!run.stderr.contains("warning"), "\(run.stderr)")
        let after = try TestVault.snapshot(vault.root)
        var expected = before
        expected["Folder/Name x.md"] = nil
        expected["Folder/Name y.md"] = Data("---\ntitle: \"Name: y?\"\n\(Self.stamped)\n---\n# Heading\nText ^block1\n[back](../n00.md)\n".utf8)
        for index in 0..<50 {
            let folder = Self.folders[index % Self.folders.count]
            let path = (folder.isEmpty ? "" : folder + "/") + String(format: "n%02d.md", index)
            var text = Self.linking(index, folder: folder, name: "Name y", fileName: "Name y.md", frontMatter: index % 2 == 0)
            text = text.replacingOccurrences(of: "updatedAt: 2026-01-01T00:00:00Z", with: Self.stamped)
            expected[path] = Data(text.utf8)
        }
        for path in Set(expected.keys).union(after.keys).sorted() where !path.hasPrefix(".quire/") {
            #expect(after[path] == expected[path], "\(path):\n\(String(decoding: after[path] ?? Data(), as: UTF8.self))")
        }
        #expect(try LinkCensus(vault.root).broken(named: ["name x", "name y"]).isEmpty)
    }

    /// A link rewrite changes only the link: a note with front matter but no `updatedAt` gains
    /// none (its commit dates it), one with `updatedAt` (or `modified`) has it set; the same for
    /// `check --fix` ("8 notes gained updatedAt for one rename" before).
    @Test func linkRewritesAddNoKeys() throws {
        let vault = try TestVault()
        try vault.write("# Old\n", to: "Old.md")
        let plain = "---\ntags: [x]\n---\nSee [[Old]].\n"
        try vault.write(plain, to: "plain.md")
        try vault.write("---\nupdatedAt: 2026-01-01T00:00:00Z\n---\nSee [[Old]].\n", to: "dated.md")
        try vault.write("---\nmodified: 2026-01-01\n---\nSee [[Old]].\n", to: "obsidian.md")
        let run = try vault.run(["rename", "Old.md", "New"], environment: Self.now)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(try vault.read("plain.md") == "---\ntags: [x]\n---\nSee [[new]].\n")
        #expect(try vault.read("dated.md") == "---\n\(Self.stamped)\n---\nSee [[new]].\n")
        #expect(try vault.read("obsidian.md") == "---\nmodified: 2026-12-01\n---\nSee [[new]].\n")
        // The sync that commits the rewrite adds no key either (the commit dates the note).
        #expect(try vault.run(["sync"], environment: Self.now).code == 0)
        #expect(try vault.read("plain.md") == "---\ntags: [x]\n---\nSee [[new]].\n")

        try vault.write("---\ntags: [y]\n---\nSee [[target.md]].\n", to: "other.md")
        try vault.write("Target\n", to: "target.md")
        try vault.commitAll()
        try #require(try vault.git(["mv", "target.md", "moved.md"]) == 0)
        try vault.commitAll()
        let fixed = try vault.run(["check", "--fix"], environment: Self.now)
        #expect(fixed.stdout.contains("fixed other.md:4"), "\(fixed.stdout)")
        #expect(try vault.read("other.md") == "---\ntags: [y]\n---\nSee [[moved.md]].\n")
    }

    @Test func dryRunPrintsTheEditsAndChangesNothing() throws {
        let vault = try Self.fiftyLinks()
        let before = try TestVault.snapshot(vault.root)
        let run = try vault.run(["rename", "Name x", "Name y", "--dry-run"], environment: Self.now)
        #expect(run.code == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.first == "move Folder/Name x.md → Folder/Name y.md")
        #expect(lines.contains("Other/n01.md:2: [[Name x|a label]] → [[Name y|a label]]"))
        #expect(lines.contains("Other/n01.md:4: [x](../Folder/Name%20x.md) → [x](../Folder/Name%20y.md)"))
        #expect(lines.contains("n04.md:8: [y](<Folder/Name x.md>) → [y](<Folder/Name y.md>)"))
        #expect(lines.count == 1 + 50 * 9)
        #expect(try TestVault.snapshot(vault.root) == before)

        let moveOnly = try vault.run(["rename", "Name x", "Name y", "--no-links"], environment: Self.now)
        #expect(moveOnly.code == 0)
        #expect(try vault.bytes("n00.md") == before["n00.md"])
        #expect(vault.exists("Folder/Name y.md"))
    }

    @Test func movingANoteRewritesRelativeLinksInsideItAndKeepsBareNames() throws {
        let vault = try Self.fiftyLinks()
        let run = try vault.run(["mv", "Folder/Name x.md", "Other/Deep"], environment: Self.now)
        #expect(run.code == 0, "\(run.stderr)")
        // The moved note's own relative link follows; it is stamped as a changed note.
        #expect(try vault.read("Other/Deep/Name x.md") == "---\ntitle: Name x\n\(Self.stamped)\n---\n# Heading\nText ^block1\n[back](../../n00.md)\n")
        // Bare wikilinks still name one note: left as written. Paths follow.
        let root = try vault.read("n04.md")
        #expect(root.contains("Plain [[Name x]] and"))
        #expect(root.contains("[x](Other/Deep/Name%20x.md) and [y](<Other/Deep/Name x.md>)"))
        #expect(try vault.read("Other/n01.md").contains("[x](Deep/Name%20x.md)"))
        #expect(try vault.read("Other/Deep/n02.md").contains("[x](Name%20x.md)"))
        #expect(try LinkCensus(vault.root).broken(named: ["name x"]).isEmpty)
    }

    /// Markdown links that named an attachment by a relative path keep naming it when the note
    /// moves, or when the attachment's folder is renamed; wikilinks and bare names of files that
    /// stay find them anyway and are left as written.
    @Test func relativeLinksToAttachmentsFollowTheMove() throws {
        let vault = try TestVault()
        try vault.write("PNG", to: "a/pic.png")
        try vault.write("PDF", to: "a/files/doc one.pdf")
        try vault.write("---\ntitle: Mover\n---\n![p](pic.png) [pdf](files/doc%20one.pdf) [q](<./pic.png>) ![[pic.png]]\n",
                        to: "a/mover.md")
        try vault.write("---\ntitle: Out\n---\n![p](a/pic.png) [x](./a/files/doc%20one.pdf) ![[pic.png]]\n", to: "out.md")
        try vault.commitAll()
        let move = try vault.run(["mv", "a/mover.md", "b"], environment: Self.now)
        #expect(move.code == 0, "\(move.stderr)")
        #expect(try vault.read("b/mover.md").hasSuffix(
            "![p](../a/pic.png) [pdf](../a/files/doc%20one.pdf) [q](<../a/pic.png>) ![[pic.png]]\n"))
        #expect(try vault.read("out.md").hasSuffix("![p](a/pic.png) [x](./a/files/doc%20one.pdf) ![[pic.png]]\n"))
        let rename = try vault.run(["folder", "rename", "a", "c"], environment: Self.now)
        #expect(rename.code == 0, "\(rename.stderr)")
        #expect(try vault.read("out.md").hasSuffix("![p](c/pic.png) [x](./c/files/doc%20one.pdf) ![[pic.png]]\n"))
        #expect(try vault.read("b/mover.md").hasSuffix(
            "![p](../c/pic.png) [pdf](../c/files/doc%20one.pdf) [q](<../c/pic.png>) ![[pic.png]]\n"))
        #expect(vault.exists("c/pic.png") && vault.exists("c/files/doc one.pdf"))
    }

    @Test func folderRenameRewritesLinksIntoAndOutOfTheFolder() throws {
        let vault = try Self.fiftyLinks()
        let run = try vault.run(["folder", "rename", "Folder", "Renamed Folder"], environment: Self.now)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout == "Renamed Folder\n")
        #expect(try vault.read("n00.md").contains("[x](Renamed%20Folder/Name%20x.md) and [y](<Renamed Folder/Name x.md>)"))
        // Notes inside the folder link to the target by a relative path that did not change.
        #expect(try vault.read("Renamed Folder/n03.md").contains("[x](Name%20x.md)"))
        #expect(try LinkCensus(vault.root).broken(named: ["name x"]).isEmpty)
    }

    /// `quire init` in an Obsidian vault names files by title; `new` and `rename` follow it, and a
    /// note without front matter is renamed by its file alone.
    @Test func obsidianVaultsNameFilesByTitle() throws {
        let root = try Harness.temporaryDirectory().appendingPathComponent("obsidian")
        try Harness.write("{}\n", to: root.appendingPathComponent(".obsidian/app.json"))
        let plain = "Just text, no front matter.\n"
        try Harness.write(plain, to: root.appendingPathComponent("Daily plan.md"))
        try Harness.write("See [[Daily plan]] and [[Daily plan|today]].\n", to: root.appendingPathComponent("Index.md"))
        try #require(try Harness.run(["init", root.path], in: root.deletingLastPathComponent()).code == 0)
        let vault = TestVault(existing: root)
        #expect(try vault.read(".quire/config.yml").contains("\nfileNames: title\n"))
        let created = try vault.run(["new", "Q: what now?"], environment: Self.now)
        #expect(created.stdout == "Q what now.md\n")
        #expect(try vault.read("Q what now.md").contains("title: \"Q: what now?\""))
        let renamed = try vault.run(["rename", "Daily plan", "Weekly plan"], environment: Self.now)
        #expect(renamed.code == 0, "\(renamed.stderr)")
        #expect(renamed.stdout == "Weekly plan.md\n")
        #expect(try vault.read("Weekly plan.md") == plain)
        #expect(try vault.read("Index.md") == "See [[Weekly plan]] and [[Weekly plan|today]].\n")
        // A title whose file name already fits (a collision's -2 included) moves nothing.
        #expect(try vault.run(["rename", "Weekly plan", "Weekly plan"], environment: Self.now).stdout == "Weekly plan.md\n")
        try vault.write("version: 1\nfileNames: titles\n", to: ".quire/config.yml")
        let refused = try vault.run(["rename", "Weekly plan", "Monthly plan"], environment: Self.now)
        #expect(refused.code == 1)
        #expect(refused.stderr.contains("fileNames is slug or title, not 'titles'"), "\(refused.stderr)")
        #expect(vault.exists("Weekly plan.md"))
    }

    @Test func folderRemovalMovesNotesToTheRootWithTheirLinks() throws {
        let vault = try TestVault()
        try vault.write("# a\n", to: "a.md")
        try vault.write("# inner a\n[up](../b.md)\n", to: "F/a.md")
        try vault.write("# deep a\n", to: "F/G/a.md")
        try vault.write("[[F/a]] [[F/G/a|deep]] [x](F/G/a.md) [[a]]\n", to: "b.md")
        let run = try vault.run(["folder", "rm", "F"], environment: Self.now)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout == "moved F/G/a.md → a-2.md\nmoved F/a.md → a-3.md\nremoved F\n")
        #expect(try vault.read("b.md") == "[[a-3]] [[a-2|deep]] [x](a-2.md) [[a]]\n")
        #expect(try vault.read("a-3.md") == "# inner a\n[up](b.md)\n")
    }

    @Test func ambiguousLinksAreLeftAndReported() throws {
        let vault = try TestVault()
        try vault.write("# a\n", to: "A/Same.md")
        try vault.write("# b\n", to: "B/Same.md")
        let text = "[[Same]] and [[A/Same]]\n"
        try vault.write(text, to: "x.md")
        let run = try vault.run(["mv", "A/Same.md", "C"], environment: Self.now)
        #expect(run.code == 0)
        #expect(try vault.read("x.md") == "[[Same]] and [[C/Same]]\n")
        #expect(run.stderr.contains("quire: warning: link left as it is (x.md:1: [[Same]]): it was ambiguous (A/Same.md, B/Same.md)"), "\(run.stderr)")
    }
}

/// Every link in a vault and where it leads, by the resolver of QuireCore (independent of the
/// rewriter in QuireKit).
struct LinkCensus {
    var links: [(path: String, link: NoteLink, resolution: LinkResolution)] = []

    init(_ root: URL) throws {
        var notes: [(String, Data)] = []
        for (path, data) in try TestVault.snapshot(root) where path.hasSuffix(".md") && !path.hasPrefix(".") {
            notes.append((path, data))
        }
        let entries = notes.map { path, data in
            let note = NoteParser.parse(data, path: path)
            return LinkTargetTable.Entry(path: path, title: note.title, aliases: note.aliases)
        }
        let resolver = LinkResolver(index: LinkTargetTable(notes: entries))
        for (path, data) in notes.sorted(by: { $0.0 < $1.0 }) {
            for link in LinkExtractor.links(in: data) {
                links.append((path, link, resolver.resolve(link, from: path)))
            }
        }
    }

    /// Links whose target's file name is one of `names` (lowercased) and that lead nowhere.
    func broken(named names: Set<String>) -> [String] {
        links.filter { entry in
            let name = (entry.link.target as NSString).lastPathComponent.lowercased()
            let stem = name.hasSuffix(".md") ? String(name.dropLast(3)) : name
            return names.contains(stem) && entry.resolution.path == nil
        }.map { "\($0.path):\($0.link.line): \($0.link.displayText)" }
    }
}
