import Foundation
import Testing

/// Two devices through a bare repository by path: A edits and syncs, B edits and syncs (merging),
/// A syncs again; each test asserts the exact final content on both devices and what `quire
/// conflicts`, `show` and `restore` print. (The resolver's other cases, in process: QuireKitTests'
/// SyncMergeScenarioTests.)
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

    /// Notes edited outside quire are read and stamped a batch at a time (`Stamper.batchSize`):
    /// 600 notes, each with its own file time, are each stamped with their own time, and the
    /// other device gets every one of them.
    @Test func externalEditsOfManyNotesAreEachStampedFromTheirFileTime() throws {
        let count = 600
        let notes = (0..<count).map { index in
            ("n\(index).md", note("n\(index)", title: "N\(index)", updated: "2026-11-29T10:00:00Z", body: "Body \(index).\n"))
        }
        let (a, b) = try SyncWorld().pair(Dictionary(uniqueKeysWithValues: notes))
        func time(_ index: Int) -> String { String(format: "2026-11-29T11:%02d:%02dZ", index / 60, index % 60) }
        for (index, (path, text)) in notes.enumerated() {
            try b.write(text.replacingOccurrences(of: "Body \(index).", with: "Body \(index), typed in vim."), to: path)
            try b.touch(path, time(index))
        }
        let run = try b.sync(now: "2026-11-29T12:01:00Z")
        #expect(run.stdout.contains("stamped updatedAt of \(count) notes"), "\(run.stdout)")
        try a.sync(now: "2026-11-29T12:02:00Z")
        for (index, (path, text)) in notes.enumerated() {
            let expected = text.replacingOccurrences(of: "Body \(index).", with: "Body \(index), typed in vim.")
                .replacingOccurrences(of: "2026-11-29T10:00:00Z", with: time(index))
            #expect(try b.read(path) == expected, "\(path)")
            #expect(try a.read(path) == expected, "\(path)")
        }
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
