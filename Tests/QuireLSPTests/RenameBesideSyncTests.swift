import Foundation
import Testing
@testable import QuireLSP
import QuireCore

/// A rename through `quire lsp` while syncs change the vault, with a second device pushing
/// through a bare remote: the closed notes are rewritten by the server at once, from the files
/// as the last sync left them, so nothing the client applies later is patched blind.
@Suite struct RenameBesideSyncTests {
    static let files = [
        "plan.md": "---\ntitle: Plan\n---\nThe plan.\n",
        "notes.md": "---\ntitle: Notes\n---\nsee [[plan]] and more\nline two\n",
    ]

    /// Applies a `WorkspaceEdit` as an editor does: edits of an open buffer (by path) only at the
    /// version they name, edits of a file not open to the file as it is now, renames of an open
    /// document by writing its buffer at the new path; returns the buffers after.
    func applyAsEditor(_ edit: JSON, client: LSPClient, buffers: [String: (text: String, version: Int)]) throws
        -> [String: (text: String, version: Int)] {
        var buffers = buffers
        let path = { (uri: String?) in try #require(uri.flatMap { URL(string: $0) }.map { String($0.path.dropFirst(client.root.path.count + 1)) }) }
        for change in edit["documentChanges"]?.array ?? [] {
            if change["kind"] == .string("rename") {
                let (from, to) = (try path(change["oldUri"]?.string), try path(change["newUri"]?.string))
                let buffer = try #require(buffers[from], "a rename of \(from), which is not open")
                buffers[from] = nil
                try LSPHarness.write(buffer.text, to: client.root.appendingPathComponent(to))
                try FileManager.default.removeItem(at: client.root.appendingPathComponent(from))
                buffers[to] = buffer
                continue
            }
            let file = try path(change["textDocument"]?["uri"]?.string)
            let edits = change["edits"]?.array ?? []
            if let buffer = buffers[file] {
                try #require(change["textDocument"]?["version"] == .int(buffer.version))
                buffers[file] = (applying(edits, to: buffer.text), buffer.version + 1)
            } else {
                let url = client.root.appendingPathComponent(file)
                let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
                try LSPHarness.write(applying(edits, to: text), to: url)
            }
        }
        return buffers
    }

    @Test func aRenameRightAfterASyncRewritesEveryLinkAndALaterSyncCutsNone() throws {
        let (laptop, desktop, _) = try LSPHarness.twoDevices(Self.files)
        let client = try LSPClient(root: laptop)
        try client.initialize(workspace: LSPHarness.renamingWorkspace)
        client.open("plan.md", Self.files["plan.md"] ?? "")
        // Another device links the note from a new one; the rename comes right after the sync.
        try LSPHarness.write("---\ntitle: Extra\n---\nalso [[plan]]\n", to: desktop.appendingPathComponent("extra.md"))
        try #require(try LSPHarness.quire(["sync"], in: desktop, environment: LSPHarness.desktopEnvironment) == 0)
        try #require(try LSPHarness.quire(["sync"], in: laptop) == 0)
        // And a note written a moment before the request (a `git pull`, another program): the
        // server's watcher has not reported it yet.
        try LSPHarness.write("---\ntitle: Late\n---\nlate [[plan]]\n", to: laptop.appendingPathComponent("late.md"))
        let edit = try client.result("textDocument/rename", .object([
            ("textDocument", .object([("uri", .string(client.uri("plan.md")))])), ("position", LSPClient.position(1, 9)),
            ("newName", .string("Road map")),
        ]))

        // Before the editor applies the answer, a sync brings a line inserted above a link, and
        // a linking note moved into a folder.
        try LSPHarness.write("---\ntitle: Notes\n---\ninserted line\nsee [[plan]] and more\nline two\n",
                             to: desktop.appendingPathComponent("notes.md"))
        try #require(try LSPHarness.quire(["mv", "extra.md", "archive"], in: desktop, environment: LSPHarness.desktopEnvironment) == 0)
        try #require(try LSPHarness.quire(["sync"], in: desktop, environment: LSPHarness.desktopEnvironment) == 0)
        try #require(try LSPHarness.quire(["sync"], in: laptop) == 0)
        let buffers = try applyAsEditor(edit, client: client, buffers: ["plan.md": (Self.files["plan.md"] ?? "", 1)])
        let renamed = try #require(buffers["road-map.md"], "\(buffers.keys)")
        client.notify("textDocument/didClose", .object([("textDocument", .object([("uri", .string(client.uri("plan.md")))]))]))
        client.open("road-map.md", renamed.text)
        _ = try client.save("road-map.md", renamed.text, version: 2)

        try #require(try LSPHarness.quire(["sync"], in: laptop) == 0)
        try #require(try LSPHarness.quire(["sync"], in: desktop, environment: LSPHarness.desktopEnvironment) == 0)
        for device in [laptop, desktop] {
            let read = { (path: String) in try? String(contentsOf: device.appendingPathComponent(path), encoding: .utf8) }
            // (Its updatedAt is the sync's stamp of the desktop's edit, from the file's time.)
            #expect(read("notes.md")?.hasSuffix("\n---\ninserted line\nsee [[road-map]] and more\nline two\n") == true)
            #expect(read("archive/extra.md")?.contains("also [[road-map]]") == true)
            #expect(read("extra.md") == nil)
            #expect(read("late.md")?.contains("late [[road-map]]") == true)
            #expect(read("road-map.md")?.contains("title: Road map") == true)
            #expect(read("plan.md") == nil)
        }
        #expect(try client.stop() == 0)
    }
}
