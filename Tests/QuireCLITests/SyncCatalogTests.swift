import Foundation
import Testing

/// The search catalog after a sync (step 8: brought up to date while the push runs).
@Suite struct SyncCatalogTests {
    static func indexReport(_ device: Device) throws -> [String: Any] {
        let run = try device.run(["index", "--json"])
        #expect(run.code == 0, "\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    @Test func aSyncLeavesTheCatalogUpToDateWithIncomingAndStampedNotes() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["one.md": note("n1", title: "One", updated: "2026-11-29T10:00:00Z")])
        let b = try world.clone("b")
        _ = try Self.indexReport(b)  // b's catalog exists before the sync
        try a.write(note("n2", title: "Two", updated: "2026-11-29T11:00:00Z", body: "zephyrine arrives\n"), to: "two.md")
        try a.sync(now: "2026-11-29T12:00:00Z")
        // b: an incoming note, and a note edited in another editor (stamped by the sync).
        try b.write(note("n1", title: "One", updated: "2026-11-29T10:00:00Z", body: "Edited elsewhere.\n"), to: "one.md")
        try b.touch("one.md", "2026-11-29T11:30:00Z")
        let synced = try b.sync(["--json"], now: "2026-11-29T12:01:00Z")
        #expect(synced.stdout.contains("one.md") && synced.stdout.contains("two.md"), "\(synced.stdout)")
        let report = try Self.indexReport(b)
        #expect(report["notes"] as? Int == 2)
        #expect(report["added"] as? Int == 0 && report["changed"] as? Int == 0 && report["removed"] as? Int == 0, "\(report)")
        let found = try b.run(["search", "zephyrine", "--paths"])
        #expect(found.code == 0 && found.stdout == "two.md\n", "\(found.stdout)\(found.stderr)")
    }

    /// The sync brings the catalog up to date from what it wrote alone (no walk): a note the git
    /// CLI committed before it, a branch the git CLI checked out and a `git pull` are seen by the
    /// next search (its own walk), and the sync commits none of them back as a change.
    @Test func changesMadeByPlainGitAreFoundByTheNextSearch() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["one.md": note("n1", title: "One", updated: "2026-11-29T10:00:00Z"),
                                             "two.md": note("n2", title: "Two", updated: "2026-11-29T10:00:00Z")])
        let b = try world.clone("b")
        _ = try Self.indexReport(b)
        // A plain `git commit`, then a sync that has nothing of its own to commit.
        try b.write(note("n1", title: "One", updated: "2026-11-29T10:00:00Z", body: "quillwort by git\n"), to: "one.md")
        #expect(try b.git(["commit", "-qam", "by git"]).code == 0)
        try b.sync(now: "2026-11-29T12:01:00Z")
        #expect(try b.run(["search", "quillwort", "--paths"]).stdout == "one.md\n")
        // Branches checked out by git: the search follows them, the sync commits no revert.
        #expect(try b.git(["checkout", "-qb", "side"]).code == 0)
        try b.write(note("n2", title: "Two", updated: "2026-11-29T10:00:00Z", body: "sidewinder\n"), to: "two.md")
        #expect(try b.git(["commit", "-qam", "side"]).code == 0)
        #expect(try b.run(["search", "sidewinder", "--paths"]).stdout == "two.md\n")
        #expect(try b.git(["checkout", "-q", "main"]).code == 0)
        let head = try b.git(["rev-parse", "HEAD"]).stdout
        try b.sync(now: "2026-11-29T12:02:00Z")
        #expect(try b.git(["rev-parse", "HEAD"]).stdout == head, "the sync committed something after a checkout")
        #expect(try b.run(["search", "sidewinder", "--paths"]).stdout == "")
        // A note changed on a and brought in by a plain `git pull`.
        try a.write(note("n2", title: "Two", updated: "2026-11-29T12:10:00Z", body: "marigold from a\n"), to: "two.md")
        try a.sync(now: "2026-11-29T12:11:00Z")
        #expect(try b.git(["pull", "-q", "--no-rebase", "origin", "main"]).code == 0)
        let found = try b.run(["search", "marigold", "--paths"])
        #expect(found.code == 0 && found.stdout == "two.md\n", "\(found.stdout)\(found.stderr)")
    }
}
