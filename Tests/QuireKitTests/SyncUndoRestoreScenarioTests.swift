import Foundation
import QuireCore
import QuireGit
import QuireKit
import QuireSync
import Testing

/// Undo, restore and history after syncs between two devices, in process (`SyncUndo`,
/// `NoteRestore`, `VaultHistory` over vaults that `VaultSync` synced through a bare remote).
/// The CLI's wording and exit codes for the same: QuireCLITests' UndoRestoreEdgeTests.
@Suite struct SyncUndoRestoreScenarioTests {
    static let base = SyncMergeScenarioTests.base
    static let two = kitNote("n2", title: "Two", updated: "2026-11-29T10:00:00Z", body: "Two.\n")

    static func date(_ iso: String) throws -> Date { try #require(QuireClock.parseISO8601(iso)) }

    /// Backups are ordered by their sequence, not their clock: with `b`'s clock set back for its
    /// second merge, undo takes back that merge only.
    @Test func undoTakesTheLastMergeWhenTheClockWentBack() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        try a.write("a1\n", to: "a1.txt")
        try a.sync("2026-11-29T12:00:00Z")
        try b.write("b1\n", to: "b1.txt")
        try b.sync("2026-11-29T12:10:00Z")
        try a.write("a2\n", to: "a2.txt")
        try a.sync("2026-11-29T12:20:00Z")
        try b.write("b2\n", to: "b2.txt")
        let merged = try b.sync("2026-11-29T09:00:00Z").report  // the clock went back three hours
        let backup = try #require(merged.backup)
        let undone = try SyncUndo.run(b.vault, environment: b.environment("2026-11-29T09:05:00Z"))
        #expect(backup.hasSuffix("/" + undone.backup), "\(backup) \(undone.backup)")
        #expect(undone.editsKept.isEmpty)
        #expect(!b.exists("a2.txt"), "the last merge is taken back")
        #expect(b.exists("a1.txt") && b.exists("b1.txt") && b.exists("b2.txt"), "the merge before it stays")
        #expect(try b.git(["status", "--porcelain"]).isEmpty, "the undo is a commit")
    }

    /// `b` merges `a`'s change to one.md, then edits the files in `paths` and pushes; `a` syncs
    /// that too. Returns the world, both devices and the later texts as stamped.
    static func laterWork(editing paths: [String]) throws -> (KitWorld, KitDevice, KitDevice, [String: String]) {
        let (world, a, b) = try KitWorld.pair(["one.md": base, "two.md": two])
        let fromA = base.replacingOccurrences(of: "Para one.", with: "Para one from a.")
        try a.write(fromA, to: "one.md")
        try a.sync("2026-11-29T12:00:00Z")
        try b.write("b\n", to: "b.txt")
        try b.sync("2026-11-29T12:01:00Z")
        var later: [String: String] = [:]
        if paths.contains("one.md") { later["one.md"] = fromA.replacingOccurrences(of: "Para two.", with: "Para two from b, later.") }
        if paths.contains("two.md") { later["two.md"] = two.replacingOccurrences(of: "Two.", with: "Two from b, later.") }
        for (path, text) in later { try b.write(text, to: path) }
        try b.sync("2026-11-29T12:02:00Z")
        try a.sync("2026-11-29T12:03:00Z")
        for (path, _) in later { later[path] = try b.read(path) }
        return (world, a, b, later)
    }

    /// Undo never silently reverts later synced work on a file the sync changed: it names the
    /// file and changes nothing; forced, it reverts it and still keeps later work elsewhere.
    @Test func undoNeverSilentlyRevertsLaterSyncedWork() throws {
        let (world, a, b, later) = try Self.laterWork(editing: ["one.md", "two.md"])
        defer { world.remove() }
        let head = try b.git(["rev-parse", "HEAD"])
        let refused = #expect(throws: SyncError.self) { try SyncUndo.run(b.vault, environment: b.environment("2026-11-29T12:05:00Z")) }
        guard case let .undoWouldRevertLaterWork(_, paths, laterCommits)? = refused else {
            Issue.record("\(String(describing: refused))"); return
        }
        #expect(paths == ["one.md"] && laterCommits == 1)
        #expect(try b.git(["rev-parse", "HEAD"]) == head)
        #expect(try b.read("one.md") == later["one.md"])
        _ = try SyncUndo.run(b.vault, force: true, environment: b.environment("2026-11-29T12:06:00Z"))
        #expect(try b.read("one.md") == Self.base)
        #expect(try b.read("two.md") == later["two.md"], "changed later, not by the sync: kept")
        #expect(b.exists("b.txt"))
        try b.sync("2026-11-29T12:07:00Z")
        try a.sync("2026-11-29T12:08:00Z")
        #expect(try a.files() == b.files())
        #expect(try a.read("one.md") == Self.base, "the undo travels like any commit")
    }

    @Test func undoKeepsLaterWorkOnOtherFiles() throws {
        let (world, _, b, later) = try Self.laterWork(editing: ["two.md"])
        defer { world.remove() }
        _ = try SyncUndo.run(b.vault, environment: b.environment("2026-11-29T12:05:00Z"))
        #expect(try b.read("one.md") == Self.base)
        #expect(try b.read("two.md") == later["two.md"])
    }

    /// An uncommitted edit of a file the undone merge did not touch stays as it is.
    @Test func undoKeepsAnUncommittedEditOfAnotherNote() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base, "two.md": Self.two])
        defer { world.remove() }
        try a.write(Self.base.replacingOccurrences(of: "Para one.", with: "Para one from a."), to: "one.md")
        try a.sync("2026-11-29T12:00:00Z")
        try b.write("b\n", to: "b.txt")
        try b.sync("2026-11-29T12:01:00Z")
        let draft = Self.two.replacingOccurrences(of: "Two.", with: "Two, a draft.")
        try b.write(draft, to: "two.md")
        _ = try SyncUndo.run(b.vault, environment: b.environment("2026-11-29T12:05:00Z"))
        #expect(try b.read("one.md") == Self.base)
        #expect(try b.read("two.md") == draft)
        #expect(try b.git(["status", "--porcelain"]) == "M two.md")
    }

    /// A restore at a revision refuses to write over an uncommitted edit; forced, it keeps the
    /// edit in the trash first.
    @Test func restoreAtNeverOverwritesUncommittedEditsUnasked() throws {
        let (world, a, _) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        let first = try a.git(["rev-parse", "HEAD"])
        try a.write(Self.base.replacingOccurrences(of: "Para one.", with: "Para one, v2."), to: "one.md")
        try a.sync("2026-11-29T12:01:00Z")
        let draft = Self.base.replacingOccurrences(of: "Para three.", with: "Para three, unsynced draft.")
        try a.write(draft, to: "one.md")
        let now = try Self.date("2026-11-29T12:05:00Z")
        #expect(throws: KitError.unsyncedChanges(path: "one.md")) {
            try NoteRestore.run(.init(path: "one.md", source: .revision(first), now: now), vault: a.vault)
        }
        #expect(try a.read("one.md") == draft)
        let forced = try NoteRestore.run(.init(path: "one.md", source: .revision(first), force: true, now: now), vault: a.vault)
        #expect(forced.keptCopy == ".quire/local/trash/20261129T120500Z/one.md")
        #expect(try a.read(".quire/local/trash/20261129T120500Z/one.md") == draft)
        #expect(try a.read("one.md").hasSuffix("Para one.\n\nPara two.\n\nPara three.\n"))
    }

    /// `restore --conflict` applies the losing version's own change three ways onto the note as
    /// it is now; `whole` replaces the note, and refuses over an uncommitted edit unless forced.
    @Test func restoreConflictAppliesTheLosingChangesOntoTheCurrentNote() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        let fromA = Self.base.replacingOccurrences(of: "Para one.", with: "Para one from a.").replacingOccurrences(of: "10:00:00Z", with: "11:00:00Z")
        try a.write(fromA, to: "one.md")
        try a.sync("2026-11-29T12:00:00Z")
        let fromB = Self.base.replacingOccurrences(of: "Para one.", with: "Para one from b.")
            .replacingOccurrences(of: "Para three.", with: "Para three from b.").replacingOccurrences(of: "10:00:00Z", with: "11:30:00Z")
        try b.write(fromB, to: "one.md")
        try b.sync("2026-11-29T12:01:00Z")
        #expect(try b.read("one.md") == fromB, "b is newer: its words win the collision")
        let record = try #require(try b.conflicts().first)
        #expect(try b.conflicts().count == 1)
        let edited = fromB.replacingOccurrences(of: "Para two.", with: "Para two, edited later.")
        try b.write(edited, to: "one.md")
        let now = try Self.date("2026-11-29T12:05:00Z")
        let restored = try NoteRestore.run(.init(path: "one.md", source: .conflict(id: record.id, whole: false), now: now,
                                                 environment: b.environment("2026-11-29T12:05:00Z")), vault: b.vault)
        #expect(restored.origin == .conflict(id: record.id, losingSide: "a", applied: true))
        let text = try b.read("one.md")
        #expect(text.hasSuffix("Para one from a.\n\nPara two, edited later.\n\nPara three from b.\n"), "\(text)")
        #expect(text.contains("updatedAt: 2026-11-29T12:05:00Z"), "the note's own spelling of the time: \(text)")
        #expect(throws: KitError.unsyncedChanges(path: "one.md")) {
            try NoteRestore.run(.init(path: "one.md", source: .conflict(id: record.id, whole: true), now: now), vault: b.vault)
        }
        #expect(try b.read("one.md") == text)
        _ = try NoteRestore.run(.init(path: "one.md", source: .conflict(id: record.id, whole: true), force: true, now: now),
                                vault: b.vault)
        #expect(try b.read("one.md").hasSuffix("Para one from a.\n\nPara two.\n\nPara three.\n"))
    }

    /// A note deleted on one device comes back on the other from history (the version before its
    /// deletion, stamped), and travels back.
    @Test func aNoteDeletedOnAnotherDeviceIsRestoredFromHistory() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base, "two.md": Self.two])
        defer { world.remove() }
        let last = try a.git(["rev-parse", "HEAD"])
        try a.remove("two.md")
        try a.sync("2026-11-29T12:00:00Z")
        try b.sync("2026-11-29T12:01:00Z")
        #expect(!b.exists("two.md"))
        let deleted = try VaultHistory(vault: b.vault).deletedNotes()
        #expect(deleted.map(\.path) == ["two.md"])
        #expect(deleted.first?.device == "a")
        #expect(deleted.first?.lastCommit == CommitID(hex: last))
        let back = try NoteRestore.run(.init(path: "two.md", source: .deleted, now: try Self.date("2026-11-29T12:02:00Z")), vault: b.vault)
        #expect(back.origin == .beforeDeletion(CommitID(hex: last)))
        // Brought back from before its deletion: a change of its own, stamped.
        let expected = Self.two.replacingOccurrences(of: "2026-11-29T10:00:00Z", with: "2026-11-29T12:02:00Z")
        let restored = try b.read("two.md")
        #expect(restored == expected)
        try b.sync("2026-11-29T12:03:00Z")
        try a.sync("2026-11-29T12:04:00Z")
        #expect(try a.read("two.md") == expected)
    }

    /// History on either device credits each change to the device that made it, and follows a
    /// rename made on one device while the other edited the note.
    @Test func historyFollowsARenameMergedFromTheOtherDevice() throws {
        let original = kitNote("n1", title: "Plan", updated: "2026-11-29T10:00:00Z", body: "line 1\nline 2\n")
        let (world, a, b) = try KitWorld.pair(["plan.md": original])
        defer { world.remove() }
        let created = try a.git(["rev-parse", "HEAD"])
        try FileManager.default.moveItem(at: a.root.appendingPathComponent("plan.md"), to: a.root.appendingPathComponent("renamed.md"))
        try a.sync("2026-11-29T11:00:00Z")
        let renamed = try a.git(["rev-parse", "HEAD"])
        try b.write(kitNote("n1", title: "Plan", updated: "2026-11-29T11:30:00Z", body: "line 1 from b\nline 2\n"), to: "plan.md")
        try b.sync("2026-11-29T12:00:00Z")
        try #require(b.exists("renamed.md") && !b.exists("plan.md"))
        #expect(try b.read("renamed.md").contains("line 1 from b"))
        let edited = try b.git(["rev-parse", "HEAD^1"])
        let entries = try VaultHistory(vault: b.vault).changes(of: "renamed.md")
        let summary = entries.map { "\($0.commit.hex) \($0.path) \($0.change) \($0.device)" }
        #expect(summary.contains("\(renamed) renamed.md renamed a"), "\(summary)")
        #expect(summary.contains("\(edited) plan.md modified b"), "\(summary)")
        #expect(summary.last == "\(created) plan.md added a", "\(summary)")
        #expect(!entries.contains { $0.change == .renamed && $0.device == "b" }, "the merge renamed nothing")
        try a.sync("2026-11-29T12:10:00Z")
        #expect(try VaultHistory(vault: a.vault).changes(of: "renamed.md") == entries)
    }

    /// An older version of a note, read from history and restored at its revision, is stamped
    /// with the restore's time and travels to the other device.
    @Test func anOlderVersionComesBackAndTravels() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        let first = try a.git(["rev-parse", "HEAD"])
        try a.write(Self.base.replacingOccurrences(of: "Para one.", with: "Para one, rewritten."), to: "one.md")
        try a.sync("2026-11-29T12:00:00Z")
        let old = try VaultHistory(vault: a.vault).version(of: "one.md", at: String(first.prefix(8)))
        #expect(String(decoding: old.data, as: UTF8.self) == Self.base)
        let now = try Self.date("2026-11-29T12:30:00Z")
        let report = try NoteRestore.run(.init(path: "one.md", source: .revision(String(first.prefix(8))), now: now), vault: a.vault)
        #expect(report.origin == .commit(CommitID(hex: first)))
        #expect(report.keptCopy == nil)
        let expected = Self.base.replacingOccurrences(of: "2026-11-29T10:00:00Z", with: "2026-11-29T12:30:00Z")
        let restored = try a.read("one.md")
        #expect(restored == expected)
        try a.sync("2026-11-29T12:31:00Z")
        try b.sync("2026-11-29T12:32:00Z")
        #expect(try b.read("one.md") == expected)
    }
}
