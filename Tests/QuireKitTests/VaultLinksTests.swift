import Foundation
import QuireCore
import QuireKit
import QuireSearch
import XCTest

/// The link workflows every front end calls (`VaultLinks`), on a vault in a temporary folder.
final class VaultLinksTests: XCTestCase {
    private var root: URL!
    private var links: VaultLinks!

    override func setUpWithError() throws {
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

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    func testAttachmentsAreListedByTheWalk() {
        XCTAssertEqual(links.attachments.filter { !$0.hasPrefix(".") }, ["img/a.png"])
    }

    func testOutgoingLinksAreResolvedWithTheirAnchors() {
        let outgoing = links.outgoing(of: "Home.md")
        XCTAssertEqual(outgoing.map(\.resolution), [
            .note("Plans.md"), .unresolved, .ambiguous(["x/Twin.md", "y/Twin.md"]), .attachment("img/a.png"),
        ])
        XCTAssertEqual(outgoing.map(\.anchor), [.found, .none, .none, .none])
        XCTAssertEqual(links.outgoing(of: "Nowhere.md"), [])
    }

    func testBacklinksCarryTheirLine() throws {
        let backlinks = try links.backlinks(of: "Home.md")
        XCTAssertEqual(backlinks.map(\.source), ["Plans.md"])
        XCTAssertEqual(backlinks.first?.link.line, 2)
        XCTAssertEqual(backlinks.first?.context, "Back [[Home|home page]] ^b1")
        XCTAssertEqual(try links.backlinks(of: "Plans.md").map(\.source), ["Home.md", "y/Twin.md"])
    }

    func testProblemsNameTheClosestNoteAndTheCandidates() {
        let problems = links.problems()
        XCTAssertEqual(problems.map(\.kind), [.unresolved, .ambiguous, .missingAnchor])
        XCTAssertEqual(problems[0].candidates, ["Plans.md"])
        XCTAssertEqual(problems[1].candidates, ["x/Twin.md", "y/Twin.md"])
        XCTAssertEqual(problems[2].source, "y/Twin.md")
    }

    func testUnlinkedMentionsOfAnAlias() throws {
        // Plans links to Home, so it is no unlinked mention; nothing else names Home or Start.
        XCTAssertEqual(try links.unlinkedMentions(of: "Home.md"), [])
        let mentions = try links.unlinkedMentions(of: "x/Twin.md")
        XCTAssertEqual(mentions.map(\.source), ["y/Twin.md"])
        XCTAssertEqual(mentions.first?.text, "twin")
    }

    func testGraphOfAQuery() throws {
        let all = links.graphReport(matching: nil)
        XCTAssertEqual(all.nodes.map(\.path), ["Home.md", "Plans.md", "x/Twin.md", "y/Twin.md"])
        XCTAssertEqual(all.edges.map { "\($0.source)>\($0.target)" }, ["Home.md>Plans.md", "Plans.md>Home.md", "y/Twin.md>Plans.md"])
        let some = links.graphReport(matching: try NoteQuery.parse("links-to:Plans", now: Date()))
        XCTAssertEqual(some.nodes.map(\.path), ["Home.md", "y/Twin.md"])
        XCTAssertEqual(some.edges, [])
    }
}
