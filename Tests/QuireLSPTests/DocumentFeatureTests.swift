import Foundation
import Testing
@testable import QuireLSP
import QuireCore

/// Diagnostics, stamping at save, symbols and the live catalog, from a server run in process.
@Suite struct DocumentFeatureTests {
    static let idA = "0b7f2a4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b"

    @Test func brokenFrontMatterIsDiagnosedAtLibyamlsPositionAsTheUserTypes() throws {
        let text = "---\ntitle: Woody\ntags: [a, b\n---\nBody.\n"
        let client = LSPClient(inProcess: try LSPHarness.vault(["woody.md": text]))
        try client.initialize()
        client.open("woody.md", text)
        let broken = try client.diagnostics("woody.md") { !$0.isEmpty }
        let first = try #require(broken.first)
        #expect(first["code"] == .string("front-matter"))
        #expect(first["severity"] == .int(1))
        #expect(first["message"]?.string?.hasPrefix("invalid yaml") == true)
        // libyaml stops at the fence line after the unclosed flow sequence.
        #expect(first["range"]?["start"]?["line"]?.int == 3)
        // Typing the missing bracket mends it.
        client.change("woody.md", version: 2, range: (2, 11, 2, 11), text: "]")
        #expect(try client.diagnostics("woody.md") { $0.isEmpty }.isEmpty)
        #expect(try client.stop() == 0)
    }

    /// Typing in one note checks that note again, and the other open notes only when what their
    /// links resolve to changed (a heading here): every keystroke checked every open note (a
    /// fifth of a second per key with ten long notes open).
    @Test func aKeystrokeChecksOtherOpenNotesOnlyWhenTheirLinksCanChange() throws {
        let a = "---\ntitle: A\n---\n# Start\nbody\n"
        let b = "---\ntitle: B\n---\nsee [[A#Start]] and [[A#End]]\n"
        let client = LSPClient(inProcess: try LSPHarness.vault(["a.md": a, "b.md": b]))
        try client.initialize()
        client.open("a.md", a)
        client.open("b.md", b)
        #expect(try client.diagnostics("b.md") { $0.count == 1 }.count == 1)  // [[A#End]] leads nowhere yet
        func published(_ path: String) -> Int {
            var count = 0
            while (try? client.diagnostics(path, timeout: 0.3)) != nil { count += 1 }
            return count
        }
        _ = published("a.md")
        _ = published("b.md")
        client.change("a.md", version: 2, range: (4, 4, 4, 4), text: " more")
        _ = try client.result("workspace/symbol", .object([("query", .string("zzz"))]))
        #expect(published("a.md") == 1)
        #expect(published("b.md") == 0)
        client.change("a.md", version: 3, range: (4, 0, 4, 0), text: "# End\n")
        #expect(try client.diagnostics("b.md") { $0.isEmpty }.isEmpty, "the heading mends b's link")
        #expect(try client.stop() == 0)
    }

    @Test func aDuplicateIDIsDiagnosedOnTheIdLine() throws {
        let client = LSPClient(inProcess: try LSPHarness.vault([
            "a.md": "---\nid: \(Self.idA)\ntitle: A\n---\n", "b.md": "---\ntitle: B\n---\n",
        ]))
        try client.initialize()
        let text = "---\ntitle: B\nid: \(Self.idA.uppercased())\n---\n"
        client.open("b.md", text)
        let found = try client.diagnostics("b.md") { !$0.isEmpty }
        #expect(found.first?["code"] == .string("duplicate-id"))
        #expect(found.first?["range"]?["start"]?["line"] == .int(2))
        #expect(found.first?["message"]?.string?.contains("a.md") == true)
        #expect(try client.stop() == 0)
    }

    @Test func willSaveStampsUpdatedAtInTheNotesOwnFormat() throws {
        let original = "---\ntitle: Buzz\nupdated: 1700000000000 # dendron ms\ncreated: 1690000000000\n---\nOld body.\n"
        let vault = try LSPHarness.vault(["buzz.md": original])
        let client = LSPClient(inProcess: vault)
        try client.initialize()
        client.open("buzz.md", original)
        let document = JSON.object([("textDocument", .object([("uri", .string(client.uri("buzz.md")))])), ("reason", .int(1))])
        // Nothing changed yet: nothing to stamp.
        #expect(try client.result("textDocument/willSaveWaitUntil", document) == .array([]))
        client.change("buzz.md", version: 2, range: (5, 0, 5, 3), text: "New")
        let edits = try #require(try client.result("textDocument/willSaveWaitUntil", document).array)
        try #require(edits.count == 1)
        // Epoch milliseconds stay epoch milliseconds (QUIRE_NOW = 2026-11-29T12:00:00Z), the
        // comment stays; the edit touches only the digits that differ.
        let saved = applying(edits, to: original.replacingOccurrences(of: "Old", with: "New"))
        #expect(saved == original.replacingOccurrences(of: "Old", with: "New")
            .replacingOccurrences(of: "1700000000000", with: "1795953600000"))
        #expect(edits[0]["range"]?["start"]?["line"] == .int(2))
        #expect(try client.stop() == 0)
    }

    @Test func willSaveGivesANewNoteItsIdAndDates() throws {
        let client = LSPClient(inProcess: try LSPHarness.vault())
        try client.initialize()
        client.open("ideas/new.md", "# New idea\n")
        let document = JSON.object([("textDocument", .object([("uri", .string(client.uri("ideas/new.md")))])), ("reason", .int(1))])
        let edits = try #require(try client.result("textDocument/willSaveWaitUntil", document).array)
        try #require(edits.count == 1)
        #expect(edits[0]["range"] == LSPClient.range((0, 0, 0, 0)))
        let inserted = try #require(edits[0]["newText"]?.string)
        let lines = inserted.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines.first == "---" && lines.last == "---")
        #expect(lines[1].hasPrefix("id: ") && lines[1].count == 40)
        #expect(lines[2] == "createdAt: 2026-11-29T12:00:00+00:00")
        #expect(lines[3] == "updatedAt: 2026-11-29T12:00:00+00:00")
        #expect(try client.stop() == 0)
    }

    @Test func documentAndWorkspaceSymbols() throws {
        let text = "---\ntitle: Toys\n---\n# Toys\n## Woody\n```\n# not a heading\n```\n### Hat\n## Buzz ##\n"
        let client = LSPClient(inProcess: try LSPHarness.vault(["toys.md": text, "other/buzz-lightyear.md": "---\ntitle: Buzz Lightyear\n---\n"]))
        try client.initialize()
        client.open("toys.md", text)
        let symbols = try #require(try client.result("textDocument/documentSymbol", .object([
            ("textDocument", .object([("uri", .string(client.uri("toys.md")))])),
        ])).array)
        #expect(symbols.map { $0["name"] } == [.string("Toys")])
        let children = symbols.first?["children"]?.array ?? []
        #expect(children.map { $0["name"] } == [.string("Woody"), .string("Buzz")])
        #expect(children.first?["children"]?[0]?["name"] == .string("Hat"))
        #expect(children.first?["range"]?["end"]?["line"] == .int(8))
        let notes = try #require(try client.result("workspace/symbol", .object([("query", .string("buzz"))])).array)
        #expect(notes.first?["name"] == .string("Buzz Lightyear"))
        #expect(notes.first?["location"]?["uri"] == .string(client.uri("other/buzz-lightyear.md")))
        #expect(notes.first?["containerName"] == .string("other"))
        #expect(try client.stop() == 0)
    }

    @Test func theCatalogFollowsFilesChangedByOthers() throws {
        let vault = try LSPHarness.vault(["a.md": "---\ntitle: Alpha\n---\n"])
        let client = LSPClient(inProcess: vault)
        try client.initialize()
        #expect(try client.result("workspace/symbol", .object([("query", .string("zeta"))])) == .array([]))
        try LSPHarness.write("---\ntitle: Zeta Note\n---\n", to: vault.appendingPathComponent("later/z.md"))
        // The watcher delivers within a fraction of a second; ask until it has.
        var found: [JSON] = []
        for _ in 0..<100 where found.isEmpty {
            found = try client.result("workspace/symbol", .object([("query", .string("zeta"))])).array ?? []
            if found.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(found.first?["name"] == .string("Zeta Note"))
        try FileManager.default.removeItem(at: vault.appendingPathComponent("a.md"))
        var gone = false
        for _ in 0..<100 where !gone {
            gone = try client.result("workspace/symbol", .object([("query", .string("alpha"))])) == .array([])
            if !gone { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(gone)
        #expect(try client.stop() == 0)
    }
}
