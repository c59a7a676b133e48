import Foundation
import Testing

/// `quire undo` and `quire restore` at their edges (issue 13, items 10 and 12): backups named by
/// a clock far ahead, work synced after the sync being undone, uncommitted edits under a restore,
/// and a note removed then restored before the next sync. Two devices and a real bare remote.
/// (A clock set back, and later work on other files, in process: QuireKitTests'
/// SyncUndoRestoreScenarioTests.)
@Suite struct UndoRestoreEdgeTests {
    static let base = SyncMergeTests.base
    static let two = note("n2", title: "Two", updated: "2026-11-29T10:00:00Z", body: "Two.\n")

    /// Fifty backups named by a clock far ahead (as an older version named them on a device whose
    /// clock was wrong): before the fix the next merge's backup sorted first among them and was
    /// pruned at once, and undo took one of those. Now the new backup is the newest, the oldest
    /// are pruned, and undo takes back that merge.
    @Test func pruningAndUndoFollowTheSequenceNotTheClock() throws {
        let (a, b) = try SyncWorld().pair(["one.md": Self.base])
        let head = try b.git(["rev-parse", "HEAD"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for minute in 0..<50 {
            try #require(try b.git(["update-ref", "refs/quire/backup/20991231T23\(String(format: "%02d", minute))00Z", head]).code == 0)
        }
        try a.write("a1\n", to: "a1.txt")
        try a.sync(now: "2026-11-29T12:00:00Z")
        try b.write("b1\n", to: "b1.txt")
        try b.sync(now: "2026-11-29T12:01:00Z")
        let backups = try b.git(["for-each-ref", "--format=%(refname)", "refs/quire/backup/"]).stdout.split(separator: "\n")
        #expect(backups.count == 50)
        #expect(backups.contains("refs/quire/backup/n000001-20261129T120100Z"), "\(backups)")
        #expect(!backups.contains("refs/quire/backup/20991231T230000Z"), "the oldest is pruned")
        let undone = try b.run(["undo"], now: "2026-11-29T12:02:00Z")
        #expect(undone.stdout.contains("before the merge of n000001-20261129T120100Z"), "\(undone.stdout)\(undone.stderr)")
        #expect(!b.exists("a1.txt") && b.exists("b1.txt"))
    }

    /// A sync killed while it dropped the oldest backup leaves a lock file on that reference
    /// (`refs/quire/backup/<name>.lock`). Every later sync with a merge drops the oldest again,
    /// and failed on that file for good (exit 7, the merge not made). Now a lock in quire's own
    /// references is cleared as the branch's are (here two minutes old), and dropping an old
    /// backup never fails a sync: a fresh lock (a git command may hold it) is left, and so is
    /// that backup, for a later sync to drop.
    @Test(arguments: [-120.0, 0.0])
    func aLockAKilledSyncLeftOnABackupNeverBlocksTheSyncsAfterIt(age: Double) throws {
        let (a, b) = try SyncWorld().pair(["one.md": Self.base])
        let head = try b.git(["rev-parse", "HEAD"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for minute in 0..<50 {
            try #require(try b.git(["update-ref", "refs/quire/backup/20991231T23\(String(format: "%02d", minute))00Z", head]).code == 0)
        }
        let lock = b.root.appendingPathComponent(".git/refs/quire/backup/20991231T230000Z.lock")
        try Harness.write("", to: lock)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(age)], ofItemAtPath: lock.path)
        // A folder of such a name is nobody's lock: left alone, whatever its age.
        let folder = b.root.appendingPathComponent(".git/refs/quire/kept.lock")
        try Harness.write("", to: folder.appendingPathComponent("inside"))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-120)], ofItemAtPath: folder.path)
        try a.write("a1\n", to: "a1.txt")
        try a.sync(now: "2026-11-29T12:00:00Z")
        try b.write("b1\n", to: "b1.txt")
        let synced = try b.run(["sync"], now: "2026-11-29T12:01:00Z")
        #expect(synced.code == 0, "\(synced.stderr)")
        #expect(b.exists("a1.txt") && b.exists("b1.txt"))
        let stale = age < -60
        #expect(FileManager.default.fileExists(atPath: lock.path) == !stale)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("inside").path))
        let backups = try b.git(["for-each-ref", "--format=%(refname)", "refs/quire/backup/"]).stdout.split(separator: "\n")
        #expect(backups.count == (stale ? 50 : 51), "\(backups)")
        #expect(backups.contains("refs/quire/backup/20991231T230000Z") == !stale, "\(backups)")
    }

    /// `b` merges `a`'s change to one.md, then edits one.md and two.md itself and pushes.
    /// Returns both devices after `a` has synced that later work too.
    static func laterWork(editing paths: [String]) throws -> (Device, Device, [String: String]) {
        let (a, b) = try SyncWorld().pair(["one.md": base, "two.md": two])
        let fromA = base.replacingOccurrences(of: "Para one.", with: "Para one from a.")
        try a.write(fromA, to: "one.md")
        try a.sync(now: "2026-11-29T12:00:00Z")
        try b.write("b\n", to: "b.txt")
        try b.sync(now: "2026-11-29T12:01:00Z")
        var later: [String: String] = [:]
        if paths.contains("one.md") { later["one.md"] = fromA.replacingOccurrences(of: "Para two.", with: "Para two from b, later.") }
        if paths.contains("two.md") { later["two.md"] = two.replacingOccurrences(of: "Two.", with: "Two from b, later.") }
        for (path, text) in later { try b.write(text, to: path) }
        try b.sync(now: "2026-11-29T12:02:00Z")
        try a.sync(now: "2026-11-29T12:03:00Z")
        for (path, _) in later { later[path] = try b.read(path) }  // as stamped
        return (a, b, later)
    }

    /// Before the fix undo went back to the backup's whole tree: `b`'s later edit of one.md, already
    /// pushed and merged by `a`, was reverted without a word. Now undo names the file and stops;
    /// `--force` reverts it (and still keeps the later edit of a file the sync did not change).
    @Test func undoNeverSilentlyRevertsLaterSyncedWork() throws {
        let (a, b, later) = try Self.laterWork(editing: ["one.md", "two.md"])
        let head = try b.git(["rev-parse", "HEAD"]).stdout
        let refused = try b.run(["undo"], now: "2026-11-29T12:05:00Z")
        #expect(refused.code == 1)
        #expect(refused.stderr.hasPrefix("quire: error: undoing the sync of n000001-20261129T120100Z would also revert 1 later commit (already synced or yours) to one.md\n"),
                "\(refused.stderr)")
        #expect(refused.stderr.contains("hint: nothing was changed. 'quire undo --force'"))
        #expect(try b.git(["rev-parse", "HEAD"]).stdout == head)
        #expect(try b.read("one.md") == later["one.md"])
        let forced = try b.run(["undo", "--force"], now: "2026-11-29T12:06:00Z")
        #expect(forced.code == 0, "\(forced.stderr)")
        #expect(try b.read("one.md") == Self.base)
        #expect(try b.read("two.md") == later["two.md"], "changed later, not by the sync: kept")
        #expect(b.exists("b.txt"))
        try b.sync(now: "2026-11-29T12:07:00Z")
        try a.sync(now: "2026-11-29T12:08:00Z")
        #expect(try a.files() == b.files())
    }

    /// Before the fix `restore --at` wrote over uncommitted edits. Now it refuses; with `--force`
    /// it first keeps them in the trash.
    @Test func restoreAtNeverOverwritesUncommittedEditsUnasked() throws {
        let (a, _) = try SyncWorld().pair(["one.md": Self.base])
        let first = try a.git(["rev-parse", "HEAD"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try a.write(Self.base.replacingOccurrences(of: "Para one.", with: "Para one, v2."), to: "one.md")
        try a.sync(now: "2026-11-29T12:01:00Z")
        let draft = Self.base.replacingOccurrences(of: "Para three.", with: "Para three, unsynced draft.")
        try a.write(draft, to: "one.md")
        let refused = try a.run(["restore", "one.md", "--at", first])
        #expect(refused.code == 1)
        #expect(refused.stderr.hasPrefix("quire: error: one.md has changes not synced yet; restoring would overwrite them\nhint: "), "\(refused.stderr)")
        #expect(try a.read("one.md") == draft)
        let forced = try a.run(["restore", "one.md", "--at", first, "--force"], now: "2026-11-29T12:05:00Z")
        #expect(forced.code == 0, "\(forced.stderr)")
        #expect(forced.stdout.hasPrefix("kept your unsynced version of one.md in .quire/local/trash/20261129T120500Z/one.md\n"), "\(forced.stdout)")
        #expect(try a.read(".quire/local/trash/20261129T120500Z/one.md") == draft)
        #expect(try a.read("one.md").contains("Para one.\n\nPara two.\n\nPara three.\n"))
    }

    /// Before the fix `restore --conflict` replaced the whole note with the losing version: the
    /// winner's other changes and the user's later edit were gone. Now the losing version's own
    /// change is applied three ways onto the note as it is; `--whole` still replaces it (and,
    /// as `--at`, refuses over uncommitted edits without `--force`).
    @Test func restoreConflictAppliesTheLosingChangesOntoTheCurrentNote() throws {
        let (a, b) = try SyncWorld().pair(["one.md": Self.base])
        let fromA = Self.base.replacingOccurrences(of: "Para one.", with: "Para one from a.")
            .replacingOccurrences(of: "10:00:00Z", with: "11:00:00Z")
        try a.write(fromA, to: "one.md")
        try a.sync(now: "2026-11-29T12:00:00Z")
        let fromB = Self.base.replacingOccurrences(of: "Para one.", with: "Para one from b.")
            .replacingOccurrences(of: "Para three.", with: "Para three from b.").replacingOccurrences(of: "10:00:00Z", with: "11:30:00Z")
        try b.write(fromB, to: "one.md")
        try b.sync(now: "2026-11-29T12:01:00Z")
        #expect(try b.read("one.md") == fromB, "b is newer: its body wins the collision")
        let records = try SyncMergeTests.conflicts(b)
        try #require(records.count == 1, "\(records)")
        let id = try #require(records[0]["id"] as? String)
        let edited = fromB.replacingOccurrences(of: "Para two.", with: "Para two, edited later.")
        try b.write(edited, to: "one.md")
        let restored = try b.run(["restore", "one.md", "--conflict", id], now: "2026-11-29T12:05:00Z")
        #expect(restored.code == 0, "\(restored.stderr)")
        #expect(restored.stdout.contains("applied onto the current note"), "\(restored.stdout)")
        let text = try b.read("one.md")
        #expect(text.hasSuffix("Para one from a.\n\nPara two, edited later.\n\nPara three from b.\n"), "\(text)")
        #expect(text.contains("updatedAt: 2026-11-29T12:05:00Z"))
        let whole = try b.run(["restore", "one.md", "--conflict", id, "--whole"])
        #expect(whole.code == 1, "uncommitted edits: \(whole.stdout)")
        #expect(try b.read("one.md") == text)
        let forced = try b.run(["restore", "one.md", "--conflict", id, "--whole", "--force"], now: "2026-11-29T12:06:00Z")
        #expect(forced.code == 0, "\(forced.stderr)")
        #expect(try b.read("one.md").hasSuffix("Para one from a.\n\nPara two.\n\nPara three.\n"))
    }

    /// Before the fix a synced note removed with `quire rm` could not be restored until a sync had
    /// committed the deletion ("not a deleted note in history").
    @Test func removeThenRestoreBeforeTheNextSync() throws {
        let (a, _) = try SyncWorld().pair(["one.md": Self.base])
        #expect(try a.run(["rm", "one.md"]).code == 0)
        #expect(!a.exists("one.md"))
        let restored = try a.run(["restore", "one.md"])
        #expect(restored.code == 0, "\(restored.stderr)")
        #expect(restored.stdout.hasPrefix("restored one.md from the last commit"), "\(restored.stdout)")
        #expect(try a.read("one.md") == Self.base)
        #expect(try a.git(["status", "--porcelain"]).stdout.isEmpty)
    }
}
