import Foundation
import Testing

/// A push that loses a race on a smart server: device `a` connects and reads the branch, `b`'s push
/// lands, then `a`'s update arrives with the old value. git's receive-pack refuses it ("cannot lock
/// ref … is at X but expected Y"). That is a non-fast-forward in effect: `a` fetches, merges and
/// pushes again in the same sync. It was taken for the server's own refusal: `quire sync` exited 6
/// and the daemon backed off for 40 s.
@Suite struct SyncPushRaceTests {
    @Test func aPushThatLostARaceOnAGitDaemonIsMergedAndPushedAgain() throws {
        let server = try GitServer.start("daemon")
        defer { server.stop() }
        let bare = try server.makeRepository()
        let world = try SyncWorld(bare: bare, url: server.baseURL + "vault.git")
        let (a, b) = try world.pair(["one.md": note("n1", title: "One", updated: "2026-11-29T10:00:00Z", body: "base\n"),
                                     "two.md": note("n2", title: "Two", updated: "2026-11-29T10:00:00Z", body: "base\n")])
        try a.write(note("n1", title: "One", updated: "2026-11-29T11:00:00Z", body: "base\nfrom a\n"), to: "one.md")
        try b.write(note("n2", title: "Two", updated: "2026-11-29T11:00:00Z", body: "base\nfrom b\n"), to: "two.md")
        // `a` stops once its push has connected and read the branch; `b` pushes meanwhile.
        let (run, stopped) = try a.runStopping(at: "during-push", ["sync"], now: "2026-11-29T12:00:00Z") {
            try b.sync(now: "2026-11-29T12:00:30Z")
        }
        try #require(stopped, "the sync never reached its pause: \(run.stderr)")
        #expect(run.code == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("pushed"), "\(run.stdout)")
        #expect(!run.stderr.contains("refused"), "\(run.stderr)")
        try b.sync(now: "2026-11-29T12:01:00Z")
        #expect(try b.read("one.md").contains("from a"))
        #expect(try a.read("two.md").contains("from b"))
        #expect(try a.headTree() == b.headTree())
    }
}
