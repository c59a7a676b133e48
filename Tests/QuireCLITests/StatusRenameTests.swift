import Foundation
import Testing

/// A moved note is shown one way — `R old -> new`, as the sync commits it — by `quire status`
/// (text and `--json`), `quire sync --dry-run` and `quire sync` (issue 21). Before the fix status
/// showed an addition and a deletion.
@Suite struct StatusRenameTests {
    @Test func aMovedNoteIsOneRenameInStatusDryRunAndSync() throws {
        let world = try SyncWorld()
        let body = "Line one of a note long enough to be paired.\nLine two.\nLine three.\n"
        let a = try world.first("a", notes: ["notes/plan.md": note("n1", title: "Plan", updated: "2026-11-29T10:00:00Z", body: body)])
        try FileManager.default.createDirectory(at: a.vault.url("archive"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: a.vault.url("notes/plan.md"), to: a.vault.url("archive/plan.md"))
        // Edited as well: still the same note to git's rename detection.
        try a.write(note("n1", title: "Plan", updated: "2026-11-29T10:00:00Z", body: body + "Line four.\n"), to: "archive/plan.md")
        let line = "R notes/plan.md -> archive/plan.md"

        let status = try a.run(["status"])
        #expect(status.stdout.contains("1 uncommitted change\n  \(line)\n"), "\(status.stdout)")
        let json = try a.run(["status", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["uncommitted"] as? [String] == [line])
        let dryRun = try a.sync(["--dry-run"])
        #expect(dryRun.stdout.hasPrefix("would commit 1 change:\n  \(line)\n"), "\(dryRun.stdout)")
        let synced = try a.sync(now: "2026-11-29T11:00:00Z")
        #expect(synced.stdout.contains("  \(line)\n"), "\(synced.stdout)")
        #expect(try a.run(["status"]).stdout.contains("no uncommitted changes"))
    }
}
