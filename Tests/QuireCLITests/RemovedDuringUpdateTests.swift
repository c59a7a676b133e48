import Foundation
import Testing

/// A note the sync has just written from the remote, moved or deleted by the user before the
/// sync stages it (found by `chaos.py --daemons`: a daemon's cycle failed with
/// "git_index_add_bypath: could not find …"). The sync succeeds; the next one commits what the
/// user did, and the remote's version stays in history.
@Suite struct RemovedDuringUpdateTests {
    @Test func aNoteRemovedRightAfterTheSyncWroteItIsNoError() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["start.md": noteText("title: Start")])
        try b.write(noteText("title: Fresh", body: "From b.\n"), to: "fresh.md")
        try b.sync()
        let (run, stopped) = try a.runStopping(at: "after-work-tree-writes", ["sync"]) {
            #expect(try a.read("fresh.md").contains("From b."))
            try FileManager.default.moveItem(at: a.vault.url("fresh.md"), to: a.vault.url("moved.md"))
        }
        #expect(stopped)
        #expect(run.code == 0, "\(run.stderr)")
        try a.sync()
        #expect(try a.git(["status", "--porcelain"]).stdout.isEmpty)
        #expect(try world.remoteFile("moved.md")?.contains("From b.") == true)
        #expect(try world.remoteFile("fresh.md") == nil)
        try b.sync()
        #expect(try b.read("moved.md").contains("From b.") && !b.exists("fresh.md"))
    }
}
