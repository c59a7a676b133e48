import Foundation
import Testing

/// Two devices through a bare repository by path: A edits and syncs, B edits and syncs (merging),
/// A syncs again; each test asserts the exact final content on both devices.
@Suite struct SyncMergeTests {
    static let base = note("n1", title: "One", updated: "2026-11-29T10:00:00Z", extra: "status: draft\n",
                           body: "Para one.\n\nPara two.\n\nPara three.\n")

    /// Sync A (12:00), B (12:01), A (12:02); both devices end with the same files.
    static func syncABA(_ a: Device, _ b: Device) throws {
        try a.sync(now: "2026-11-29T12:00:00Z")
        try b.sync(now: "2026-11-29T12:01:00Z")
        try a.sync(now: "2026-11-29T12:02:00Z")
        #expect(try a.files() == b.files())
        #expect(try a.headTree() == b.headTree())
    }

    static func conflicts(_ device: Device) throws -> [[String: Any]] {
        let run = try device.run(["conflicts", "--json"])
        #expect(run.code == 0, "\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
    }

    @Test func differentKeysMergeCleanly() throws {
        let (a, b) = try SyncWorld().pair(["one.md": Self.base])
        try a.write(Self.base.replacingOccurrences(of: "draft", with: "done")
            .replacingOccurrences(of: "10:00", with: "11:00"), to: "one.md")
        try b.write(Self.base.replacingOccurrences(of: "title: One", with: "title: Uno")
            .replacingOccurrences(of: "10:00", with: "11:30"), to: "one.md")
        try Self.syncABA(a, b)
        #expect(try a.read("one.md") == note("n1", title: "Uno", updated: "2026-11-29T11:30:00Z", extra: "status: done\n",
                                             body: "Para one.\n\nPara two.\n\nPara three.\n"))
        #expect(try Self.conflicts(a).isEmpty)
    }

    @Test func sameKeyNewerWinsAndTheLoserIsRestorable() throws {
        let (a, b) = try SyncWorld().pair(["one.md": Self.base])
        let fromA = Self.base.replacingOccurrences(of: "draft", with: "done").replacingOccurrences(of: "10:00", with: "11:00")
        let fromB = Self.base.replacingOccurrences(of: "draft", with: "review").replacingOccurrences(of: "10:00", with: "11:30")
        try a.write(fromA, to: "one.md")
        try b.write(fromB, to: "one.md")
        try Self.syncABA(a, b)
        #expect(try a.read("one.md") == fromB)

        let records = try Self.conflicts(a)
        #expect(records.count == 1)
        let record = try #require(records.first)
        #expect(Set(record.keys) == ["id", "path", "time", "device", "winner", "reason", "keptFrom", "droppedFrom", "lost", "ours",
                                     "theirs", "dismissed"])
        // A key's loss is a whole value (the other parent holds it), not words of the body.
        #expect(record["lost"] is NSNull)
        #expect(record["path"] as? String == "one.md")
        #expect(record["device"] as? String == "b")
        #expect(record["winner"] as? String == "ours")
        #expect((record["reason"] as? String)?.contains("status") == true)
        #expect(record["time"] as? String == "2026-11-29T12:01:00+00:00")
        let id = try #require(record["id"] as? String)
        #expect(try Self.conflicts(b).map { $0["id"] as? String } == [id])

        let shown = try a.run(["conflicts", "show", id])
        #expect(shown.code == 0)
        #expect(shown.stdout == fromA)

        let restored = try a.run(["restore", "one.md", "--conflict", id], now: "2026-11-29T13:00:00Z")
        #expect(restored.code == 0, "\(restored.stderr)")
        let expected = fromA.replacingOccurrences(of: "2026-11-29T11:00:00Z", with: "2026-11-29T13:00:00Z")
        #expect(try a.read("one.md") == expected)
        try a.sync(now: "2026-11-29T13:01:00Z")
        try b.sync(now: "2026-11-29T13:02:00Z")
        #expect(try b.read("one.md") == expected)
    }

    @Test func bodyEditsToDifferentParagraphsMerge() throws {
        let (a, b) = try SyncWorld().pair(["one.md": Self.base])
        try a.write(Self.base.replacingOccurrences(of: "Para one.", with: "Para one, by A.")
            .replacingOccurrences(of: "10:00", with: "11:00"), to: "one.md")
        try b.write(Self.base.replacingOccurrences(of: "Para three.", with: "Para three, by B.")
            .replacingOccurrences(of: "10:00", with: "11:30"), to: "one.md")
        try Self.syncABA(a, b)
        #expect(try a.read("one.md") == note("n1", title: "One", updated: "2026-11-29T11:30:00Z", extra: "status: draft\n",
                                             body: "Para one, by A.\n\nPara two.\n\nPara three, by B.\n"))
        #expect(try Self.conflicts(b).isEmpty)
    }

    @Test func bodyCollisionKeepsTheNewerWholeBody() throws {
        let (a, b) = try SyncWorld().pair(["one.md": Self.base])
        let fromA = Self.base.replacingOccurrences(of: "Para one.", with: "Para one, by A.")
            .replacingOccurrences(of: "Para two.", with: "Para two, by A.").replacingOccurrences(of: "10:00", with: "11:30")
        let fromB = Self.base.replacingOccurrences(of: "Para two.", with: "Para two, by B.")
            .replacingOccurrences(of: "10:00", with: "11:00")
        try a.write(fromA, to: "one.md")
        try b.write(fromB, to: "one.md")
        try Self.syncABA(a, b)
        #expect(try a.read("one.md") == fromA)
        let records = try Self.conflicts(a)
        #expect(records.map { $0["winner"] as? String } == ["theirs"])
        let id = try #require(records.first?["id"] as? String)
        #expect(try b.run(["conflicts", "show", id]).stdout == fromB)
    }

    @Test func tagsMergeAsSets() throws {
        let tagged = note("n1", title: "One", updated: "2026-11-29T10:00:00Z", extra: "tags: [x, y]\n")
        let (a, b) = try SyncWorld().pair(["one.md": tagged])
        try a.write(tagged.replacingOccurrences(of: "[x, y]", with: "[y, a]").replacingOccurrences(of: "10:00", with: "11:00"), to: "one.md")
        try b.write(tagged.replacingOccurrences(of: "[x, y]", with: "[x, b]").replacingOccurrences(of: "10:00", with: "11:30"), to: "one.md")
        try Self.syncABA(a, b)
        #expect(try a.read("one.md") == note("n1", title: "One", updated: "2026-11-29T11:30:00Z", extra: "tags: [b, a]\n"))
        #expect(try Self.conflicts(a).isEmpty)
    }

    /// Tags with a list inside are more than tags: they merge as lists of values (a three-way
    /// set merge that keeps the inner lists), never as the tags read from them, which dropped
    /// the inner list.
    @Test func tagsHoldingMoreThanTagsMergeAsLists() throws {
        let tagged = note("n1", title: "One", updated: "2026-11-29T10:00:00Z", extra: "tags: [x, [p, q]]\n")
        let (a, b) = try SyncWorld().pair(["one.md": tagged])
        try a.write(tagged.replacingOccurrences(of: "[x, [p, q]]", with: "[y, [p, q]]").replacingOccurrences(of: "10:00", with: "11:00"), to: "one.md")
        try b.write(tagged.replacingOccurrences(of: "[x, [p, q]]", with: "[x, [p, r]]").replacingOccurrences(of: "10:00", with: "11:30"), to: "one.md")
        try Self.syncABA(a, b)
        #expect(try a.read("one.md") == note("n1", title: "One", updated: "2026-11-29T11:30:00Z", extra: "tags: [[p, r], y]\n"))
        #expect(try Self.conflicts(a).isEmpty)
    }

    @Test func aRealChangeRevivesADeletedNote() throws {
        let (a, b) = try SyncWorld().pair(["one.md": Self.base, "keep.md": note("k", title: "Keep", updated: "2026-11-29T10:00:00Z")])
        try a.remove("one.md")
        let edited = Self.base.replacingOccurrences(of: "Para two.", with: "Para two, edited.")
            .replacingOccurrences(of: "10:00", with: "11:30")
        try b.write(edited, to: "one.md")
        try Self.syncABA(a, b)
        #expect(try a.read("one.md") == edited)
        let records = try Self.conflicts(a)
        #expect(records.count == 1)
        #expect(records.first?["path"] as? String == "one.md")
        #expect((records.first?["reason"] as? String)?.contains("deleted") == true)
    }

    @Test func aReStampDoesNotReviveADeletedNote() throws {
        let (a, b) = try SyncWorld().pair(["one.md": Self.base, "keep.md": note("k", title: "Keep", updated: "2026-11-29T10:00:00Z")])
        try a.remove("one.md")
        try b.write(Self.base.replacingOccurrences(of: "10:00", with: "11:30"), to: "one.md")
        try Self.syncABA(a, b)
        #expect(!a.exists("one.md"))
        #expect(!b.exists("one.md"))
        #expect(try Self.conflicts(a).isEmpty)
    }

    @Test func addAddKeepsBothOrOne() throws {
        let (a, b) = try SyncWorld().pair(["keep.md": note("k", title: "Keep", updated: "2026-11-29T10:00:00Z")])
        let fromA = note("na", title: "New", updated: "2026-11-29T11:00:00Z", body: "From A.\n")
        let fromB = note("nb", title: "New", updated: "2026-11-29T11:30:00Z", body: "From B.\n")
        let same = note("ns", title: "Same", updated: "2026-11-29T11:00:00Z")
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

    @Test func attachmentChangedOnBothSidesKeepsBoth() throws {
        let (a, b) = try SyncWorld().pair(["img/photo.png": "base bytes", "keep.md": note("k", title: "Keep", updated: "2026-11-29T10:00:00Z")])
        try a.write("bytes from a", to: "img/photo.png")
        try b.write("bytes from b", to: "img/photo.png")
        try Self.syncABA(a, b)
        #expect(try a.read("img/photo.png") == "bytes from b")
        #expect(try a.read("img/photo.a.png") == "bytes from a")
    }

    @Test func renameOnOneSideAndEditOnTheOther() throws {
        let (a, b) = try SyncWorld().pair(["one.md": Self.base])
        try a.git(["mv", "one.md", "renamed.md"])
        let edited = Self.base.replacingOccurrences(of: "Para two.", with: "Para two, edited.")
            .replacingOccurrences(of: "10:00", with: "11:30")
        try b.write(edited, to: "one.md")
        try Self.syncABA(a, b)
        #expect(!a.exists("one.md"))
        #expect(try a.read("renamed.md") == edited)
    }

    @Test func externalEditIsStampedFromTheFileTime() throws {
        let (a, b) = try SyncWorld().pair(["one.md": Self.base])
        try b.write(Self.base.replacingOccurrences(of: "Para two.", with: "Para two, typed in vim."), to: "one.md")
        try b.touch("one.md", "2026-11-29T11:45:00Z")
        let run = try b.sync(now: "2026-11-29T12:01:00Z")
        #expect(run.stdout.contains("stamped updatedAt of 1 note"))
        try a.sync(now: "2026-11-29T12:02:00Z")
        let expected = Self.base.replacingOccurrences(of: "Para two.", with: "Para two, typed in vim.")
            .replacingOccurrences(of: "2026-11-29T10:00:00Z", with: "2026-11-29T11:45:00Z")
        #expect(try a.read("one.md") == expected)
        #expect(try b.read("one.md") == expected)
        // Nothing is stamped twice: a second sync commits nothing.
        #expect(try b.sync(now: "2026-11-29T12:03:00Z").stdout.contains("nothing to commit"))
    }

    /// Two notes with one id (a copied file; the earlier soak's seed 1021 made one with a crash):
    /// the losing version of a collision on the renamed copy is the one the merge paired with it,
    /// not the first file with that id (which held none of the losing text).
    @Test func theLosingVersionIsThePairedCopyWhenTwoNotesShareAnID() throws {
        let copy = note("n1", title: "Dup", updated: "2026-11-29T10:00:00Z", extra: "chaos: base\n", body: "base line\n")
        let (a, b) = try SyncWorld().pair(["Archive/dup.md": copy, "Journal/dup.md": copy])
        try #require(try b.run(["set", "Journal/dup.md", "chaos=theirs"], now: "2026-11-29T11:00:00Z").code == 0)
        try b.sync(now: "2026-11-29T12:00:00Z")
        try #require(try a.run(["rename", "Journal/dup.md", "Renamed"], now: "2026-11-29T11:30:00Z").code == 0)
        try #require(try a.run(["set", "Journal/renamed.md", "chaos=mine"], now: "2026-11-29T11:30:00Z").code == 0)
        try a.sync(now: "2026-11-29T12:01:00Z")

        let records = try Self.conflicts(a)
        try #require(records.count == 1, "\(records)")
        #expect(records[0]["path"] as? String == "Journal/renamed.md")
        #expect(records[0]["winner"] as? String == "ours")
        let shown = try a.run(["conflicts", "show", try #require(records[0]["id"] as? String)])
        #expect(shown.code == 0, "\(shown.stderr)")
        #expect(shown.stdout == note("n1", title: "Dup", updated: "2026-11-29T11:00:00Z", extra: "chaos: theirs\n",
                                     body: "base line\n"))
    }
}
