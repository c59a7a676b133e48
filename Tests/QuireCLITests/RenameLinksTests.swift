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
