import Foundation
import Testing

/// `quire status` counts what still needs attention, in words that are true (issue 21). Before the
/// fix a conflict restored with `quire restore --conflict`, or kept as a copy by `keep-both`,
/// stayed counted as "dropped text", and after `quire undo` status spoke of "your edit … made
/// during a sync" with no sync running.
@Suite struct StatusAttentionTests {
    static let dropped = "automatic resolution dropped text"

    static func conflictIDs(_ device: Device) throws -> [String] {
        let run = try device.run(["conflicts", "--json"])
        try #require(run.code == 0, "\(run.stderr)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        return records.compactMap { $0["id"] as? String }
    }

    static func statusConflicts(_ device: Device) throws -> Int? {
        let run = try device.run(["status", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        return object?["conflicts"] as? Int
    }

    @Test func aConflictRestoredIsNoLongerCounted() throws {
        let (a, _) = try SyncOptionsTests.collide(strategy: "newest")
        #expect(try a.run(["status"]).stdout.contains("1 \(Self.dropped)"))
        #expect(try Self.statusConflicts(a) == 1)
        let id = try #require(try Self.conflictIDs(a).first)
        let restored = try a.run(["restore", "one.md", "--conflict", id], now: "2026-11-29T12:10:00Z")
        try #require(restored.code == 0, "\(restored.stderr)")

        let status = try a.run(["status"])
        #expect(!status.stdout.contains(Self.dropped), "\(status.stdout)")
        #expect(try Self.statusConflicts(a) == 0)
        // Still in the record of what happened, and shared by the next sync.
        #expect(try Self.conflictIDs(a) == [id])
        try a.sync(now: "2026-11-29T12:11:00Z")
        #expect(try Self.statusConflicts(a) == 0)
    }

    @Test func aConflictKeptAsACopyIsNotCounted() throws {
        let (a, b) = try SyncOptionsTests.collide(strategy: "keep-both")
        #expect(try Self.conflictIDs(a).count == 1)
        for device in [a, b] {
            #expect(!(try device.run(["status"]).stdout.contains(Self.dropped)))
            #expect(try Self.statusConflicts(device) == 0)
        }
    }

    @Test func afterUndoAKeptEditIsNotSaidToBeMadeDuringASync() throws {
        let (a, b) = try SyncWorld().pair(["one.md": SyncOptionsTests.base])
        try a.write(SyncOptionsTests.fromA, to: "one.md")
        try a.write(note("n2", title: "Two", updated: "2026-11-29T11:00:00Z"), to: "two.md")
        try a.sync()
        try b.write(note("n3", title: "Three", updated: "2026-11-29T11:00:00Z"), to: "three.md")
        try b.sync(now: "2026-11-29T12:01:00Z")
        // b edits a note the merge brought in, then undoes the merge: the edit is kept, the
        // merge's change taken out of it (UndoUncommittedEditTests).
        let edited = SyncOptionsTests.fromA.replacingOccurrences(of: "Para two.", with: "Para two, edited on b.")
        try b.write(edited, to: "one.md")
        let undone = try b.run(["undo"], now: "2026-11-29T12:05:00Z")
        try #require(undone.code == 0, "\(undone.stderr)")
        try #require(try b.read("one.md") == SyncOptionsTests.base.replacingOccurrences(of: "Para two.", with: "Para two, edited on b."))

        let status = try b.run(["status"])
        #expect(!status.stdout.contains("made during a sync"), "\(status.stdout)")
        // An ordinary uncommitted edit of the undone vault: no merge waits for it any more.
        #expect(status.stdout.contains("1 uncommitted change\n  M one.md\n"), "\(status.stdout)")
        #expect(!status.stdout.contains("the next sync merges it"), "\(status.stdout)")
    }
}
