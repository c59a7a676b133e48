import Foundation
import Testing

/// Issue 13 (Also): decisions quire's merge driver takes during a plain `git pull` are listed by
/// `quire conflicts` like those of `quire sync` — at once on the device that pulled, and on every
/// device after its next sync — and their losing version can be shown and restored. Before, they
/// were printed on the pull's standard error and then lost.
@Suite struct MergeDriverRecordTests {
    static let base = SyncMergeTests.base

    @Test func aPlainGitPullsDecisionsAreListedOnEveryDevice() throws {
        // b's edit is newer and wins.
        let (a, b, fromA, fromB) = try Self.collidingEdits(SyncWorld(), newerOnB: true)
        try #require(try b.git(["commit", "-qam", "edit on b with git"]).code == 0)
        let pull = try b.git(["pull", "--no-rebase", "--no-edit", "origin", "main"])
        try #require(pull.code == 0, "\(pull.stdout)\(pull.stderr)")
        #expect(try b.read("one.md") == fromB)

        let listed = try SyncMergeTests.conflicts(b)
        try #require(listed.count == 1, "\(listed)")
        let merge = try b.git(["rev-parse", "HEAD"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let parents = try b.git(["rev-parse", "HEAD^1", "HEAD^2"]).stdout.split(separator: "\n").map(String.init)
        #expect(listed[0]["path"] as? String == "one.md")
        #expect(listed[0]["winner"] as? String == "ours")
        #expect(listed[0]["ours"] as? String == parents[0])
        #expect(listed[0]["theirs"] as? String == parents[1])
        let id = try #require(listed[0]["id"] as? String)
        let shown = try b.run(["conflicts", "show", id])
        #expect(shown.code == 0, "\(shown.stderr)")
        #expect(shown.stdout == fromA)

        // The next sync records it on a commit, so a lists the same record; b lists it once.
        let synced = try b.sync(now: "2026-11-29T12:10:00Z")
        #expect(synced.stdout.contains("committed no change, only the record of what the last update decided"), "\(synced.stdout)")
        #expect(!b.exists(".quire/local/merge-driver-decisions.json"))
        try a.sync(now: "2026-11-29T12:11:00Z")
        for device in [a, b] {
            let records = try SyncMergeTests.conflicts(device)
            #expect(records.map { $0["id"] as? String } == [id], "\(device.name): \(records)")
            #expect(records.first?["ours"] as? String == parents[0])
        }
        let recorded = try a.git(["log", "-1", "--format=%B"]).stdout
        #expect(recorded.contains("Quire-Conflict: winner=ours merge=\(merge) lost=line%207:%20from%20a. path=one.md reason="), "\(recorded)")
        let restored = try a.run(["restore", "one.md", "--conflict", id], now: "2026-11-29T12:12:00Z")
        #expect(restored.code == 0, "\(restored.stderr)")
        #expect(try a.read("one.md").contains("Para one from a."))
    }

    /// Both devices rewrite the first paragraph: a syncs its edit, b only writes its own (the
    /// newer of the two when `newerOnB`).
    static func collidingEdits(_ world: SyncWorld, newerOnB: Bool = false) throws -> (a: Device, b: Device, fromA: String, fromB: String) {
        let (a, b) = try world.pair(["one.md": Self.base])
        let fromA = Self.base.replacingOccurrences(of: "Para one.", with: "Para one from a.")
            .replacingOccurrences(of: "10:00:00Z", with: newerOnB ? "11:00:00Z" : "11:30:00Z")
        try a.write(fromA, to: "one.md")
        try a.sync(now: "2026-11-29T12:00:00Z")
        let fromB = Self.base.replacingOccurrences(of: "Para one.", with: "Para one from b, PRECIOUS.")
            .replacingOccurrences(of: "10:00:00Z", with: newerOnB ? "11:30:00Z" : "11:00:00Z")
        try b.write(fromB, to: "one.md")
        return (a, b, fromA, fromB)
    }

    /// A rebase keeps no merge commit: the driver must not decide a collision there (git then
    /// dropped b's commit as "already upstream", and its text with it). It leaves a conflict with
    /// both texts; the rebase stops, and `quire sync` names the rebase and its commands.
    @Test func aRebaseLeavesACollisionToTheUser() throws {
        let (_, b, _, _) = try Self.collidingEdits(SyncWorld())
        try #require(try b.git(["commit", "-qam", "edit on b with git"]).code == 0)
        let pull = try b.git(["pull", "--rebase", "origin", "main"])
        #expect(pull.code != 0)
        #expect(pull.stderr.contains("left as a conflict"), "\(pull.stderr)")
        let text = try b.read("one.md")
        #expect(text.contains("<<<<<<<") && text.contains("Para one from a.") && text.contains("PRECIOUS"), "\(text)")
        let sync = try b.run(["sync"], now: "2026-11-29T12:05:00Z")
        #expect(sync.code == 1)
        #expect(sync.stderr.contains("a git rebase is in progress"), "\(sync.stderr)")
        #expect(sync.stderr.contains("'git rebase --continue' or 'git rebase --abort'"), "\(sync.stderr)")
        #expect(try b.git(["rebase", "--abort"]).code == 0)
        #expect(try b.git(["log", "-1", "--format=%s"]).stdout == "edit on b with git\n")
    }

    /// `git stash pop` over a newer synced edit: the stash is kept, with a conflict to resolve.
    @Test func aStashPopKeepsTheStashOnACollision() throws {
        let (_, b, _, _) = try Self.collidingEdits(SyncWorld())
        try #require(try b.git(["stash"]).code == 0)
        try b.sync(now: "2026-11-29T12:05:00Z")
        #expect(try b.read("one.md").contains("Para one from a."))
        let pop = try b.git(["stash", "pop"])
        #expect(pop.code != 0)
        #expect(try b.git(["stash", "list"]).stdout.contains("stash@{0}"))
        #expect(try b.read("one.md").contains("PRECIOUS"))
    }
}
