import Foundation
import Testing
@testable import QuireLSP
import QuireCore

/// An open buffer and a sync that changes its file under it, with `quire lsp` on the laptop and
/// a second device pushing through a bare remote: the incoming change is merged into the
/// buffer, so saving the buffer never undoes it.
@Suite struct OpenBufferSyncTests {
    static let plan = "---\ntitle: Plan\nupdatedAt: 2026-11-01T10:00:00+00:00\n---\nLine one.\nLine two.\nLine three.\n"

    /// The desktop rewrites plan.md with `edit`, dates it 2026-11-20 and syncs; then the laptop
    /// syncs (a fast-forward: the laptop's edit is only in the editor's buffer).
    func desktopChangesPlan(laptop: URL, desktop: URL, _ edit: (String) -> String) throws {
        let text = edit(Self.plan).replacingOccurrences(of: "2026-11-01T10:00:00", with: "2026-11-20T10:00:00")
        try LSPHarness.write(text, to: desktop.appendingPathComponent("plan.md"))
        try #require(try LSPHarness.quire(["sync"], in: desktop, environment: LSPHarness.desktopEnvironment) == 0)
        try #require(try LSPHarness.quire(["sync"], in: laptop) == 0)
        #expect(try String(contentsOf: laptop.appendingPathComponent("plan.md"), encoding: .utf8) == text)
    }

    @Test func anIncomingChangeIsMergedIntoTheOpenBufferAndTheSaveKeepsIt() throws {
        let (laptop, desktop, _) = try LSPHarness.twoDevices(["plan.md": Self.plan])
        let client = try LSPClient(root: laptop)
        try client.initialize(workspace: .object([("applyEdit", .bool(true))]))
        client.open("plan.md", Self.plan)
        client.change("plan.md", version: 2, range: (4, 5, 4, 8), text: "uno")  // "Line uno.", unsaved
        var buffer = Self.plan.replacingOccurrences(of: "Line one.", with: "Line uno.")
        try desktopChangesPlan(laptop: laptop, desktop: desktop) {
            $0.replacingOccurrences(of: "Line three.", with: "Line three, from the desktop.")
        }

        let apply = try client.wait { $0["method"]?.string == "workspace/applyEdit" }
        let change = try #require(apply["params"]?["edit"]?["documentChanges"]?[0])
        #expect(change["textDocument"]?["version"] == .int(2))
        // As an editor does: the buffer's change is reported, then the answer.
        buffer = applying(try #require(change["edits"]?.array), to: buffer)
        client.replace("plan.md", version: 3, text: buffer)
        client.answer(apply, .object([("applied", .bool(true))]))
        #expect(buffer.contains("Line uno.") && buffer.contains("Line three, from the desktop."))
        #expect(buffer.contains("updatedAt: 2026-11-20T10:00:00+00:00"))

        let saved = try client.save("plan.md", buffer, version: 4)
        #expect(saved.contains("updatedAt: 2026-11-29T12:00:00+00:00"))
        try #require(try LSPHarness.quire(["sync"], in: laptop) == 0)
        try #require(try LSPHarness.quire(["sync"], in: desktop, environment: LSPHarness.desktopEnvironment) == 0)
        let final = try String(contentsOf: desktop.appendingPathComponent("plan.md"), encoding: .utf8)
        #expect(final == saved)
        #expect(final.contains("Line uno.") && final.contains("Line three, from the desktop."))
        #expect(try client.stop() == 0)
    }

    @Test func withoutApplyEditTheSaveMergesAndACollisionIsListedOnEveryDevice() throws {
        let (laptop, desktop, _) = try LSPHarness.twoDevices(["plan.md": Self.plan])
        let client = try LSPClient(root: laptop)
        try client.initialize()
        client.open("plan.md", Self.plan)
        client.change("plan.md", version: 2, range: (4, 5, 4, 8), text: "uno")
        let buffer = Self.plan.replacingOccurrences(of: "Line one.", with: "Line uno.")
        try desktopChangesPlan(laptop: laptop, desktop: desktop) {
            $0.replacingOccurrences(of: "Line one.", with: "Line eins.")
                .replacingOccurrences(of: "Line three.", with: "Line three, from the desktop.")
        }

        // The buffer's words win the collision (an unsaved edit exists nowhere else); the rest of
        // the desktop's change is kept, and updatedAt moves forward.
        let saved = try client.save("plan.md", buffer, version: 3)
        #expect(saved.contains("Line uno.") && !saved.contains("Line eins.") && saved.contains("Line three, from the desktop."))
        #expect(saved.contains("updatedAt: 2026-11-29T12:00:00+00:00"))
        let told = try client.wait { $0["method"]?.string == "window/showMessage" }
        #expect(told["params"]?["message"]?.string?.contains("plan.md") == true)

        try #require(try LSPHarness.quire(["sync"], in: laptop) == 0)
        try #require(try LSPHarness.quire(["sync"], in: desktop, environment: LSPHarness.desktopEnvironment) == 0)
        #expect(try String(contentsOf: desktop.appendingPathComponent("plan.md"), encoding: .utf8) == saved)
        for (device, environment) in [(laptop, [String: String]()), (desktop, LSPHarness.desktopEnvironment)] {
            let listed = try LSPHarness.output(LSPHarness.binary.path, ["conflicts", "--json"], in: device, environment: environment)
            let conflicts = try JSON.parse(Array(listed.output.utf8)).array ?? []
            let conflict = try #require(conflicts.first { $0["path"] == .string("plan.md") }, "\(listed.output)")
            #expect(conflict["lost"]?.string?.contains("eins") == true)
        }
        #expect(try client.stop() == 0)
    }

    static let noteWithID = "---\nid: 0b8f0c5e-8a0e-4c57-9d36-3f4a3c7d2e11\ntitle: Plan\nupdatedAt: 2026-11-01T10:00:00+00:00\n---\n"
        + "Line one.\nLine two.\n"

    /// The desktop renames plan.md to "Road map" and syncs, then the laptop syncs; the note's new path.
    func desktopRenamesPlan(laptop: URL, desktop: URL) throws -> String {
        try #require(try LSPHarness.quire(["rename", "plan.md", "Road map"], in: desktop, environment: LSPHarness.desktopEnvironment) == 0)
        try #require(try LSPHarness.quire(["sync"], in: desktop, environment: LSPHarness.desktopEnvironment) == 0)
        try #require(try LSPHarness.quire(["sync"], in: laptop) == 0)
        #expect(!FileManager.default.fileExists(atPath: laptop.appendingPathComponent("plan.md").path))
        let names = try FileManager.default.contentsOfDirectory(atPath: laptop.path).filter { $0.hasSuffix(".md") }
        return try #require(names.first, "no note on the laptop: \(names)")
    }

    /// The removal of the buffer's file and the note's new file reach the server in two batches,
    /// the removal first: the buffer still follows the note.
    @Test func theOpenNoteFollowsItsNoteWhenTheNewFileComesAfterTheRemoval() throws {
        let vault = try LSPHarness.vault(["plan.md": Self.noteWithID])
        let client = LSPClient(inProcess: vault)
        try client.initialize(workspace: LSPHarness.renamingWorkspace)
        client.open("plan.md", Self.noteWithID)
        _ = try client.diagnostics("plan.md")
        try FileManager.default.removeItem(at: vault.appendingPathComponent("plan.md"))
        _ = try client.diagnostics("plan.md")  // published after the watcher's batch of the removal
        try LSPHarness.write(Self.noteWithID.replacingOccurrences(of: "title: Plan", with: "title: Road map"),
                             to: vault.appendingPathComponent("road-map.md"))
        let apply = try client.wait { $0["method"]?.string == "workspace/applyEdit" }
        let changes = try #require(apply["params"]?["edit"]?["documentChanges"]?.array)
        #expect(changes.last?["kind"] == .string("rename") && changes.last?["newUri"] == .string(client.uri("road-map.md")))
        client.answer(apply, .object([("applied", .bool(false))]))
        #expect(try client.stop() == 0)
    }

    @Test func theOpenNoteFollowsAnIncomingRenameAndTheSaveMakesNoSecondNote() throws {
        let (laptop, desktop, _) = try LSPHarness.twoDevices(["plan.md": Self.noteWithID])
        let client = try LSPClient(root: laptop)
        try client.initialize(workspace: LSPHarness.renamingWorkspace)
        client.open("plan.md", Self.noteWithID)
        client.change("plan.md", version: 2, range: (5, 5, 5, 8), text: "uno")
        var buffer = Self.noteWithID.replacingOccurrences(of: "Line one.", with: "Line uno.")
        let moved = try desktopRenamesPlan(laptop: laptop, desktop: desktop)

        // The buffer takes the renamed note's text in, then moves onto its path.
        let apply = try client.wait { $0["method"]?.string == "workspace/applyEdit" }
        let changes = try #require(apply["params"]?["edit"]?["documentChanges"]?.array)
        try #require(changes.count == 2)
        #expect(changes[0]["textDocument"]?["version"] == .int(2))
        #expect(changes[1]["kind"] == .string("rename") && changes[1]["oldUri"] == .string(client.uri("plan.md"))
            && changes[1]["newUri"] == .string(client.uri(moved)))
        buffer = applying(try #require(changes[0]["edits"]?.array), to: buffer)
        #expect(buffer.contains("Line uno.") && buffer.contains("title: Road map"))
        // The editor moves the buffer as VS Code does: the old document closed, the new one
        // opened; then it answers.
        client.notify("textDocument/didClose", .object([("textDocument", .object([("uri", .string(client.uri("plan.md")))]))]))
        client.open(moved, buffer)
        client.answer(apply, .object([("applied", .bool(true))]))
        let saved = try client.save(moved, buffer, version: 2)

        try #require(try LSPHarness.quire(["sync"], in: laptop) == 0)
        try #require(try LSPHarness.quire(["sync"], in: desktop, environment: LSPHarness.desktopEnvironment) == 0)
        // (The sync stamps the saved file again from its modification time: the save's stamp
        // equals the rename's, so the sync cannot tell the edit from it.)
        let final = try String(contentsOf: desktop.appendingPathComponent(moved), encoding: .utf8)
        #expect(final.contains("Line uno.") && final.contains("title: Road map") && saved.contains("Line uno."))
        for device in [laptop, desktop] {
            #expect(!FileManager.default.fileExists(atPath: device.appendingPathComponent("plan.md").path))
            #expect(try String(contentsOf: device.appendingPathComponent(moved), encoding: .utf8) == final)
        }
        #expect(try client.stop() == 0)
    }

    @Test func anEditorWithoutFileRenamesIsToldAndTheOldPathIsNeverStampedAsANewNote() throws {
        let (laptop, desktop, _) = try LSPHarness.twoDevices(["plan.md": Self.noteWithID])
        let client = try LSPClient(root: laptop)
        try client.initialize(workspace: .object([("applyEdit", .bool(true))]))
        client.open("plan.md", Self.noteWithID)
        client.change("plan.md", version: 2, range: (5, 5, 5, 8), text: "uno")
        let moved = try desktopRenamesPlan(laptop: laptop, desktop: desktop)
        let told = try client.wait { $0["method"]?.string == "window/showMessage" }
        #expect(told["params"]?["message"]?.string?.contains("plan.md was renamed to \(moved)") == true)
        let edits = try client.result("textDocument/willSaveWaitUntil", .object([
            ("textDocument", .object([("uri", .string(client.uri("plan.md")))])), ("reason", .int(1)),
        ]))
        #expect(edits == .array([]))
        #expect(try client.stop() == 0)
    }
}
