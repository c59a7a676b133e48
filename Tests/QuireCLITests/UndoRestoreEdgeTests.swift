import Foundation
import Testing

/// `quire undo` and `quire restore` at their edges (issue 13, items 10 and 12): a clock set
/// back, and work synced after the sync being undone. Two devices and a real bare remote.
@Suite struct UndoRestoreEdgeTests {
    static let base = SyncMergeTests.base
    static let two = note("n2", title: "Two", updated: "2026-11-29T10:00:00Z", body: "Two.\n")

    /// Before the fix backups were ordered by their clock-made names: with `b`'s clock set back
    /// for its second merge, undo took the first merge's backup and reverted both merges. Now
    /// they are ordered by creation sequence, and undo takes back the last merge only.
    @Test func undoTakesTheLastMergeWhenTheClockWentBack() throws {
        let (a, b) = try SyncWorld().pair(["one.md": Self.base])
        try a.write("a1\n", to: "a1.txt")
        try a.sync(now: "2026-11-29T12:00:00Z")
        try b.write("b1\n", to: "b1.txt")
        try b.sync(now: "2026-11-29T12:10:00Z")
        try a.write("a2\n", to: "a2.txt")
        try a.sync(now: "2026-11-29T12:20:00Z")
        try b.write("b2\n", to: "b2.txt")
        try b.sync(now: "2026-11-29T09:00:00Z")  // the clock went back three hours
        let undone = try b.run(["undo"], now: "2026-11-29T09:05:00Z")
        #expect(undone.code == 0, "\(undone.stderr)")
        #expect(!b.exists("a2.txt"), "the last merge is taken back")
        #expect(b.exists("a1.txt") && b.exists("b1.txt") && b.exists("b2.txt"), "the merge before it stays")
    }

    /// `b` merges `a`'s change to one.md, then edits one.md and two.md itself and pushes.
    /// Returns both devices after `a` has synced that later work too.
    static func laterWork(editing paths: [String]) throws -> (Device, Device, [String: String]) {
        let (a, b) = try SyncWorld().pair(["one.md": base, "two.md": two])
        let fromA = base.replacingOccurrences(of: "Para one.", with: "Para one from a.")
        try a.write(fromA, to: "one.md")
        try a.sync(now: "2026-11-29T12:00:00Z")
        try b.write("b\n", to: "b.txt")
        try b.sync(now: "2026-11-29T12:01:00Z")
        var later: [String: String] = [:]
        if paths.contains("one.md") { later["one.md"] = fromA.replacingOccurrences(of: "Para two.", with: "Para two from b, later.") }
        if paths.contains("two.md") { later["two.md"] = two.replacingOccurrences(of: "Two.", with: "Two from b, later.") }
        for (path, text) in later { try b.write(text, to: path) }
        try b.sync(now: "2026-11-29T12:02:00Z")
        try a.sync(now: "2026-11-29T12:03:00Z")
        for (path, _) in later { later[path] = try b.read(path) }  // as stamped
        return (a, b, later)
    }

    /// Before the fix undo went back to the backup's whole tree: `b`'s later edit of one.md, already
    /// pushed and merged by `a`, was reverted without a word. Now undo names the file and stops;
    /// `--force` reverts it (and still keeps the later edit of a file the sync did not change).
    @Test func undoNeverSilentlyRevertsLaterSyncedWork() throws {
        let (a, b, later) = try Self.laterWork(editing: ["one.md", "two.md"])
        let head = try b.git(["rev-parse", "HEAD"]).stdout
        let refused = try b.run(["undo"], now: "2026-11-29T12:05:00Z")
        #expect(refused.code == 1)
        #expect(refused.stderr.hasPrefix("quire: error: undoing the sync of n000001-20261129T120100Z would also revert 1 later commit (already synced or yours) to one.md\n"),
                "\(refused.stderr)")
        #expect(refused.stderr.contains("hint: nothing was changed. 'quire undo --force'"))
        #expect(try b.git(["rev-parse", "HEAD"]).stdout == head)
        #expect(try b.read("one.md") == later["one.md"])
        let forced = try b.run(["undo", "--force"], now: "2026-11-29T12:06:00Z")
        #expect(forced.code == 0, "\(forced.stderr)")
        #expect(try b.read("one.md") == Self.base)
        #expect(try b.read("two.md") == later["two.md"], "changed later, not by the sync: kept")
        #expect(b.exists("b.txt"))
        try b.sync(now: "2026-11-29T12:07:00Z")
        try a.sync(now: "2026-11-29T12:08:00Z")
        #expect(try a.files() == b.files())
    }

    /// Later work on a file the undone sync did not change needs no `--force` and is kept (before
    /// the fix it was reverted with the rest).
    @Test func undoKeepsLaterWorkOnOtherFiles() throws {
        let (_, b, later) = try Self.laterWork(editing: ["two.md"])
        let undone = try b.run(["undo"], now: "2026-11-29T12:05:00Z")
        #expect(undone.code == 0, "\(undone.stderr)")
        #expect(try b.read("one.md") == Self.base)
        #expect(try b.read("two.md") == later["two.md"])
    }
}
