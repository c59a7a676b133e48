import Foundation
import QuireCore
import Testing
@testable import QuireSearch

@Suite("Links in the catalog: backlinks from the index, incremental updates, filters, the snapshot")
struct CatalogLinkTests {
    private static func note(_ path: String, _ text: String) -> Note {
        NoteParser.parse(Data(text.utf8), path: path)
    }

    private static let vault: [Note] = [
        note("Home.md", "---\ntitle: Home\ntags: [hub]\nrelated: \"[[Ideas]]\"\n---\n# Home\n[[a/Ideas]] [x](b/Plans.md) [[Missing]]\n"),
        note("a/Ideas.md", "---\ntitle: Thoughts\n---\n# Ideas\nBack [[Home#Home]] and [[Plans]].\n"),
        note("b/Plans.md", "---\ntags: [work]\n---\nSee [[thoughts]] and [[home]] and `[[Home]]`.\n"),
        note("c/Lonely.md", "No links here.\n"),
        note("c/Self.md", "[[Self]] [[#Top]]\n# Top\n"),
    ]

    private func sources(_ catalog: Catalog, _ path: String) -> [String] {
        catalog.backlinks(of: path).map(\.source)
    }

    private func paths(_ catalog: Catalog, _ query: String) throws -> [String] {
        try catalog.run(NoteQuery.parse(query, now: Date()), sort: .path).map(\.path)
    }

    @Test func backlinksFromTheIndexAgreeWithTheWholeGraph() {
        let catalog = Catalog(notes: Self.vault)
        #expect(sources(catalog, "Home.md") == ["a/Ideas.md", "b/Plans.md"])
        #expect(sources(catalog, "a/Ideas.md") == ["Home.md", "Home.md", "b/Plans.md"])
        #expect(sources(catalog, "b/Plans.md") == ["Home.md", "a/Ideas.md"])
        #expect(sources(catalog, "c/Lonely.md").isEmpty)
        // `[[#Top]]` is no backlink: it names no note.
        #expect(sources(catalog, "c/Self.md") == ["c/Self.md"])
        let graph = catalog.linkGraph()
        for note in Self.vault {
            let fromIndex = catalog.backlinks(of: note.path).map { "\($0.source):\($0.link.range)" }
            let fromGraph = graph.incoming(to: note.path).map { "\($0.source):\($0.link.range)" }
            #expect(fromIndex == fromGraph, "\(note.path)")
        }
        #expect(graph.isOrphan("c/Lonely.md"))
        #expect(graph.isOrphan("c/Self.md"))
        #expect(!graph.isOrphan("b/Plans.md"))
        #expect(graph.hasBrokenLinks("Home.md"))
        #expect(graph.outgoing(from: "Home.md").map(\.resolution) == [
            .note("a/Ideas.md"), .note("a/Ideas.md"), .note("b/Plans.md"), .unresolved,
        ])
        #expect(graph.outgoing(from: "a/Ideas.md").first?.anchor == .found)
    }

    @Test func incrementalEditRenameDelete() {
        var catalog = Catalog(notes: Self.vault)
        // Edit: Plans stops linking to Home.
        catalog.upsert(Self.note("b/Plans.md", "See [[thoughts]].\n"))
        #expect(sources(catalog, "Home.md") == ["a/Ideas.md"])
        // Rename: Ideas moves; links by name still find it, the path link in Home no longer does.
        catalog.remove(path: "a/Ideas.md")
        catalog.upsert(Self.note("z/Ideas.md", "---\ntitle: Thoughts\n---\nBack [[Home]].\n"))
        #expect(sources(catalog, "z/Ideas.md") == ["Home.md", "b/Plans.md"])
        #expect(catalog.backlinks(of: "z/Ideas.md").map(\.link.target) == ["Ideas", "thoughts"])
        #expect(sources(catalog, "Home.md") == ["z/Ideas.md"])
        // Delete: Home's links vanish with it; the links to it become broken.
        catalog.remove(path: "Home.md")
        #expect(sources(catalog, "z/Ideas.md") == ["b/Plans.md"])
        #expect(catalog.linkGraph().hasBrokenLinks("z/Ideas.md"))
        // A new note named Home is found by the old links at once.
        catalog.upsert(Self.note("Home.md", "new\n"))
        #expect(sources(catalog, "Home.md") == ["z/Ideas.md"])
    }

    @Test func linkFiltersCombineWithTheRest() throws {
        let catalog = Catalog(notes: Self.vault)
        #expect(try paths(catalog, "links-to:Home") == ["a/Ideas.md", "b/Plans.md"])
        #expect(try paths(catalog, "links-to:Home tag:work") == ["b/Plans.md"])
        #expect(try paths(catalog, "links-to:Thoughts") == ["Home.md", "b/Plans.md"])
        #expect(try paths(catalog, "linked-from:Home") == ["a/Ideas.md", "b/Plans.md"])
        #expect(try paths(catalog, "linked-from:Home -links-to:Home") == [])
        #expect(try paths(catalog, "orphan:true") == ["c/Lonely.md", "c/Self.md"])
        #expect(try paths(catalog, "orphan:false OR tag:hub") == ["Home.md", "a/Ideas.md", "b/Plans.md"])
        #expect(try paths(catalog, "broken-links:true") == ["Home.md"])
        #expect(try paths(catalog, "broken-links:false folder:c") == ["c/Lonely.md", "c/Self.md"])
        #expect(try paths(catalog, "links-to:\"a/Ideas.md\" thoughts") == ["b/Plans.md"])
        #expect(try paths(catalog, "links-to:Nowhere").isEmpty)
        #expect(throws: QueryError.self) { try NoteQuery.parse("orphan:maybe", now: Date()) }
    }

    @Test func attachmentsResolveOnlyWhenListed() throws {
        let catalog = Catalog(notes: [Self.note("n.md", "![[pic.png]] [x](img/pic.png)\n")])
        var options = SearchOptions(sort: .path)
        let query = try NoteQuery.parse("broken-links:true", now: Date())
        #expect(query.usesLinkFilters)
        #expect(catalog.run(query, options: options).map(\.path) == ["n.md"])
        options.attachments = ["img/pic.png"]
        #expect(catalog.run(query, options: options).isEmpty)
        #expect(catalog.linkGraph(attachments: ["img/pic.png"]).incoming(to: "img/pic.png").count == 2)
    }

    @Test func linksSurviveTheSnapshot() throws {
        let vault = try TestVault()
        try vault.write("Home.md", "---\nrelated: \"[[Ideas]]\"\n---\n# Home\n[[Ideas#Top|the ideas]] [x](<b/My Plans.md> \"t\") ![[pic.png]]\n")
        try vault.write("Ideas.md", "# Top\ntext ^blk\n[[Home]]\n")
        try vault.write("b/My Plans.md", "[y](../Ideas.md#top)\n")
        let parse: NoteParsing = { data, path in NoteParser.parse(data, path: path) }
        let first = CatalogStore(root: vault.root, paths: vault.notePaths(), parse: parse)
        let reloaded = CatalogStore(root: vault.root, paths: vault.notePaths(), parse: parse)
        #expect(reloaded.report.cacheIssue == nil)
        for path in vault.notePaths() {
            let before = try #require(first.catalog.record(path: path))
            let after = try #require(reloaded.catalog.record(path: path))
            #expect(before.links == after.links)
            #expect(before.anchors == after.anchors)
            #expect(!after.links.isEmpty)
        }
        #expect(reloaded.catalog.backlinks(of: "Ideas.md").map(\.source) == ["Home.md", "Home.md", "b/My Plans.md"])
        #expect(reloaded.catalog.record(path: "Ideas.md")?.anchors == NoteAnchors(headings: ["Top"], blockIDs: ["blk"]))
    }
}
