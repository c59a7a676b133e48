import Foundation
import Testing
@testable import QuireLSP
import QuireCore

/// Completion, from a server run in process (`LSPClient(inProcess:)`): notes after `[[`, headings after `[[Note#`, tags,
/// front-matter keys and values.
@Suite struct CompletionTests {
    static let files = [
        "woody.md": "---\ntitle: Woody Pride\naliases: [Sheriff]\ntags: [toys, cowboys]\nproject: Toy Story 5\nmood: 4\n---\n# Woody\n## Hat\n## Boots\n",
        "space/buzz.md": "---\ntitle: Buzz Lightyear\ntags: [toys, space]\nproject: Toy Story 5\n---\n",
        "jessie.md": "---\ntitle: Jessie\ntags: [cowboys]\nproject: Round-up\nmood: 5\n---\n",
    ]

    func complete(_ client: LSPClient, _ path: String, _ line: Int, _ character: Int) throws -> [JSON] {
        let result = try client.result("textDocument/completion", .object([
            ("textDocument", .object([("uri", .string(client.uri(path)))])), ("position", LSPClient.position(line, character)),
        ]))
        return result["items"]?.array ?? []
    }

    @Test func linksCompleteByTitleAliasAndPathFuzzily() throws {
        let client = LSPClient(inProcess: try LSPHarness.vault(Self.files))
        try client.initialize()
        client.open("new.md", "See [[shrf]] and [[buzz")
        let byAlias = try complete(client, "new.md", 0, 10)
        #expect(byAlias.first?["label"] == .string("Woody Pride"))
        #expect(byAlias.first?["filterText"] == .string("[[Sheriff"))
        // The typed text and the closing brackets the editor added are replaced.
        #expect(byAlias.first?["textEdit"]?["newText"] == .string("[[woody]]"))
        #expect(byAlias.first?["textEdit"]?["range"] == LSPClient.range((0, 4, 0, 12)))
        let byTitle = try complete(client, "new.md", 0, 23)
        #expect(byTitle.first?["textEdit"]?["newText"] == .string("[[buzz]]"))
        #expect(byTitle.first?["detail"] == .string("space/buzz.md"))
        #expect(try client.stop() == 0)
    }

    /// `café.md` precomposed and decomposed side by side are two notes, each completed with its
    /// own path (they were one entry of the server's directory: Swift compares them equal).
    @Test func namesEqualUnderNormalizationAreTwoNotes() throws {
        let composed = "caf\u{E9}.md"
        let decomposed = "cafe\u{301}.md"
        // Two files, though one key to a Swift dictionary.
        let root = try LSPHarness.vault([composed: "---\ntitle: Composed\n---\n"])
        try LSPHarness.write("---\ntitle: Decomposed\n---\n", to: root.appendingPathComponent(decomposed))
        let client = LSPClient(inProcess: root)
        try client.initialize()
        client.open("new.md", "[[Composed\n[[Decomposed")
        func detail(_ items: [JSON]) -> [UInt8]? {
            if case .string(let path)? = items.first?["detail"] { return Array(path.utf8) }
            return nil
        }
        let first = try complete(client, "new.md", 0, 10)
        #expect(first.first?["label"] == .string("Composed"))
        #expect(detail(first) == Array(composed.utf8))
        let second = try complete(client, "new.md", 1, 12)
        #expect(second.first?["label"] == .string("Decomposed"))
        #expect(detail(second) == Array(decomposed.utf8))
        #expect(try client.stop() == 0)
    }

    @Test func headingsCompleteAfterTheNoteAndHash() throws {
        let client = LSPClient(inProcess: try LSPHarness.vault(Self.files))
        try client.initialize()
        client.open("new.md", "[[Woody Pride#bo")
        let items = try complete(client, "new.md", 0, 16)
        #expect(items.map { $0["label"] } == [.string("Boots")])
        #expect(items.first?["textEdit"]?["newText"] == .string("Boots]]"))
        #expect(items.first?["textEdit"]?["range"] == LSPClient.range((0, 14, 0, 16)))
        #expect(try client.stop() == 0)
    }

    /// Completing inside an existing link replaces its whole target (the old tail stayed behind
    /// the new link) and keeps its label; `[[#` offers the note's own headings; nothing is
    /// offered in code, where quire reads no link or tag; a link in a front-matter value
    /// A fence inside a list item or a block quote is code for completion as for quire.
    @Test func codeInsideListItemsAndQuotesIsCode() {
        let text = "- item\n\n  ```\n  [[in code\n  ```\n> ```\n> #quoted\n> ```\n> [[text\n"
        let document = TextDocument(text: text, version: 1, encoding: .utf8)
        func offset(of needle: String) -> Int {
            text.utf8.count - (text.range(of: needle).map { text[$0.upperBound...].utf8.count } ?? 0)
        }
        #expect(LanguageServer.isInCode(document, offset(of: "[[in")))
        #expect(LanguageServer.isInCode(document, offset(of: "#quo")))
        #expect(!LanguageServer.isInCode(document, offset(of: "[[tex")))
    }

    /// completes like one in the body.
    @Test func completionInsideLinksInCodeAndInFrontMatter() throws {
        let client = LSPClient(inProcess: try LSPHarness.vault(Self.files))
        try client.initialize()
        client.open("new.md", "---\nrelated: \"[[Wood\n---\nSee [[Wo]] now.\nSee [[Woody|the cowboy]] now.\n# Alpha\n## Beta\nsee [[#\n"
                    + "```\nx = a[[Wo\ny = 1 #toy\n```\n`[[Wo`\n`x` and #co\n")
        let inside = try complete(client, "new.md", 3, 8)
        #expect(inside.first?["textEdit"]?["newText"] == .string("[[woody]]"))
        #expect(inside.first?["textEdit"]?["range"] == LSPClient.range((3, 4, 3, 10)))
        let labelled = try complete(client, "new.md", 4, 9)
        #expect(labelled.first?["textEdit"]?["newText"] == .string("[[woody"))
        #expect(labelled.first?["textEdit"]?["range"] == LSPClient.range((4, 4, 4, 11)))
        #expect(try complete(client, "new.md", 7, 7).map { $0["label"] } == [.string("Alpha"), .string("Beta")])
        // `[[` typed before text that holds a `#` but no `]]`: nothing after the cursor is replaced.
        client.open("typed.md", "Meet [[Wo and more #work\n")
        #expect(try complete(client, "typed.md", 0, 9).first?["textEdit"]?["range"] == LSPClient.range((0, 5, 0, 9)))
        #expect(try complete(client, "new.md", 9, 10).isEmpty)
        #expect(try complete(client, "new.md", 10, 10).isEmpty)
        #expect(try complete(client, "new.md", 12, 5).isEmpty)
        #expect(try !complete(client, "new.md", 13, 11).isEmpty, "a tag after a code span completes")
        #expect(try complete(client, "new.md", 1, 15).first?["label"] == .string("Woody Pride"))
        #expect(try client.stop() == 0)
    }

    @Test func tagsCompleteAfterAHash() throws {
        let client = LSPClient(inProcess: try LSPHarness.vault(Self.files))
        try client.initialize()
        client.open("new.md", "# Heading\nA note about #cow")
        let items = try complete(client, "new.md", 1, 17)
        #expect(items.map { $0["label"] } == [.string("cowboys")])
        #expect(items.first?["textEdit"]?["range"] == LSPClient.range((1, 14, 1, 17)))
        // A heading mark is no tag.
        #expect(try complete(client, "new.md", 0, 1).isEmpty)
        #expect(try client.stop() == 0)
    }

    @Test func frontMatterKeysAndUsedValuesComplete() throws {
        let client = LSPClient(inProcess: try LSPHarness.vault(Self.files))
        try client.initialize()
        client.open("new.md", "---\ntitle: New\nalia\nproject: \nmood: \ntags:\n  - co\n---\n")
        let keys = try complete(client, "new.md", 2, 4)
        #expect(keys.first?["label"] == .string("aliases"))
        #expect(keys.first?["textEdit"]?["newText"] == .string("aliases: "))
        // A key the note already has is not offered again.
        #expect(!(try complete(client, "new.md", 2, 0)).contains { $0["label"] == .string("title") })
        let projects = try complete(client, "new.md", 3, 9)
        #expect(projects.map { $0["label"] } == [.string("Toy Story 5"), .string("Round-up")])
        let moods = try complete(client, "new.md", 4, 6)
        #expect(moods.compactMap { $0["label"]?.string } == ["4", "5", "1", "2", "3"], "in use first, then quire's")
        let tags = try complete(client, "new.md", 6, 6)
        #expect(tags.map { $0["label"] } == [.string("cowboys")])
        #expect(tags.first?["textEdit"]?["range"] == LSPClient.range((6, 4, 6, 6)))
        // The value being typed is no value used: it was offered back ("Zu — used in 1 note").
        client.open("typing.md", "---\nproject: Zu\n---\n")
        #expect(try complete(client, "typing.md", 1, 11).isEmpty)
        #expect(try client.stop() == 0)
    }

    /// On an empty line: the keys the note lacks, quire's own first (in their order, each saying
    /// what it holds), then those other notes use; never those quire stamps itself. After a
    /// key: the values in use for it, then quire's possible ones.
    @Test func frontMatterOffersTheKeysTheNoteLacksAndTheValuesInUse() throws {
        var files = Self.files
        files["review.md"] = "---\nid: 44440000-0000-4000-8000-000000000001\ntitle: Review\nreviewer: Pete\nstatus: done\n"
            + "updatedAt: 2026-01-01T00:00:00Z\n---\n"
        let client = LSPClient(inProcess: try LSPHarness.vault(files))
        try client.initialize()
        client.open("bare.md", "---\ntitle: Bare\nstatus: open\n\n---\n")
        let items = try complete(client, "bare.md", 3, 0)
        let offered = items.compactMap { $0["label"]?.string }
        #expect(offered == ["tags", "project", "draft", "pinned", "color", "mood", "aliases", "priority", "reviewer"], "\(offered)")
        #expect(items.first?["detail"] == .string("quire key: a list of tags, without #; used in 3 notes"))
        #expect(items.first?["sortText"] == .string("0000"))
        #expect(items[3]["detail"] == .string("quire key: true or false: listed first; not used yet"))
        #expect(items.last?["detail"] == .string("used in 1 note"))
        // Typed letters rank the best match first.
        client.open("typed.md", "---\nrev\n---\n")
        #expect(try complete(client, "typed.md", 1, 3).first?["label"] == .string("reviewer"))

        client.open("values.md", "---\ndraft: \nreviewer: \nmood: \n---\n")
        #expect(try complete(client, "values.md", 1, 7).compactMap { $0["label"]?.string } == ["true", "false"])
        #expect(try complete(client, "values.md", 2, 10).compactMap { $0["label"]?.string } == ["Pete"])
        #expect(try complete(client, "values.md", 3, 6).compactMap { $0["label"]?.string } == ["4", "5", "1", "2", "3"])
        #expect(try client.stop() == 0)
    }
}
