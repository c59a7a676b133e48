import Foundation
import Testing

/// Editors' swap, backup and lock files beside notes never enter a sync's commit (nor
/// `quire status`'s uncommitted list), and stay where the editor left them.
@Suite struct EditorScratchSyncTests {
    static let scratch = [".note.md.swp", ".note.md.swo", "note.md~", "4913", ".#note.md", "#note.md#", "Sub/.draft.md.swp",
                          // issue 32: other editors' and vim's other names
                          ".note.md.swx", ".note.md.svz", "5036", "note.md.~1~", ".note.md.kate-swp", ".~lock.report.odt#",
                          "note.md___jb_tmp___", "note.md___jb_old___", ".goutputstream-2X7QF3", "Sub/draft.md.vsctmp"]

    @Test func scratchFilesAreNeverCommitted() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["note.md": noteText("title: Note")])
        for path in Self.scratch { try a.write("scratch\n", to: path) }
        try a.write(noteText("title: Draft"), to: "Sub/draft.md")
        let status = try a.run(["status", "--json"])
        #expect(status.code == 0)
        for path in Self.scratch { #expect(!status.stdout.contains(path), "\(path) listed as uncommitted") }
        try a.sync()
        let tracked = try a.git(["ls-files"]).stdout.split(separator: "\n").map(String.init)
        #expect(tracked.contains("Sub/draft.md"))
        for path in Self.scratch {
            #expect(!tracked.contains(path), "\(path) was committed")
            #expect(a.exists(path), "\(path) was removed")
        }
        let remote = try world.git(["ls-tree", "-r", "--name-only", "main"]).stdout
        for path in Self.scratch { #expect(!remote.contains(path)) }
        // The other device gets the note and none of them.
        let b = try world.clone("b")
        #expect(b.exists("Sub/draft.md"))
        for path in Self.scratch { #expect(!b.exists(path), "\(path) reached the other device") }
    }
}
