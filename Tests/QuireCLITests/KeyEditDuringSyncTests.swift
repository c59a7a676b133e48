import Foundation
import Testing

/// A front-matter key edited in another editor while a sync brings in a change to the same note
/// (the sync killed before it updates the work tree, the edit made, the next sync finishing the
/// update): whatever the incoming change did to the note, the user's key ends up in it, the
/// incoming text is kept or listed by `quire conflicts`, and no second copy of the note appears.
@Suite struct KeyEditDuringSyncTests {
    static let base = note("n1", title: "Shared", updated: "2026-11-29T10:00:00Z", extra: "chaos: base\n", body: "base line\n")

    enum Incoming: String, CaseIterable {
        case keyChanged, keyRemoved, renamed, renamedAndKeyChanged, deleted
    }

    /// `a` and `b` share `shared.md`; `b` makes the incoming change at 11:00 and syncs; `a`'s sync
    /// of it dies before the work-tree update; `a`'s editor sets `chaos: mine` at 11:50 (updatedAt
    /// untouched) in `shared.md`; then `a`, `b` and `a` sync.
    static func run(_ incoming: Incoming) throws -> (a: Device, b: Device, finished: QuireRun) {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["shared.md": base])
        let at = "2026-11-29T11:00:00Z"
        switch incoming {
        case .keyChanged:
            try #require(try b.run(["set", "shared.md", "chaos=theirs"], now: at).code == 0)
        case .keyRemoved:
            try b.write(base.replacingOccurrences(of: "chaos: base\n", with: ""), to: "shared.md")
            try b.touch("shared.md", at)
        case .renamed, .renamedAndKeyChanged:
            try #require(try b.run(["rename", "shared.md", "Moved"], now: at).code == 0)
            if incoming == .renamedAndKeyChanged {
                try #require(try b.run(["set", "moved.md", "chaos=theirs"], now: at).code == 0)
            }
        case .deleted:
            try #require(try b.run(["rm", "shared.md"], now: at).code == 0)
        }
        try b.sync(now: "2026-11-29T11:10:00Z")
        let crashed = try a.run(["sync"], now: "2026-11-29T11:20:00Z", environment: ["QUIRE_FAULT": "before-checkout:kill"])
        try #require(crashed.code != 0)
        try a.write(base.replacingOccurrences(of: "chaos: base", with: "chaos: mine"), to: "shared.md")
        try a.touch("shared.md", "2026-11-29T11:50:00Z")
        let finished = try a.sync(["--json"], now: "2026-11-29T12:00:00Z")
        try b.sync(now: "2026-11-29T12:01:00Z")
        try a.sync(now: "2026-11-29T12:02:00Z")
        #expect(try a.files() == b.files())
        #expect(try a.git(["status", "--porcelain"]).stdout.isEmpty)
        return (a, b, finished)
    }

    /// The single conflict record of `device`.
    static func onlyRecord(_ device: Device) throws -> [String: Any] {
        let records = try SyncMergeTests.conflicts(device)
        try #require(records.count == 1, "\(records)")
        return records[0]
    }

    /// The incoming side changed or removed the key the user edited: the user's value wins (it
    /// exists nowhere else) and the incoming version is listed.
    @Test(arguments: [Incoming.keyChanged, .keyRemoved])
    func anIncomingChangeOfTheSameKeyLosesAndIsListed(incoming: Incoming) throws {
        let (a, _, _) = try Self.run(incoming)
        #expect(try a.read("shared.md") == note("n1", title: "Shared", updated: "2026-11-29T11:50:00Z",
                                                  extra: "chaos: mine\n", body: "base line\n"))
        let record = try Self.onlyRecord(a)
        #expect(record["path"] as? String == "shared.md")
        #expect(record["winner"] as? String == "ours")
        #expect(record["reason"] as? String == "both sides changed front-matter key 'chaos'; an edit saved on a while a sync ran wins: it exists nowhere else")
        let shown = try a.run(["conflicts", "show", try #require(record["id"] as? String)])
        #expect(shown.stdout == note("n1", title: "Shared", updated: "2026-11-29T11:00:00Z",
                                     extra: incoming == .keyChanged ? "chaos: theirs\n" : "", body: "base line\n"))
    }

    /// Before: the kept edit stayed at the old path beside the renamed note, a second note with
    /// the same id, and was never merged.
    @Test(arguments: [false, true])
    func aNoteRenamedByTheIncomingChangeGetsTheKeyEdit(keyChangedToo: Bool) throws {
        let (a, b, finished) = try Self.run(keyChangedToo ? .renamedAndKeyChanged : .renamed)
        #expect(!a.exists("shared.md"))
        #expect(!b.exists("shared.md"))
        let incoming = keyChangedToo ? "chaos: theirs\n" : "chaos: base\n"
        let expected = note("n1", title: "Moved", updated: "2026-11-29T11:50:00Z", extra: "chaos: mine\n", body: "base line\n")
        #expect(try a.read("moved.md") == expected)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(finished.stdout.utf8)) as? [String: Any])
        #expect(report["stamped"] as? [String] == ["moved.md"], "\(finished.stdout)")
        #expect(report["committed"] as? [String] == ["M moved.md"], "\(finished.stdout)")
        let records = try SyncMergeTests.conflicts(a)
        if keyChangedToo {
            try #require(records.count == 1, "\(records)")
            #expect(records[0]["path"] as? String == "moved.md")
            #expect(records[0]["reason"] as? String == "both sides changed front-matter key 'chaos'; an edit saved on a while a sync ran wins: it exists nowhere else")
            let shown = try a.run(["conflicts", "show", try #require(records[0]["id"] as? String)])
            #expect(shown.stdout == note("n1", title: "Moved", updated: "2026-11-29T11:00:00Z", extra: incoming, body: "base line\n"))
        } else {
            #expect(records.isEmpty, "\(records)")
        }
    }

    /// The same on a device with `core.autocrlf=true` (the chaos soak's seed 3202, under its
    /// edge shapes): the update checks the renamed note out with CRLF line ends, and the check
    /// that it still held what the update wrote compared those bytes with the blob's, so the
    /// kept edit waited at the old path at every sync, never merged nor sent.
    @Test func aNoteRenamedByTheIncomingChangeGetsTheKeyEditUnderAutocrlf() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["shared.md": Self.base])
        try #require(try a.git(["config", "core.autocrlf", "true"]).code == 0)
        try #require(try b.run(["rename", "shared.md", "Moved"], now: "2026-11-29T11:00:00Z").code == 0)
        try b.sync(now: "2026-11-29T11:10:00Z")
        let crashed = try a.run(["sync"], now: "2026-11-29T11:20:00Z", environment: ["QUIRE_FAULT": "before-checkout:kill"])
        try #require(crashed.code != 0)
        try a.write(Self.base.replacingOccurrences(of: "chaos: base", with: "chaos: mine"), to: "shared.md")
        try a.touch("shared.md", "2026-11-29T11:50:00Z")
        let finished = try a.sync(["--json"], now: "2026-11-29T12:00:00Z")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(finished.stdout.utf8)) as? [String: Any])
        #expect(report["keptUserEdits"] as? [String] == [], "\(finished.stdout)")
        #expect(!a.exists("shared.md"))
        let expected = note("n1", title: "Moved", updated: "2026-11-29T11:50:00Z", extra: "chaos: mine\n", body: "base line\n")
        #expect(try a.read("moved.md").replacingOccurrences(of: "\r\n", with: "\n") == expected)
        #expect(try a.git(["status", "--porcelain"]).stdout.isEmpty)
        try b.sync(now: "2026-11-29T12:01:00Z")
        #expect(try b.read("moved.md") == expected)
        #expect(!b.exists("shared.md"))
    }

    @Test func aNoteDeletedByTheIncomingChangeIsKeptAndListed() throws {
        let (a, _, _) = try Self.run(.deleted)
        #expect(try a.read("shared.md") == Self.base.replacingOccurrences(of: "chaos: base", with: "chaos: mine"))
        let record = try Self.onlyRecord(a)
        #expect(record["path"] as? String == "shared.md")
        #expect(record["winner"] as? String == "ours")
        #expect(record["reason"] as? String == "deleted by the incoming change but edited on a during a sync: the note was kept")
        let shown = try a.run(["conflicts", "show", try #require(record["id"] as? String)])
        #expect(shown.code == 1)
        #expect(shown.stderr.contains("has no version of shared.md: the note was deleted there"), "\(shown.stderr)")
    }
}
