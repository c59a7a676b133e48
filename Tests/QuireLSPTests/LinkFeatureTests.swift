import Foundation
import Testing
@testable import QuireLSP
import QuireCore

/// Links, from a server run in process: definition, references, hover, link diagnostics, the
/// code actions that create and extract notes, and rename.
@Suite struct LinkFeatureTests {
    static let files = [
        "woody.md": "---\ntitle: Woody Pride\ntags: [toys]\n---\nThe sheriff.\n\n## Hat\nBrown. ^hat-block\n",
        "buzz.md": "---\ntitle: Buzz\n---\nFriend of [[woody]] and [[Woody Pride#Hat]].\n",
        "notes/jessie.md": "---\ntitle: Jessie\n---\nSee [the sheriff](../woody.md).\n",
    ]

    /// Capabilities of a client that applies file creations and renames.
    static let fileOperations = JSON.object([("workspace", .object([("workspaceEdit", .object([
        ("documentChanges", .bool(true)), ("resourceOperations", .array([.string("create"), .string("rename")])),
    ]))]))])

    func start(_ files: [String: String] = files) throws -> LSPClient {
        let client = LSPClient(inProcess: try LSPHarness.vault(files))
        _ = try client.result("initialize", .object([("rootUri", .string(client.root.absoluteString)),
                                                      ("capabilities", Self.fileOperations)]))
        client.notify("initialized")
        return client
    }

    func at(_ client: LSPClient, _ path: String, _ line: Int, _ character: Int) -> JSON {
        .object([("textDocument", .object([("uri", .string(client.uri(path)))])), ("position", LSPClient.position(line, character))])
    }

    @Test func definitionFollowsNotesHeadingsAndBlocks() throws {
        let client = try start()
        let text = "[[woody]] [[Woody Pride#hat]] [[woody#^hat-block]] [[nobody]]\n"
        client.open("new.md", text)
        let note = try client.result("textDocument/definition", at(client, "new.md", 0, 3))
        #expect(note["uri"] == .string(client.uri("woody.md")))
        #expect(note["range"]?["start"]?["line"] == .int(0))
        let heading = try client.result("textDocument/definition", at(client, "new.md", 0, 14))
        #expect(heading["range"]?["start"]?["line"] == .int(6))
        let block = try client.result("textDocument/definition", at(client, "new.md", 0, 35))
        #expect(block["range"]?["start"]?["line"] == .int(7))
        #expect(try client.result("textDocument/definition", at(client, "new.md", 0, 56)) == .null)
        #expect(try client.stop() == 0)
    }

    @Test func referencesAreTheBacklinksIncludingOpenBuffers() throws {
        let client = try start()
        client.open("woody.md", Self.files["woody.md"] ?? "")
        client.open("draft.md", "Unsaved link to [[Woody Pride]].\n")
        let found = try #require(try client.result("textDocument/references", .object([
            ("textDocument", .object([("uri", .string(client.uri("woody.md")))])), ("position", LSPClient.position(4, 0)),
            ("context", .object([("includeDeclaration", .bool(false))])),
        ])).array)
        #expect(found.map { $0["uri"]?.string ?? "" } == [client.uri("buzz.md"), client.uri("buzz.md"), client.uri("draft.md"),
                                                           client.uri("notes/jessie.md")])
        #expect(found[0]["range"] == LSPClient.range((3, 10, 3, 19)))
        #expect(try client.stop() == 0)
    }

    @Test func hoverShowsTitleTagsAndFirstLines() throws {
        let client = try start()
        client.open("new.md", "About [[woody]].\n")
        let hover = try client.result("textDocument/hover", at(client, "new.md", 0, 9))
        let value = try #require(hover["contents"]?["value"]?.string)
        #expect(value.contains("**Woody Pride** — `woody.md`"))
        #expect(value.contains("#toys"))
        #expect(value.contains("The sheriff."))
        #expect(hover["range"] == LSPClient.range((0, 6, 0, 15)))
        #expect(try client.stop() == 0)
    }

    @Test func brokenAmbiguousAndMissingAnchorLinksAreDiagnosed() throws {
        var files = Self.files
        files["a/twin.md"] = "# Twin\n"
        files["b/twin.md"] = "# Twin\n"
        let client = try start(files)
        client.open("new.md", "[[nobody]] [[twin]] [[woody#Boots]] [[woody#Hat]]\n")
        let found = try client.diagnostics("new.md") { $0.count == 3 }
        #expect(found.map { $0["code"] } == [.string("broken-link"), .string("ambiguous-link"), .string("missing-anchor")])
        #expect(found[1]["message"]?.string?.contains("a/twin.md, b/twin.md") == true)
        // Creating the note mends the broken link as soon as the watcher sees it.
        try LSPHarness.write("# Nobody\n", to: client.root.appendingPathComponent("nobody.md"))
        #expect(try client.diagnostics("new.md") { $0.count == 2 }.first?["code"] == .string("ambiguous-link"))
        #expect(try client.stop() == 0)
    }

    /// Heading links as Obsidian writes them (`:` and `?` left out) are no findings, lead to
    /// the heading, and completion inserts that form (the one rule of `NoteAnchors`).
    @Test func obsidianHeadingLinksResolveAndCompleteInObsidiansForm() throws {
        var files = Self.files
        files["faq.md"] = "# FAQ\n## How large can each remote vault be?\n## Part 1: Basics\n"
        let client = try start(files)
        client.open("new.md", "[[faq#Part 1 Basics]] [[faq#How large can each remote vault be]] [[faq#Nope]]\n[[faq#par")
        let found = try client.diagnostics("new.md") { $0.count == 1 }
        #expect(found.first?["message"]?.string?.contains("Nope") == true)
        let heading = try client.result("textDocument/definition", at(client, "new.md", 0, 5))
        #expect(heading["range"]?["start"]?["line"] == .int(2))
        let items = try client.result("textDocument/completion", at(client, "new.md", 1, 9))["items"]?.array ?? []
        #expect(items.first?["textEdit"]?["newText"] == .string("Part 1 Basics]]"))
        #expect(try client.stop() == 0)
    }

    @Test func codeActionsCreateTheNoteOfABrokenLinkAndExtractASelection() throws {
        let client = try start()
        let text = "---\ntitle: Source\n---\nSee [[Big Plan]].\n## Part two\nDetails here.\n"
        client.open("source.md", text)
        let actions = try #require(try client.result("textDocument/codeAction", .object([
            ("textDocument", .object([("uri", .string(client.uri("source.md")))])), ("range", LSPClient.range((3, 6, 3, 6))),
            ("context", .object([("diagnostics", .array([]))])),
        ])).array)
        let create = try #require(actions.first { $0["title"]?.string?.hasPrefix("Create note 'Big Plan'") == true })
        let changes = try #require(create["edit"]?["documentChanges"]?.array)
        #expect(changes.first?["kind"] == .string("create"))
        #expect(changes.first?["uri"] == .string(client.uri("big-plan.md")))
        let content = changes.last?["edits"]?[0]?["newText"]?.string ?? ""
        #expect(content.contains("title: Big Plan\n") && content.contains("createdAt: 2026-11-29T12:00:00+00:00\n"))
        let extract = try #require(try client.result("textDocument/codeAction", .object([
            ("textDocument", .object([("uri", .string(client.uri("source.md")))])), ("range", LSPClient.range((4, 0, 6, 0))),
            ("context", .object([("diagnostics", .array([]))])),
        ])).array?.first { $0["kind"] == .string("refactor.extract") })
        let steps = try #require(extract["edit"]?["documentChanges"]?.array)
        #expect(steps.first?["uri"] == .string(client.uri("part-two.md")))
        #expect(steps[1]["edits"]?[0]?["newText"]?.string?.hasSuffix("---\n## Part two\nDetails here.\n") == true)
        #expect(steps[2]["edits"]?[0]?["newText"] == .string("[[part-two]]"))
        #expect(steps[2]["edits"]?[0]?["range"] == LSPClient.range((4, 0, 6, 0)))
        #expect(try client.stop() == 0)
    }

    @Test func renameOnALinkRenamesTheNoteAndRewritesEveryLinkInItsStyle() throws {
        let client = try start()
        client.open("buzz.md", Self.files["buzz.md"] ?? "")
        let prepared = try client.result("textDocument/prepareRename", at(client, "buzz.md", 3, 13))
        #expect(prepared["placeholder"] == .string("Woody Pride"))
        #expect(prepared["range"] == LSPClient.range((3, 12, 3, 17)))
        let edit = try client.result("textDocument/rename", .object([
            ("textDocument", .object([("uri", .string(client.uri("buzz.md")))])), ("position", LSPClient.position(3, 13)),
            ("newName", .string("Sheriff Woody")),
        ]))
        // The open buffer gets a versioned edit; the closed notes are rewritten and moved by the
        // server itself, as `quire rename` does.
        let changes = try #require(edit["documentChanges"]?.array)
        try #require(changes.count == 1)
        #expect(changes[0]["textDocument"]?["uri"] == .string(client.uri("buzz.md")) && changes[0]["textDocument"]?["version"] == .int(1))
        let buzz = applying(changes[0]["edits"]?.array ?? [], to: Self.files["buzz.md"] ?? "")
        #expect(buzz.contains("Friend of [[sheriff-woody]] and [[Sheriff Woody#Hat]]."))
        let disk = { (path: String) in try? String(contentsOf: client.root.appendingPathComponent(path), encoding: .utf8) }
        #expect(disk("notes/jessie.md")?.contains("[the sheriff](../sheriff-woody.md)") == true)
        #expect(disk("sheriff-woody.md")?.contains("title: Sheriff Woody\n") == true)
        #expect(disk("woody.md") == nil)
        #expect(try client.stop() == 0)
    }

    /// A link typed into an open buffer and not saved is in no file and so in no catalog: the
    /// rename reads the open buffers besides the notes the catalog says link to the note.
    @Test func renameRewritesALinkOnlyAnOpenBufferHolds() throws {
        var files = Self.files
        files["rex.md"] = "---\ntitle: Rex\n---\nA dinosaur.\n"
        let client = try start(files)
        client.open("buzz.md", Self.files["buzz.md"] ?? "")
        let unsaved = "---\ntitle: Rex\n---\nA dinosaur, and [[Woody Pride]].\n"
        client.open("rex.md", unsaved)
        let edit = try client.result("textDocument/rename", .object([
            ("textDocument", .object([("uri", .string(client.uri("buzz.md")))])), ("position", LSPClient.position(3, 13)),
            ("newName", .string("Sheriff Woody")),
        ]))
        let changes = try #require(edit["documentChanges"]?.array)
        let rex = try #require(changes.first { $0["textDocument"]?["uri"] == .string(client.uri("rex.md")) })
        let relinked = applying(rex["edits"]?.array ?? [], to: unsaved)
        #expect(relinked.contains("A dinosaur, and [[Sheriff Woody]]."))
        #expect(try client.stop() == 0)
    }

    @Test func renameOnTheTitleLineRetitlesTheNoteAndItsTitleLinks() throws {
        let client = try start()
        let text = Self.files["woody.md"] ?? ""
        client.open("woody.md", text)
        let prepared = try client.result("textDocument/prepareRename", at(client, "woody.md", 1, 9))
        #expect(prepared["range"] == LSPClient.range((1, 7, 1, 18)))
        // Elsewhere in the body there is nothing to rename.
        #expect(try client.result("textDocument/prepareRename", at(client, "woody.md", 4, 2)) == .null)
        let edit = try client.result("textDocument/rename", .object([
            ("textDocument", .object([("uri", .string(client.uri("woody.md")))])), ("position", LSPClient.position(1, 9)),
            ("newName", .string("Woody")),
        ]))
        let changes = try #require(edit["documentChanges"]?.array)
        let own = try #require(changes.first { $0["textDocument"]?["uri"] == .string(client.uri("woody.md")) })
        // The open buffer's edit carries its version.
        #expect(own["textDocument"]?["version"] == .int(1))
        let retitled = applying(own["edits"]?.array ?? [], to: text)
        #expect(retitled.hasPrefix("---\ntitle: Woody\n"))
        // The file name already fits the new title's slug: no move; a link by the old title follows.
        #expect(!changes.contains { $0["kind"] == .string("rename") })
        // buzz.md is not open: the server rewrote it.
        let relinked = try String(contentsOf: client.root.appendingPathComponent("buzz.md"), encoding: .utf8)
        #expect(relinked.contains("Friend of [[woody]] and [[Woody#Hat]]."))
        #expect(changes.count == 1)
        #expect(try client.stop() == 0)
    }

    /// As `quire rename` without `--force`: a title another note has is refused (the edit
    /// rewrote the links to that other note as paths, in files the rename had nothing to do
    /// with); and a same-note heading link `[[#Hat]]` renames nothing (it retitled and moved
    /// the note it sits in).
    @Test func renameRefusesATakenTitleAndAHeadingOfTheSameNote() throws {
        let client = try start()
        client.open("buzz.md", Self.files["buzz.md"] ?? "")
        let taken = try client.request("textDocument/rename", .object([
            ("textDocument", .object([("uri", .string(client.uri("buzz.md")))])), ("position", LSPClient.position(3, 13)),
            ("newName", .string("jessie")),
        ]))
        #expect(taken["error"]?["message"]?.string?.contains("another note is titled 'Jessie' (notes/jessie.md)") == true,
                "\(taken.rendered(.compact))")
        let text = "---\ntitle: Heads\n---\n# Alpha\n\n## Beta\n\nsee [[#Beta]]\n"
        client.open("heads.md", text)
        #expect(try client.result("textDocument/prepareRename", at(client, "heads.md", 7, 8)) == .null)
        let heading = try client.request("textDocument/rename", .object([
            ("textDocument", .object([("uri", .string(client.uri("heads.md")))])), ("position", LSPClient.position(7, 8)),
            ("newName", .string("Gamma")),
        ]))
        #expect(heading["error"] != nil, "\(heading.rendered(.compact))")
        #expect(try client.stop() == 0)
    }
}
