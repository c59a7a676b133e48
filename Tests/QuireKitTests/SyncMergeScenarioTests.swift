import Foundation
import QuireCore
import QuireKit
import QuireSync
import Testing

/// Two devices through a bare repository, in process (`VaultSync`): A edits and syncs, B edits
/// and syncs (merging), A syncs again; each test asserts the exact files on both devices and
/// what the cycles reported. (The CLI's output for the same merges: QuireCLITests' SyncMergeTests.)
@Suite struct SyncMergeScenarioTests {
    static let base = kitNote("n1", title: "One", updated: "2026-11-29T10:00:00Z", extra: "status: draft\n",
                              body: "Para one.\n\nPara two.\n\nPara three.\n")

    /// Sync A (12:00), B (12:01), A (12:02); both devices end with the same files and tree.
    @discardableResult
    static func syncABA(_ a: KitDevice, _ b: KitDevice) throws -> (a: SyncReport, b: SyncReport, again: SyncReport) {
        let first = try a.sync("2026-11-29T12:00:00Z").report
        let second = try b.sync("2026-11-29T12:01:00Z").report
        let third = try a.sync("2026-11-29T12:02:00Z").report
        #expect(try a.files() == b.files())
        #expect(try a.headTree() == b.headTree())
        return (first, second, third)
    }

    @Test func theFirstSyncPushesAndACloneHasEverything() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base, "Sub/two.md": "plain\n", "img/x.png": "png"])
        defer { world.remove() }
        #expect(try world.remoteFile("one.md") == Self.base)
        #expect(try b.read("Sub/two.md") == "plain\n")
        #expect(try b.read("img/x.png") == "png")
        #expect(try a.headTree() == b.headTree())
        let quiet = try b.sync("2026-11-29T12:00:00Z").report
        #expect(quiet.committed.isEmpty && quiet.updatedFromRemote.isEmpty && quiet.conflicts.isEmpty)
        #expect(!quiet.pushed, "nothing to push")
        #expect(try world.remoteHead() == a.git(["rev-parse", "HEAD"]))
    }

    @Test func anEditTravelsAndIsStampedOnce() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        let edited = Self.base.replacingOccurrences(of: "Para two.", with: "Para two, typed in vim.")
        try b.write(edited, to: "one.md")
        try b.touch("one.md", "2026-11-29T11:45:00Z")
        let sent = try b.sync("2026-11-29T12:01:00Z").report
        #expect(sent.stamped == ["one.md"])
        #expect(sent.pushed && sent.pushedCommits == 1)
        let received = try a.sync("2026-11-29T12:02:00Z").report
        #expect(received.integration == "fast-forward")
        #expect(received.updatedFromRemote == ["one.md"])
        let expected = edited.replacingOccurrences(of: "2026-11-29T10:00:00Z", with: "2026-11-29T11:45:00Z")
        #expect(try a.read("one.md") == expected)
        #expect(try b.read("one.md") == expected)
        let again = try b.sync("2026-11-29T12:03:00Z").report
        #expect(again.stamped.isEmpty && again.committed.isEmpty, "nothing is stamped twice")
    }

    @Test func differentKeysMergeCleanly() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        try a.write(Self.base.replacingOccurrences(of: "draft", with: "done").replacingOccurrences(of: "10:00", with: "11:00"), to: "one.md")
        try b.write(Self.base.replacingOccurrences(of: "title: One", with: "title: Uno")
            .replacingOccurrences(of: "10:00", with: "11:30"), to: "one.md")
        let reports = try Self.syncABA(a, b)
        #expect(reports.b.integration == "merge")
        #expect(reports.b.merged == ["merged one.md"])
        #expect(reports.again.integration == "fast-forward")
        #expect(try a.read("one.md") == kitNote("n1", title: "Uno", updated: "2026-11-29T11:30:00Z", extra: "status: done\n",
                                                body: "Para one.\n\nPara two.\n\nPara three.\n"))
        #expect(try a.conflicts().isEmpty && b.conflicts().isEmpty)
    }

    @Test func theSameKeyGoesToTheNewerSideAndTheLoserIsRestorable() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        let fromA = Self.base.replacingOccurrences(of: "draft", with: "done").replacingOccurrences(of: "10:00", with: "11:00")
        let fromB = Self.base.replacingOccurrences(of: "draft", with: "review").replacingOccurrences(of: "10:00", with: "11:30")
        try a.write(fromA, to: "one.md")
        try b.write(fromB, to: "one.md")
        let reports = try Self.syncABA(a, b)
        #expect(reports.b.conflicts.map(\.path) == ["one.md"])
        #expect(try a.read("one.md") == fromB)
        let records = try a.conflicts()
        let record = try #require(records.first)
        #expect(records.count == 1)
        #expect(record.path == "one.md" && record.device == "b" && record.winner == .ours)
        #expect(record.reason.contains("status"), "\(record.reason)")
        #expect(record.lost == nil, "a key's loss is a whole value, not words of the body")
        #expect(record.losingDevice == "a")
        #expect(try b.conflicts().map(\.id) == [record.id], "listed on every device")
        #expect(try SyncConflicts.unresolved(in: a.vault).map(\.id) == [record.id])
        let log = try ConflictLog(vaultRoot: a.root)
        #expect(try log.losingVersion(of: record).map { String(decoding: $0, as: UTF8.self) } == fromA)

        let now = try #require(QuireClock.parseISO8601("2026-11-29T13:00:00Z"))
        let restored = try NoteRestore.run(.init(path: "one.md", source: .conflict(id: record.id, whole: false), now: now,
                                                 environment: a.environment("2026-11-29T13:00:00Z")), vault: a.vault)
        #expect(restored.origin == .conflict(id: record.id, losingSide: "a", applied: true))
        let expected = fromA.replacingOccurrences(of: "2026-11-29T11:00:00Z", with: "2026-11-29T13:00:00Z")
        let restoredText = try a.read("one.md")
        #expect(restoredText == expected)
        try a.sync("2026-11-29T13:01:00Z")
        try b.sync("2026-11-29T13:02:00Z")
        #expect(try b.read("one.md") == expected)
    }

    @Test func bodyEditsOfDifferentParagraphsMerge() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        try a.write(Self.base.replacingOccurrences(of: "Para one.", with: "Para one, by A.")
            .replacingOccurrences(of: "10:00", with: "11:00"), to: "one.md")
        try b.write(Self.base.replacingOccurrences(of: "Para three.", with: "Para three, by B.")
            .replacingOccurrences(of: "10:00", with: "11:30"), to: "one.md")
        try Self.syncABA(a, b)
        #expect(try a.read("one.md") == kitNote("n1", title: "One", updated: "2026-11-29T11:30:00Z", extra: "status: draft\n",
                                                body: "Para one, by A.\n\nPara two.\n\nPara three, by B.\n"))
        #expect(try b.conflicts().isEmpty)
    }

    @Test func collidingWordsGoToTheNewerSideAndAreNamed() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        let fromA = Self.base.replacingOccurrences(of: "Para two.", with: "Para two, by A.").replacingOccurrences(of: "10:00", with: "11:30")
        let fromB = Self.base.replacingOccurrences(of: "Para two.", with: "Para two, by B.").replacingOccurrences(of: "10:00", with: "11:00")
        try a.write(fromA, to: "one.md")
        try b.write(fromB, to: "one.md")
        let reports = try Self.syncABA(a, b)
        #expect(try a.read("one.md") == fromA)
        let record = try #require(try b.conflicts().first)
        #expect(record.winner == .theirs, "b merged, and a's side was newer")
        #expect(record.losingDevice == "b")
        #expect(record.lost?.contains("B") == true, "\(String(describing: record.lost))")
        #expect(reports.b.conflicts.count == 1)
        let log = try ConflictLog(vaultRoot: b.root)
        #expect(try log.losingVersion(of: record).map { String(decoding: $0, as: UTF8.self) } == fromB)
    }

    @Test func tagsMergeAsSets() throws {
        let tagged = kitNote("n1", title: "One", updated: "2026-11-29T10:00:00Z", extra: "tags: [x, y]\n")
        let (world, a, b) = try KitWorld.pair(["one.md": tagged])
        defer { world.remove() }
        try a.write(tagged.replacingOccurrences(of: "[x, y]", with: "[y, a]").replacingOccurrences(of: "10:00", with: "11:00"), to: "one.md")
        try b.write(tagged.replacingOccurrences(of: "[x, y]", with: "[x, b]").replacingOccurrences(of: "10:00", with: "11:30"), to: "one.md")
        try Self.syncABA(a, b)
        #expect(try a.read("one.md") == kitNote("n1", title: "One", updated: "2026-11-29T11:30:00Z", extra: "tags: [b, a]\n"))
        #expect(try a.conflicts().isEmpty)
    }

    /// Tags with a list inside are more than tags: they merge as lists of values (a three-way
    /// set merge that keeps the inner lists), never as the tags read from them.
    @Test func tagsHoldingMoreThanTagsMergeAsLists() throws {
        let tagged = kitNote("n1", title: "One", updated: "2026-11-29T10:00:00Z", extra: "tags: [x, [p, q]]\n")
        let (world, a, b) = try KitWorld.pair(["one.md": tagged])
        defer { world.remove() }
        try a.write(tagged.replacingOccurrences(of: "[x, [p, q]]", with: "[y, [p, q]]").replacingOccurrences(of: "10:00", with: "11:00"), to: "one.md")
        try b.write(tagged.replacingOccurrences(of: "[x, [p, q]]", with: "[x, [p, r]]").replacingOccurrences(of: "10:00", with: "11:30"), to: "one.md")
        try Self.syncABA(a, b)
        #expect(try a.read("one.md") == kitNote("n1", title: "One", updated: "2026-11-29T11:30:00Z", extra: "tags: [[p, r], y]\n"))
        #expect(try a.conflicts().isEmpty)
    }

    @Test func aRealChangeRevivesADeletedNoteAndSaysSo() throws {
        let keep = kitNote("k", title: "Keep", updated: "2026-11-29T10:00:00Z")
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base, "keep.md": keep])
        defer { world.remove() }
        try a.remove("one.md")
        let edited = Self.base.replacingOccurrences(of: "Para two.", with: "Para two, edited.").replacingOccurrences(of: "10:00", with: "11:30")
        try b.write(edited, to: "one.md")
        try Self.syncABA(a, b)
        #expect(try a.read("one.md") == edited)
        let records = try a.conflicts()
        #expect(records.map(\.path) == ["one.md"])
        #expect(records.first?.reason.contains("deleted") == true, "\(records)")
    }

    @Test func aReStampDoesNotReviveADeletedNote() throws {
        let keep = kitNote("k", title: "Keep", updated: "2026-11-29T10:00:00Z")
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base, "keep.md": keep])
        defer { world.remove() }
        try a.remove("one.md")
        try b.write(Self.base.replacingOccurrences(of: "10:00", with: "11:30"), to: "one.md")
        try Self.syncABA(a, b)
        #expect(!a.exists("one.md") && !b.exists("one.md"))
        #expect(try a.conflicts().isEmpty)
        #expect(try world.remoteFile("one.md") == nil)
    }

    @Test func addAddKeepsBothOrOne() throws {
        let (world, a, b) = try KitWorld.pair(["keep.md": kitNote("k", title: "Keep", updated: "2026-11-29T10:00:00Z")])
        defer { world.remove() }
        let fromA = kitNote("na", title: "New", updated: "2026-11-29T11:00:00Z", body: "From A.\n")
        let fromB = kitNote("nb", title: "New", updated: "2026-11-29T11:30:00Z", body: "From B.\n")
        let same = kitNote("ns", title: "Same", updated: "2026-11-29T11:00:00Z")
        try a.write(fromA, to: "new.md")
        try b.write(fromB, to: "new.md")
        try a.write(same, to: "same.md")
        try b.write(same, to: "same.md")
        try Self.syncABA(a, b)
        #expect(try a.read("new.md") == fromB)
        #expect(try a.read("new-2.md") == fromA)
        #expect(try a.read("same.md") == same)
        #expect(!a.exists("same-2.md"))
    }

    @Test func anAttachmentChangedOnBothSidesKeepsBoth() throws {
        let (world, a, b) = try KitWorld.pair(["img/photo.png": "base bytes", "keep.md": kitNote("k", title: "Keep", updated: "2026-11-29T10:00:00Z")])
        defer { world.remove() }
        try a.write("bytes from a", to: "img/photo.png")
        try b.write("bytes from b", to: "img/photo.png")
        try Self.syncABA(a, b)
        #expect(try a.read("img/photo.png") == "bytes from b")
        #expect(try a.read("img/photo.a.png") == "bytes from a")
    }

    @Test func aRenameOnOneSideTakesTheOtherSidesEdit() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        try a.git(["mv", "one.md", "renamed.md"])
        let edited = Self.base.replacingOccurrences(of: "Para two.", with: "Para two, edited.").replacingOccurrences(of: "10:00", with: "11:30")
        try b.write(edited, to: "one.md")
        try Self.syncABA(a, b)
        #expect(!a.exists("one.md"))
        #expect(try a.read("renamed.md") == edited)
    }

    /// A note renamed on both sides keeps the name from the side with the newer `updatedAt`.
    @Test func aNoteRenamedOnBothSidesKeepsTheNewerName() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        try a.remove("one.md")
        try a.write(Self.base.replacingOccurrences(of: "10:00", with: "11:00"), to: "from-a.md")
        try b.remove("one.md")
        try b.write(Self.base.replacingOccurrences(of: "10:00", with: "11:30"), to: "from-b.md")
        try Self.syncABA(a, b)
        #expect(try a.files().keys.filter { $0.hasSuffix(".md") }.sorted() == ["from-b.md"])
        #expect(try a.read("from-b.md") == Self.base.replacingOccurrences(of: "10:00", with: "11:30"))
    }
}
