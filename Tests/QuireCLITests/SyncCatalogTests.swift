import Foundation
import Testing

/// The search catalog after a sync (step 8: brought up to date while the push runs).
@Suite struct SyncCatalogTests {
    static func indexReport(_ device: Device) throws -> [String: Any] {
        let run = try device.run(["index", "--json"])
        #expect(run.code == 0, "\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    @Test func aSyncLeavesTheCatalogUpToDateWithIncomingAndStampedNotes() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["one.md": note("n1", title: "One", updated: "2026-11-29T10:00:00Z")])
        let b = try world.clone("b")
        _ = try Self.indexReport(b)  // b's catalog exists before the sync
        try a.write(note("n2", title: "Two", updated: "2026-11-29T11:00:00Z", body: "zephyrine arrives\n"), to: "two.md")
        try a.sync(now: "2026-11-29T12:00:00Z")
        // b: an incoming note, and a note edited in another editor (stamped by the sync).
        try b.write(note("n1", title: "One", updated: "2026-11-29T10:00:00Z", body: "Edited elsewhere.\n"), to: "one.md")
        try b.touch("one.md", "2026-11-29T11:30:00Z")
        let synced = try b.sync(["--json"], now: "2026-11-29T12:01:00Z")
        #expect(synced.stdout.contains("one.md") && synced.stdout.contains("two.md"), "\(synced.stdout)")
        let report = try Self.indexReport(b)
        #expect(report["notes"] as? Int == 2)
        #expect(report["added"] as? Int == 0 && report["changed"] as? Int == 0 && report["removed"] as? Int == 0, "\(report)")
        let found = try b.run(["search", "zephyrine", "--paths"])
        #expect(found.code == 0 && found.stdout == "two.md\n", "\(found.stdout)\(found.stderr)")
    }
}
