import Foundation
import Testing

/// What a device remembers between syncs, at its edges: an edit kept during a sync and then
/// committed with the git CLI, an unreadable `.quire/local/sync-state.json`, and a vault with no
/// remote. Two devices and a real bare remote where it matters.
@Suite struct SyncStateEdgeTests {
    static let lines = ["line 1", "line 2", "line 3", "line 4", "line 5", "line 6", "line 7"]
    static func body(_ replaced: [Int: String]) -> String {
        var result = lines
        for (index, line) in replaced { result[index] = line }
        return result.map { $0 + "\n" }.joined()
    }
    static let base = note("n1", title: "Shared", updated: "2026-11-29T10:00:00Z", body: body([:]))
    static let incoming = note("n1", title: "Shared", updated: "2026-11-29T11:00:00Z", body: body([0: "line 1 from b"]))
    static let mine = note("n1", title: "Shared", updated: "2026-11-29T10:00:00Z", body: body([6: "line 7 mine"]))

    /// `a` and `b` share `shared.md`; `b` changes its first line and syncs; `a` syncs it in, and
    /// while that sync is stopped before its work-tree update the user saves `edit` from an
    /// editor that never saw `b`'s change: the edit is kept, with its base, for the next sync.
    static func keptEdit(_ world: SyncWorld, edit: String = mine) throws -> (Device, Device) {
        let (a, b) = try world.pair(["shared.md": base])
        try b.write(incoming, to: "shared.md")
        try b.sync(now: "2026-11-29T11:10:00Z")
        let (run, stopped) = try a.runStopping(at: "before-checkout", ["sync"], now: "2026-11-29T11:20:00Z") {
            try a.write(edit, to: "shared.md")
            try a.touch("shared.md", "2026-11-29T11:15:00Z")
        }
        try #require(stopped, "the sync never reached before-checkout: \(run.stderr)")
        try #require(run.code == 0, "\(run.stderr)")
        try #require(run.stdout.contains("kept your edit of shared.md made during the sync"), "\(run.stdout)")
        return (a, b)
    }

    /// Item 7 of issue 13: before the fix, `git commit -a` between the syncs made HEAD hold the kept
    /// file, the next sync found nothing changed, dropped the saved base, and `b`'s first line was
    /// reverted on every device. Now the kept edit is merged against the version the sync brought
    /// in, whoever committed it; where both changed the same line the edit wins and `b`'s line is
    /// listed by `quire conflicts`, its losing version being `b`'s note (not the committed edit).
    @Test(arguments: [false, true])
    func aKeptEditCommittedWithTheGitCLIStillGetsTheIncomingChange(_ collides: Bool) throws {
        let world = try SyncWorld()
        let edit = collides ? note("n1", title: "Shared", updated: "2026-11-29T10:00:00Z", body: Self.body([0: "line 1 mine", 6: "line 7 mine"]))
            : Self.mine
        let (a, b) = try Self.keptEdit(world, edit: edit)
        try #require(try a.git(["commit", "-q", "-am", "my edit"]).code == 0)
        try a.sync(now: "2026-11-29T12:00:00Z")
        try b.sync(now: "2026-11-29T12:01:00Z")
        let expected = Self.body([0: collides ? "line 1 mine" : "line 1 from b", 6: "line 7 mine"])
        for device in [a, b] {
            let text = try device.read("shared.md")
            #expect(text.hasSuffix(expected), "\(device.name): \(text)")
            #expect(try device.git(["status", "--porcelain"]).stdout.isEmpty)
            let records = try SyncMergeTests.conflicts(device)
            #expect(records.count == (collides ? 1 : 0), "\(device.name): \(records)")
            if let id = records.first?["id"] as? String {
                #expect(try device.run(["conflicts", "show", id]).stdout == Self.incoming)
            }
        }
        #expect(try world.git(["show", "main:shared.md"]).stdout == a.read("shared.md"))
    }

    /// Item 13 of issue 13: a damaged state file (truncated) or one a newer version wrote was read
    /// as an empty state, silently dropping the kept edit's base: the next sync committed the edit
    /// as a revert of `b`'s change. Now the sync refuses, names the file and the way out, and
    /// changes nothing.
    @Test(arguments: ["truncated", "newer"])
    func anUnreadableStateFileIsRefusedNotEmptied(_ kind: String) throws {
        let world = try SyncWorld()
        let (a, _) = try Self.keptEdit(world)
        let file = a.vault.url(".quire/local/sync-state.json")
        let saved = try Data(contentsOf: file)
        let damaged = kind == "truncated" ? saved.prefix(saved.count / 2) : Data("{\"layout\": 99, \"pendingBases\": []}\n".utf8)
        try damaged.write(to: file)
        let head = try a.git(["rev-parse", "HEAD"]).stdout
        let run = try a.run(["sync"], now: "2026-11-29T12:00:00Z")
        #expect(run.code == 1)
        #expect(run.stderr.hasPrefix("quire: error: cannot read .quire/local/sync-state.json: "), "\(run.stderr)")
        #expect(run.stderr.contains(kind == "truncated" ? "damaged" : "newer version of quire"), "\(run.stderr)")
        #expect(run.stderr.contains("hint: nothing was changed"), "\(run.stderr)")
        #expect(try Data(contentsOf: file) == damaged)
        #expect(try a.git(["rev-parse", "HEAD"]).stdout == head)
        #expect(try a.read("shared.md") == Self.mine)
        #expect(try a.run(["status"]).code == 1)
        // The way out the hint names: with the file moved aside the sync runs again.
        try FileManager.default.moveItem(at: file, to: a.vault.url(".quire/local/sync-state.json.bad"))
        try a.sync(now: "2026-11-29T12:01:00Z")
    }

    /// A vault with no remote: the sync commits and says nothing was pushed, exit 0.
    @Test func noRemoteCommitsLocallyAndSaysSo() throws {
        let world = try SyncWorld()
        try #require(try Harness.run(["init", world.folder("a").path], in: world.directory).code == 0)
        let a = Device(name: "a", vault: TestVault(existing: world.folder("a")))
        try a.write(Self.base, to: "one.md")
        let run = try a.run(["sync"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.contains("committed 4 changes"), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("no remote: committed locally, nothing pushed (set one with 'quire remote URL' to share the vault)\n"), "\(run.stdout)")
        #expect(try a.git(["status", "--porcelain"]).stdout.isEmpty)
        #expect(try a.git(["show", "HEAD:one.md"]).stdout == Self.base)
        #expect(try a.run(["status"]).stdout.contains("no remote: committed locally, nothing pushed"))
    }
}
