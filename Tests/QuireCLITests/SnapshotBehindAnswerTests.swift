import Foundation
import Testing

/// A command that found changed notes answers first and writes the catalog's snapshot beside
/// its answer (`CatalogStore.writesBehind`), waiting for the write before it exits: the next
/// command finds the snapshot up to date and reads no note again.
@Suite struct SnapshotBehindAnswerTests {
    /// No racily-clean window: the notes just written are trusted at once.
    static let settled = ["QUIRE_RACY_WINDOW_MS": "0"]

    func indexReport(_ vault: TestVault) throws -> [String: Any] {
        let run = try vault.run(["index", "--json"], environment: Self.settled)
        #expect(run.code == 0, "\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    @Test func theNextCommandReadsNothingAfterASearchFoundChangedNotes() throws {
        let vault = try TestVault()
        for name in ["a", "b", "c"] { try vault.write(noteText("title: \(name)"), to: "Notes/\(name).md") }
        _ = try indexReport(vault)
        try vault.write(noteText("title: b", body: "Changed words.\n"), to: "Notes/b.md")
        try vault.write(noteText("title: d", body: "Changed words too.\n"), to: "Notes/d.md")
        let search = try vault.run(["search", "changed", "--paths"], environment: Self.settled)
        #expect(search.code == 0, "\(search.stderr)")
        #expect(search.stdout == "Notes/b.md\nNotes/d.md\n" || search.stdout == "Notes/d.md\nNotes/b.md\n", "\(search.stdout)")
        let report = try indexReport(vault)
        #expect(report["notes"] as? Int == 4)
        #expect(report["added"] as? Int == 0 && report["changed"] as? Int == 0, "the search left the snapshot behind: \(report)")
        #expect(report["cacheWritten"] as? Bool == false, "\(report)")
    }
}
