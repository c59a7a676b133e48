import Foundation
import Testing

/// `quire history` across a merge (issue 21). Before the fix history diffed every commit against
/// its first parent only and followed one path: when laptop a renamed a note and laptop b edited
/// or renamed it, history on b left out a's commit (`git log --follow` has it) and listed b's
/// merge as the rename. Now it follows the note through both parents of every merge.
@Suite struct HistoryAcrossDevicesTests {
    static let original = note("n1", title: "Plan", updated: "2026-11-29T10:00:00Z", body: "line 1\nline 2\n")

    struct Entry: Decodable, Equatable {
        var commit: String
        var path: String
        var change: String
        var device: String
    }

    static func history(_ device: Device, _ note: String) throws -> [Entry] {
        let run = try device.run(["history", note, "--json"])
        try #require(run.code == 0, "\(run.stderr)")
        return try JSONDecoder().decode([Entry].self, from: Data(run.stdout.utf8))
    }

    static func head(_ device: Device) throws -> String {
        try device.git(["rev-parse", "HEAD"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// a moves plan.md to renamed.md, b edits plan.md; both sync through the remote.
    @Test func aRenameMergedFromTheOtherDeviceIsCreditedToIt() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["plan.md": Self.original])
        let created = try Self.head(a)
        try FileManager.default.moveItem(at: a.vault.url("plan.md"), to: a.vault.url("renamed.md"))
        try a.sync(now: "2026-11-29T11:00:00Z")
        let renamed = try Self.head(a)
        try b.write(note("n1", title: "Plan", updated: "2026-11-29T11:30:00Z", body: "line 1 from b\nline 2\n"), to: "plan.md")
        try b.sync(now: "2026-11-29T12:00:00Z")
        try #require(b.exists("renamed.md") && !b.exists("plan.md"))
        try #require(try b.read("renamed.md").contains("line 1 from b"))
        let edited = try b.git(["rev-parse", "HEAD^1"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        let entries = try Self.history(b, "renamed.md")
        #expect(entries.contains(Entry(commit: renamed, path: "renamed.md", change: "renamed", device: "a")), "\(entries)")
        #expect(entries.contains(Entry(commit: edited, path: "plan.md", change: "modified", device: "b")), "\(entries)")
        #expect(entries.last == Entry(commit: created, path: "plan.md", change: "added", device: "a"), "\(entries)")
        // The merge made a version neither side had (a's name, b's text), and renamed nothing.
        #expect(!entries.contains { $0.change == "renamed" && $0.device == "b" }, "\(entries)")
        // The same on a, after it pulls the merge.
        try a.sync(now: "2026-11-29T12:10:00Z")
        #expect(try Self.history(a, "renamed.md") == entries)
    }

    /// a and b both rename the note, to different names; whichever name wins, both renames are listed.
    @Test func bothRenamesOfANoteRenamedOnTwoDevicesAreListed() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["plan.md": Self.original])
        try FileManager.default.moveItem(at: a.vault.url("plan.md"), to: a.vault.url("from-a.md"))
        try a.sync(now: "2026-11-29T11:00:00Z")
        let renamedByA = try Self.head(a)
        try FileManager.default.moveItem(at: b.vault.url("plan.md"), to: b.vault.url("from-b.md"))
        try b.sync(now: "2026-11-29T12:00:00Z")
        let renamedByB = try b.git(["rev-parse", "HEAD^1"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let final = b.exists("from-a.md") ? "from-a.md" : "from-b.md"
        try #require(b.exists(final) && !b.exists("plan.md"))

        let entries = try Self.history(b, final)
        #expect(entries.contains(Entry(commit: renamedByA, path: "from-a.md", change: "renamed", device: "a")), "\(entries)")
        #expect(entries.contains(Entry(commit: renamedByB, path: "from-b.md", change: "renamed", device: "b")), "\(entries)")
        #expect(entries.last?.change == "added", "\(entries)")
        #expect(entries.filter { $0.change == "added" }.count == 1, "\(entries)")
    }
}
