import Foundation
import Testing

/// A note kept from an interrupted sync (the user edited it while the update waited) is merged
/// three ways at the next sync; the user saves it again between that merge and its write
/// (`QUIRE_FAULT=before-stamp-write:stop`). The merge is refused, as it must be, and before the fix
/// the file was committed as saved in that same sync: the incoming change to the note was
/// reverted on every device and `quire conflicts` did not list it. Now the file waits, uncommitted,
/// with its base, and the next sync merges it: nothing incoming is lost.
@Suite struct PendingMergeWindowTests {
    static let lines = ["line 1", "line 2", "line 3", "line 4", "line 5", "line 6", "line 7"]
    static func body(_ replaced: [Int: String], appended: [String] = []) -> String {
        var result = lines
        for (index, line) in replaced { result[index] = line }
        return (result + appended).map { $0 + "\n" }.joined()
    }
    static let base = note("n1", title: "Shared", updated: "2026-11-29T10:00:00Z", body: body([:]))

    enum Case: String, CaseIterable {
        /// The saved file and the incoming change touch different lines.
        case clean
        /// As `clean`, and the remote moves again (another change to the note) while the stopped
        /// sync waits: that sync brings it in too, and the kept file keeps its first base.
        case remoteMovesMeanwhile
        /// The saved file changed the line the incoming change changed.
        case collision
        /// The user moved the kept file before the sync (the pending merge finds it by its id).
        case movedByUser
    }

    @Test(arguments: Case.allCases)
    func aFileSavedBetweenItsPendingMergeAndItsWriteIsMergedAtTheNextSync(_ scenario: Case) throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["shared.md": Self.base])
        // The incoming change: b rewrites line 1.
        let incoming = [0: "line 1 from b"]
        try b.write(note("n1", title: "Shared", updated: "2026-11-29T11:00:00Z", body: Self.body(incoming)), to: "shared.md")
        try b.sync(now: "2026-11-29T11:10:00Z")
        // a's sync of it dies before the work-tree update; a edits the note meanwhile (its editor
        // still holds the version before b's change); the next sync keeps that edit with its base.
        let crashed = try a.run(["sync"], now: "2026-11-29T11:20:00Z", environment: ["QUIRE_FAULT": "before-checkout:kill"])
        try #require(crashed.code != 0)
        var mine = [6: "line 7 mine"]
        if scenario == .collision { mine[0] = "line 1 mine" }
        try a.write(note("n1", title: "Shared", updated: "2026-11-29T10:00:00Z", body: Self.body(mine)), to: "shared.md")
        try a.touch("shared.md", "2026-11-29T11:50:00Z")
        let path = scenario == .movedByUser ? "moved.md" : "shared.md"
        if scenario == .movedByUser { try FileManager.default.moveItem(at: a.vault.url("shared.md"), to: a.vault.url(path)) }
        // That sync merges the kept edit with b's change; the user saves again before it is written.
        let saved = note("n1", title: "Shared", updated: "2026-11-29T10:00:00Z", body: Self.body(mine, appended: ["line 8 mine"]))
        var remote = incoming
        let (run, stopped) = try a.runStopping(at: "before-stamp-write", ["sync"], now: "2026-11-29T12:00:00Z") {
            try a.write(saved, to: path)
            try a.touch(path, "2026-11-29T11:55:00Z")
            if scenario == .remoteMovesMeanwhile {
                remote[2] = "line 3 from b"
                try b.write(note("n1", title: "Shared", updated: "2026-11-29T11:52:00Z", body: Self.body(remote)), to: "shared.md")
                try b.sync(now: "2026-11-29T12:01:00Z")
            }
        }
        try #require(stopped, "the sync never reached before-stamp-write: \(run.stderr)")
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.contains("kept your edit of \(path) made during the sync; it is merged at the next sync"), "\(run.stdout)")
        let remoteUpdated = scenario == .remoteMovesMeanwhile ? "2026-11-29T11:52:00Z" : "2026-11-29T11:00:00Z"
        let remoteNote = note("n1", title: "Shared", updated: remoteUpdated, body: Self.body(remote))
        // Not committed as saved (a revert of b's change): left for the next sync, as saved.
        let committed = try a.git(["show", "HEAD:shared.md"]).stdout
        let pushed = try world.git(["show", "main:shared.md"]).stdout
        let waiting = try a.read(path)
        let status = try a.git(["status", "--porcelain"]).stdout
        #expect(committed == remoteNote)
        #expect(pushed == remoteNote)
        #expect(waiting == saved)
        #expect(status == (scenario == .movedByUser ? " D shared.md\n?? moved.md\n" : " M shared.md\n"))

        try a.sync(now: "2026-11-29T12:02:00Z")
        try b.sync(now: "2026-11-29T12:03:00Z")
        try a.sync(now: "2026-11-29T12:04:00Z")
        var merged = remote
        for (index, line) in mine { merged[index] = line }
        let expected = note("n1", title: "Shared", updated: "2026-11-29T11:55:00Z", body: Self.body(merged, appended: ["line 8 mine"]))
        let onA = try a.read(path), onB = try b.read(path)
        #expect(onA == expected)
        #expect(onB == expected)
        #expect(try a.files() == b.files())
        #expect(a.exists("shared.md") == (path == "shared.md"))
        #expect(try a.git(["status", "--porcelain"]).stdout.isEmpty)
        #expect(try b.git(["status", "--porcelain"]).stdout.isEmpty)
        let records = try SyncMergeTests.conflicts(b)
        guard scenario == .collision else {
            #expect(records.isEmpty, "\(records)")
            return
        }
        // b's line 1 lost to the user's (the kept edit wins every collision) and is listed.
        try #require(records.count == 1, "\(records)")
        #expect(records[0]["path"] as? String == "shared.md")
        #expect(records[0]["winner"] as? String == "ours")
        let shown = try b.run(["conflicts", "show", try #require(records[0]["id"] as? String)])
        #expect(shown.stdout == remoteNote)
    }
}
