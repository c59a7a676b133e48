import Foundation
import QuireCore
import QuireKit
import QuireSync
import Testing

/// What each device is told about a merge that dropped text, in process: the sync that brings
/// the merge to the device that lost tells it (`VaultSyncOutcome.lost`), the status counts what
/// still needs a look, dismissing hides a conflict on this device only, and a restore puts the
/// losing words back so the conflict needs no look any more.
@Suite struct SyncConflictsScenarioTests {
    static let base = SyncMergeScenarioTests.base
    static let fromA = base.replacingOccurrences(of: "Para two.", with: "Para two, by A.").replacingOccurrences(of: "10:00", with: "11:00")
    static let fromB = base.replacingOccurrences(of: "Para two.", with: "Para two, by B.").replacingOccurrences(of: "10:00", with: "11:30")

    /// A (older) and B (newer) change the same words; B merges. Returns B's outcome too.
    static func collide() throws -> (KitWorld, KitDevice, KitDevice, VaultSyncOutcome) {
        let (world, a, b) = try KitWorld.pair(["one.md": base])
        try a.write(fromA, to: "one.md")
        try b.write(fromB, to: "one.md")
        try a.sync("2026-11-29T12:00:00Z")
        let merging = try b.sync("2026-11-29T12:01:00Z")
        return (world, a, b, merging)
    }

    @Test func theDeviceThatLostIsToldByTheSyncThatBringsTheMerge() throws {
        let (world, a, b, merging) = try Self.collide()
        defer { world.remove() }
        #expect(merging.lost.isEmpty, "b's words won: b lost nothing")
        #expect(try b.read("one.md") == Self.fromB)
        let told = try a.sync("2026-11-29T12:02:00Z")
        #expect(told.lost.map(\.path) == ["one.md"])
        #expect(told.lost.first?.losingDevice == "a")
        #expect(told.lost.first?.lost?.contains("by A.") == true, "\(String(describing: told.lost.first?.lost))")
        let again = try a.sync("2026-11-29T12:03:00Z")
        #expect(again.lost.isEmpty, "told once")
    }

    @Test func theStatusCountsAConflictUntilItsWordsAreBack() throws {
        let (world, a, _, _) = try Self.collide()
        defer { world.remove() }
        try a.sync("2026-11-29T12:02:00Z")
        #expect(try SyncStatus.read(vaultRoot: a.root).conflicts == 1)
        let record = try #require(try a.conflicts().first)
        let now = try #require(QuireClock.parseISO8601("2026-11-29T12:05:00Z"))
        _ = try NoteRestore.run(.init(path: "one.md", source: .conflict(id: record.id, whole: false), now: now,
                                      environment: a.environment("2026-11-29T12:05:00Z")), vault: a.vault)
        #expect(try a.read("one.md").contains("Para two, by A."))
        #expect(try SyncStatus.read(vaultRoot: a.root).conflicts == 0, "the losing words are back in the vault")
        #expect(try a.conflicts().map(\.id) == [record.id], "still listed: history does not change")
    }

    @Test func dismissingHidesAConflictOnThisDeviceOnly() throws {
        let (world, a, b, _) = try Self.collide()
        defer { world.remove() }
        try a.sync("2026-11-29T12:02:00Z")
        let record = try #require(try a.conflicts().first)
        let log = try ConflictLog(vaultRoot: a.root)
        #expect(try log.dismiss(String(record.id.prefix(6))) == record)
        #expect(try a.conflicts().isEmpty)
        #expect(try log.records(includeDismissed: true).map(\.id) == [record.id])
        #expect(try SyncConflicts.unresolved(in: a.vault).isEmpty)
        #expect(try SyncStatus.read(vaultRoot: a.root).conflicts == 0)
        try a.sync("2026-11-29T12:03:00Z")
        try b.sync("2026-11-29T12:04:00Z")
        #expect(try b.conflicts().map(\.id) == [record.id], "b still lists it")
        #expect(throws: ConflictError.self) { try log.dismiss("zz") }
    }

    /// The losing version, as `quire restore --conflict ID --whole` writes it: stamped with the
    /// time of the restore in the note's own spelling.
    @Test func theLosingVersionIsStampedWhenTakenWhole() throws {
        let (world, _, b, _) = try Self.collide()
        defer { world.remove() }
        let record = try #require(try b.conflicts().first)
        let now = try #require(QuireClock.parseISO8601("2026-11-29T13:00:00Z"))
        let version = try #require(try SyncConflicts.losingVersion(String(record.id.prefix(8)), in: b.vault, now: now))
        #expect(String(decoding: version, as: UTF8.self) == Self.fromA.replacingOccurrences(of: "2026-11-29T11:00:00Z", with: "2026-11-29T13:00:00Z"))
        let listed = try #require(try SyncConflicts.unresolved(in: b.vault).first)
        #expect(listed.id == record.id && listed.path == "one.md" && listed.device == "b" && listed.winner == "ours")
    }

    /// A deletion undone because the other side changed the note drops no text: listed, never
    /// told as lost, and counted apart in the status.
    @Test func anUndoneDeletionIsListedButNeverToldAsLost() throws {
        let keep = kitNote("k", title: "Keep", updated: "2026-11-29T10:00:00Z")
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base, "keep.md": keep])
        defer { world.remove() }
        try a.remove("one.md")
        try a.sync("2026-11-29T12:00:00Z")
        try b.write(Self.fromB, to: "one.md")
        let merging = try b.sync("2026-11-29T12:01:00Z")
        #expect(try b.read("one.md") == Self.fromB, "the edit revives the note")
        #expect(merging.lost.isEmpty)
        let told = try a.sync("2026-11-29T12:02:00Z")
        #expect(told.lost.isEmpty)
        #expect(try a.read("one.md") == Self.fromB)
        let status = try SyncStatus.read(vaultRoot: a.root)
        #expect(status.conflicts == 0 && status.undoneDeletions == 1)
        #expect(try a.conflicts().first?.dropsText == false)
    }
}
