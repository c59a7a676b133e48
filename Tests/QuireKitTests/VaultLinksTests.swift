import Foundation
import QuireCore
import QuireKit
import QuireSearch
import Testing

/// The link workflows every front end calls (`VaultLinks`), on a vault in a temporary folder.
@Suite final class VaultLinksTests {
    private let root: URL
    private let links: VaultLinks

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("quirekit-links-\(UUID().uuidString)", isDirectory: true)
        let vault = try Vault.create(at: root)
        let files = [
            "Home.md": "---\ntitle: Home\naliases: [Start]\n---\n# Intro\nTo [[Plans#Goals]], [[Plnas]], [[Twin]] and ![[img/a.png]].\n",
            "Plans.md": "# Goals\nBack [[Home|home page]] ^b1\n\nStart here, `Start` not here.\n",
            "x/Twin.md": "twin one\n",
            "y/Twin.md": "twin two, [[Plans#Missing]]\n",
        ]
        var notes: [Note] = []
        for (path, text) in files.sorted(by: { $0.key < $1.key }) {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            notes.append(NoteParser.parse(Data(text.utf8), path: path))
        }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("img"), withIntermediateDirectories: true)
        try Data([1]).write(to: root.appendingPathComponent("img/a.png"))
        links = try VaultLinks(vault: vault, catalog: Catalog(notes: notes))
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    @Test func attachmentsAreListedByTheWalk() {
        #expect(links.attachments.filter { !$0.hasPrefix(".") } == ["img/a.png"])
    }

    @Test func outgoingLinksAreResolvedWithTheirAnchors() {
        let outgoing = links.outgoing(of: "Home.md")
        #expect(outgoing.map(\.resolution) == [
            .note("Plans.md"), .unresolved, .ambiguous(["x/Twin.md", "y/Twin.md"]), .attachment("img/a.png"),
        ])
        #expect(outgoing.map(\.anchor) == [.found, .none, .none, .none])
        #expect(links.outgoing(of: "Nowhere.md") == [])
    }

    @Test func backlinksCarryTheirLine() throws {
        let backlinks = try links.backlinks(of: "Home.md")
        #expect(backlinks.map(\.source) == ["Plans.md"])
        #expect(backlinks.first?.link.line == 2)
        #expect(backlinks.first?.context == "Back [[Home|home page]] ^b1")
        #expect(try links.backlinks(of: "Plans.md").map(\.source) == ["Home.md", "y/Twin.md"])
    }

    @Test func problemsNameTheClosestNoteAndTheCandidates() {
        let problems = links.problems()
        #expect(problems.map(\.kind) == [.unresolved, .ambiguous, .missingAnchor])
        #expect(problems[0].candidates == ["Plans.md"])
        #expect(problems[1].candidates == ["x/Twin.md", "y/Twin.md"])
        #expect(problems[2].source == "y/Twin.md")
    }

    @Test func unlinkedMentionsOfAnAlias() throws {
        // Plans links to Home, so it is no unlinked mention; nothing else names Home or Start.
        #expect(try links.unlinkedMentions(of: "Home.md") == [])
        let mentions = try links.unlinkedMentions(of: "x/Twin.md")
        #expect(mentions.map(\.source) == ["y/Twin.md"])
        #expect(mentions.first?.text == "twin")
    }

    @Test func graphOfAQuery() throws {
        let all = links.graphReport(matching: nil)
        #expect(all.nodes.map(\.path) == ["Home.md", "Plans.md", "x/Twin.md", "y/Twin.md"])
        #expect(all.edges.map { "\($0.source)>\($0.target)" } == ["Home.md>Plans.md", "Plans.md>Home.md", "y/Twin.md>Plans.md"])
        let some = links.graphReport(matching: try NoteQuery.parse("links-to:Plans", now: Date()))
        #expect(some.nodes.map(\.path) == ["Home.md", "y/Twin.md"])
        #expect(some.edges == [])
    }
}
