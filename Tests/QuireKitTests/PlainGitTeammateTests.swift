import Foundation
import QuireCore
import QuireGit
import QuireKit
import QuireSync
import Testing

/// A quire device and a teammate on plain git (`git commit`, `git push`, no quire) sharing one
/// bare remote, in process. The teammate's commits carry no `Quire-Device` trailer: their author
/// names the device, and their commit time stands in for an `updatedAt` they did not change.
@Suite struct PlainGitTeammateTests {
    static let minutes = kitNote("n1", title: "Minutes", updated: "2026-11-29T10:00:00Z",
                                 body: "# Minutes\n\nAttendees: Chen\nAgenda: budget\nPlace: room three.\n\nDecisions:\n")

    static func write(_ text: String, to path: String, in folder: URL) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// The teammate edits in an editor (no `updatedAt` change) and commits later than the quire
    /// device's edit: the teammate's words win, and the reason names the commit's time.
    @Test func aLaterPlainGitEditWinsAndTheReasonSaysWhy() throws {
        let world = try KitWorld(notes: ["minutes.md": Self.minutes])
        defer { world.remove() }
        let a = world.first
        let ben = try world.plainClone("ben")
        try a.write(Self.minutes.replacingOccurrences(of: "room three", with: "room four").replacingOccurrences(of: "10:00", with: "11:00"),
                    to: "minutes.md")
        let byHand = Self.minutes.replacingOccurrences(of: "room three", with: "the garden")
            .replacingOccurrences(of: "Agenda: budget", with: "Agenda: budget, hiring")
        try Self.write(byHand, to: "minutes.md", in: ben)
        try world.plainGit(["commit", "-qam", "edit by hand"], in: ben, at: "2026-11-29T11:45:00Z")
        try world.plainGit(["push", "-q", "origin", "main"], in: ben, at: "2026-11-29T11:45:00Z")
        let report = try a.sync("2026-11-29T12:00:00Z").report
        #expect(report.integration == "merge")
        #expect(try a.read("minutes.md") == byHand.replacingOccurrences(of: "10:00", with: "11:00"))
        let records = try a.conflicts()
        try #require(records.count == 1, "\(records)")
        #expect(records[0].reason.hasPrefix("both sides changed the same words (line 10: 'room four.' from a lost to 'the garden.' from Ben)"),
                "\(records[0].reason)")
        #expect(records[0].reason.hasSuffix("Ben's version is newer (commit time of 'edit by hand' (Ben), 2026-11-29T11:45:00Z)"),
                "\(records[0].reason)")
        #expect(records[0].losingDevice == "a")
    }

    /// The quire device's edit is newer than the teammate's commit: its words stay, and the
    /// teammate gets the merge with a plain `git pull` (a fast-forward).
    @Test func anOlderPlainGitEditLosesOnlyItsCollidingWords() throws {
        let world = try KitWorld(notes: ["minutes.md": Self.minutes])
        defer { world.remove() }
        let a = world.first
        let ben = try world.plainClone("ben")
        let fromA = Self.minutes.replacingOccurrences(of: "room three", with: "room four").replacingOccurrences(of: "10:00", with: "11:50")
        try a.write(fromA, to: "minutes.md")
        try Self.write(Self.minutes.replacingOccurrences(of: "room three", with: "the garden")
            .replacingOccurrences(of: "Decisions:\n", with: "Decisions:\n- hire two\n"), to: "minutes.md", in: ben)
        try world.plainGit(["commit", "-qam", "edit by hand"], in: ben, at: "2026-11-29T11:45:00Z")
        try world.plainGit(["push", "-q", "origin", "main"], in: ben, at: "2026-11-29T11:45:00Z")
        try a.sync("2026-11-29T12:00:00Z")
        let merged = fromA.replacingOccurrences(of: "Decisions:\n", with: "Decisions:\n- hire two\n")
        #expect(try a.read("minutes.md") == merged)
        #expect(try a.conflicts().map(\.losingDevice) == ["Ben"])
        try world.plainGit(["pull", "-q", "--ff-only", "origin", "main"], in: ben, at: "2026-11-29T12:05:00Z")
        #expect(try String(contentsOf: ben.appendingPathComponent("minutes.md"), encoding: .utf8) == merged)
    }

    /// Adds, a deletion and a rename committed by hand arrive whole; history credits the
    /// teammate by author name, and the deleted note can be restored from history.
    @Test func aTeammatesAddsDeletesAndRenamesArrive() throws {
        let world = try KitWorld(notes: ["minutes.md": Self.minutes, "old.md": "old\n", "plan.md": "plan\n"])
        defer { world.remove() }
        let a = world.first
        let ben = try world.plainClone("ben")
        try Self.write("new by hand\n", to: "Inbox/new.md", in: ben)
        try world.plainGit(["rm", "-q", "old.md"], in: ben, at: "2026-11-29T11:40:00Z")
        try FileManager.default.createDirectory(at: ben.appendingPathComponent("Projects"), withIntermediateDirectories: true)
        try world.plainGit(["mv", "plan.md", "Projects/plan.md"], in: ben, at: "2026-11-29T11:40:00Z")
        try world.plainGit(["add", "-A"], in: ben, at: "2026-11-29T11:40:00Z")
        try world.plainGit(["commit", "-qm", "tidy up"], in: ben, at: "2026-11-29T11:40:00Z")
        try world.plainGit(["push", "-q", "origin", "main"], in: ben, at: "2026-11-29T11:40:00Z")
        let report = try a.sync("2026-11-29T12:00:00Z").report
        #expect(report.integration == "fast-forward")
        #expect(try a.read("Inbox/new.md") == "new by hand\n")
        #expect(!a.exists("old.md") && !a.exists("plan.md"))
        #expect(try a.read("Projects/plan.md") == "plan\n")
        let history = try VaultHistory(vault: a.vault)
        let changes = try history.changes(of: "Projects/plan.md")
        #expect(changes.first?.device == "Ben" && changes.first?.change == .renamed, "\(changes)")
        #expect(changes.first?.summary == "tidy up")
        #expect(try history.deletedNotes().map(\.path) == ["old.md"])
        #expect(try history.deletedNotes().first?.device == "Ben")
        _ = try NoteRestore.run(.init(path: "old.md", source: .deleted, now: Date(timeIntervalSince1970: 1_795_000_000)), vault: a.vault)
        #expect(try a.read("old.md") == "old\n")
    }

    /// Both sides changed one note's front matter: the teammate's `git commit` of a key without
    /// a new `updatedAt` merges key by key with the quire device's change of another key.
    @Test func frontMatterKeysChangedOnEachSideMerge() throws {
        let note = kitNote("n1", title: "Plan", updated: "2026-11-29T10:00:00Z", extra: "status: draft\n", body: "Body.\n")
        let world = try KitWorld(notes: ["plan.md": note])
        defer { world.remove() }
        let a = world.first
        let ben = try world.plainClone("ben")
        try a.write(note.replacingOccurrences(of: "title: Plan", with: "title: The plan").replacingOccurrences(of: "10:00", with: "11:00"),
                    to: "plan.md")
        try Self.write(note.replacingOccurrences(of: "draft", with: "done"), to: "plan.md", in: ben)
        try world.plainGit(["commit", "-qam", "done"], in: ben, at: "2026-11-29T11:30:00Z")
        try world.plainGit(["push", "-q", "origin", "main"], in: ben, at: "2026-11-29T11:30:00Z")
        try a.sync("2026-11-29T12:00:00Z")
        #expect(try a.read("plan.md") == kitNote("n1", title: "The plan", updated: "2026-11-29T11:00:00Z", extra: "status: done\n",
                                                 body: "Body.\n"))
        #expect(try a.conflicts().isEmpty)
        #expect(try world.remoteFile("plan.md") == a.read("plan.md"))
    }

    /// Two vaults started apart, then given one remote: the second sync merges the unrelated
    /// histories as if every note were added on both sides — nothing is lost.
    @Test func unrelatedHistoriesMergeAsIfEveryNoteWereAddedOnBothSides() throws {
        let world = try KitWorld(notes: ["shared.md": "from a\n", "only-a.md": "a\n"])
        defer { world.remove() }
        let other = try KitDevice(name: "c", kit: try KitVault())
        defer { other.kit.remove() }
        try other.write("from c\n", to: "shared.md")
        try other.write("c\n", to: "only-c.md")
        _ = try VaultRemote.set(world.bare.path, in: other.vault)
        let report = try other.sync("2026-11-29T12:00:00Z").report
        #expect(report.integration == "merge", "\(report.integration)")
        #expect(try other.read("only-a.md") == "a\n" && other.read("only-c.md") == "c\n")
        let shared = try [other.read("shared.md"), other.read("shared-2.md")].sorted()
        #expect(shared == ["from a\n", "from c\n"], "both kept, the incoming one beside")
        try world.first.sync("2026-11-29T12:01:00Z")
        #expect(try world.first.files() == other.files())
    }
}
