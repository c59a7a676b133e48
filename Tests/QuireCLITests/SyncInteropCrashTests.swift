import Foundation
import Testing

/// The git CLI and quire on one remote; crashes at every point of the cycle (`QUIRE_FAULT`).
@Suite struct SyncInteropCrashTests {
    static let base = SyncMergeTests.base

    @Test func gitCLIAndQuireShareOneHistory() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["one.md": Self.base])
        let b = try world.clone("b")
        let cli = world.directory.appendingPathComponent("cli")
        try #require(try gitCLI(["clone", "-q", world.bare.path, cli.path], in: world.directory).code == 0)

        // The git CLI edits and pushes; quire merges it with a concurrent local edit.
        let fromCLI = Self.base.replacingOccurrences(of: "Para one.", with: "Para one, from git.")
            .replacingOccurrences(of: "10:00", with: "10:30")
        try Harness.write(fromCLI, to: cli.appendingPathComponent("one.md"))
        try #require(try gitCLI(["commit", "-qam", "edit from git"], in: cli).code == 0)
        try #require(try gitCLI(["push", "-q", "origin", "main"], in: cli).code == 0)
        try a.write(Self.base.replacingOccurrences(of: "status: draft", with: "status: done")
            .replacingOccurrences(of: "10:00", with: "11:00"), to: "one.md")
        try a.sync(now: "2026-11-29T12:01:00Z")
        let merged = fromCLI.replacingOccurrences(of: "status: draft", with: "status: done")
            .replacingOccurrences(of: "10:30", with: "11:00")
        #expect(try a.read("one.md") == merged)

        // b (a quire clone: merge driver registered) commits with the git CLI and pulls quire's merge.
        let driver = try b.git(["config", "merge.quire.driver"]).stdout
        #expect(driver.hasPrefix(Harness.binary.resolvingSymlinksInPath().path) || driver.contains("/quire merge-driver"))
        try b.write(Self.base.replacingOccurrences(of: "title: One", with: "title: Uno")
            .replacingOccurrences(of: "Para three.", with: "Para three, from b.")
            .replacingOccurrences(of: "10:00", with: "11:30"), to: "one.md")
        try #require(try b.git(["commit", "-qam", "edit on b with git"]).code == 0)
        let pull = try b.git(["pull", "--no-rebase", "--no-edit", "origin", "main"])
        #expect(pull.code == 0, "\(pull.stdout)\(pull.stderr)")
        let expected = note("n1", title: "Uno", updated: "2026-11-29T11:30:00Z", extra: "status: done\n",
                            body: "Para one, from git.\n\nPara two.\n\nPara three, from b.\n")
        #expect(try b.read("one.md") == expected)
        #expect(try b.git(["status", "--porcelain"]).stdout.isEmpty)
        let log = try b.git(["log", "--format=%s"]).stdout
        #expect(log.contains("quire sync on a: merged the changes of"))
        #expect(log.contains("edit from git"))
        #expect(try b.git(["fsck", "--strict"]).code == 0)

        try #require(try b.git(["push", "-q", "origin", "main"]).code == 0)
        try a.sync(now: "2026-11-29T12:05:00Z")
        #expect(try a.read("one.md") == expected)
        #expect(try a.headTree() == b.headTree())
        let fsck = try world.git(["fsck", "--strict"])
        #expect(fsck.code == 0, "\(fsck.stderr)")
        for (_, text) in try a.files() { #expect(!text.contains("<<<<<<<")) }
    }

    /// A repository whose branch is `master` (made by the git CLI): quire clones and syncs that
    /// branch, so git CLI users and quire see each other's commits.
    @Test func aMasterBranchIsSyncedAsMaster() throws {
        let world = try SyncWorld(bare: try Harness.temporaryDirectory("quire-master").appendingPathComponent("remote.git"))
        let cli = world.directory.appendingPathComponent("cli")
        try #require(try gitCLI(["init", "-q", "-b", "master", cli.path], in: world.directory).code == 0)
        try Harness.write(Self.base, to: cli.appendingPathComponent("one.md"))
        try #require(try gitCLI(["add", "-A"], in: cli).code == 0)
        try #require(try gitCLI(["commit", "-qm", "start"], in: cli).code == 0)
        try #require(try gitCLI(["push", "-q", world.bare.path, "master"], in: cli).code == 0)
        let b = try world.clone("b")
        #expect(try b.git(["symbolic-ref", "HEAD"]).stdout == "refs/heads/master\n")
        try b.write(note("n2", title: "Two", updated: "2026-11-29T11:00:00Z"), to: "two.md")
        try b.sync()
        #expect(try world.git(["branch", "--format=%(refname)"]).stdout == "refs/heads/master\n")
        try #require(try gitCLI(["pull", "-q", "--no-rebase", world.bare.path, "master"], in: cli).code == 0)
        #expect(FileManager.default.fileExists(atPath: cli.appendingPathComponent("two.md").path))
        try Harness.write("from git\n", to: cli.appendingPathComponent("git.txt"))
        try #require(try gitCLI(["add", "-A"], in: cli).code == 0)
        try #require(try gitCLI(["commit", "-qm", "from git"], in: cli).code == 0)
        try #require(try gitCLI(["push", "-q", world.bare.path, "master"], in: cli).code == 0)
        try b.sync()
        #expect(try b.read("git.txt") == "from git\n")
    }

    static let points = ["after-stamp", "after-commit", "before-fetch", "after-fetch", "during-merge",
                         "before-checkout", "before-ref-update", "before-push", "after-push"]

    /// A edits paragraph one and syncs; B edits paragraph three and its sync dies at `fault`; the
    /// next sync completes and both devices converge on both edits.
    @Test(arguments: points.flatMap { ["\($0):kill", $0] })
    func aCrashAtAnyPointIsRecovered(fault: String) throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["one.md": Self.base, "keep.md": note("k", title: "Keep", updated: "2026-11-29T10:00:00Z")])
        try a.write(Self.base.replacingOccurrences(of: "Para one.", with: "Para one, A.")
            .replacingOccurrences(of: "10:00", with: "11:00"), to: "one.md")
        try a.sync(now: "2026-11-29T12:00:00Z")
        try b.write(Self.base.replacingOccurrences(of: "Para three.", with: "Para three, B.")
            .replacingOccurrences(of: "10:00", with: "11:30"), to: "one.md")
        try b.write(note("n2", title: "Two", updated: "2026-11-29T11:30:00Z"), to: "two.md")
        let crashed = try b.run(["sync"], now: "2026-11-29T12:01:00Z", environment: ["QUIRE_FAULT": fault])
        #expect(crashed.code != 0)
        if !fault.hasSuffix(":kill") { #expect(crashed.stderr.contains("injected fault")) }
        try b.sync(now: "2026-11-29T12:02:00Z")
        try a.sync(now: "2026-11-29T12:03:00Z")
        try b.sync(now: "2026-11-29T12:04:00Z")
        let expected = note("n1", title: "One", updated: "2026-11-29T11:30:00Z", extra: "status: draft\n",
                            body: "Para one, A.\n\nPara two.\n\nPara three, B.\n")
        #expect(try a.read("one.md") == expected)
        #expect(try b.read("one.md") == expected)
        #expect(try a.read("two.md") == note("n2", title: "Two", updated: "2026-11-29T11:30:00Z"))
        #expect(try a.files() == b.files())
        #expect(try a.headTree() == b.headTree())
        #expect(try b.git(["status", "--porcelain"]).stdout.isEmpty)
        #expect(!b.exists(".quire/local/sync-journal.json"))
        #expect(try world.git(["fsck"]).code == 0)
    }

    /// The sync dies after writing the merge but before updating the work tree; the user then edits
    /// the note the merge changes. The edit is never overwritten and ends up merged and synced.
    @Test(arguments: ["before-checkout:kill", "before-ref-update:kill"])
    func anEditMadeDuringASyncSurvives(fault: String) throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["one.md": Self.base])
        try a.write(Self.base.replacingOccurrences(of: "Para one.", with: "Para one, A.")
            .replacingOccurrences(of: "10:00", with: "11:00"), to: "one.md")
        try a.sync(now: "2026-11-29T12:00:00Z")
        try b.write(Self.base.replacingOccurrences(of: "Para three.", with: "Para three, B.")
            .replacingOccurrences(of: "10:00", with: "11:30"), to: "one.md")
        let crashed = try b.run(["sync"], now: "2026-11-29T12:01:00Z", environment: ["QUIRE_FAULT": fault])
        #expect(crashed.code != 0)
        // The user edits paragraph two of whatever is on disk (another editor: updatedAt untouched).
        let onDisk = try b.read("one.md")
        try b.write(onDisk.replacingOccurrences(of: "Para two.", with: "Para two, typed during the sync."), to: "one.md")
        try b.touch("one.md", "2026-11-29T11:50:00Z")
        try b.sync(now: "2026-11-29T12:02:00Z")
        try a.sync(now: "2026-11-29T12:03:00Z")
        let expected = note("n1", title: "One", updated: "2026-11-29T11:50:00Z", extra: "status: draft\n",
                            body: "Para one, A.\n\nPara two, typed during the sync.\n\nPara three, B.\n")
        #expect(try b.read("one.md") == expected)
        #expect(try a.read("one.md") == expected)
        #expect(try a.headTree() == b.headTree())
        #expect(try b.git(["status", "--porcelain"]).stdout.isEmpty)
    }

    /// A dead quire's stale `.lock` in a local remote (killed while pushing) does not block the
    /// next sync (DESIGN.md §4 step 1).
    @Test func aStaleLockInALocalRemoteIsCleaned() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["one.md": Self.base])
        let lock = world.bare.appendingPathComponent("refs/heads/main.lock")
        try Harness.write("", to: lock)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -600)], ofItemAtPath: lock.path)
        try a.write(note("n2", title: "Two", updated: "2026-11-29T11:00:00Z"), to: "two.md")
        try a.sync()
        try b.sync()
        #expect(try b.read("two.md") == note("n2", title: "Two", updated: "2026-11-29T11:00:00Z"))
        #expect(!FileManager.default.fileExists(atPath: lock.path))
    }

    /// During a sync (killed before it updates the work tree) the user creates a note at a path
    /// the remote adds, and deletes a note the remote changes: nothing is lost on either side.
    @Test func aNoteCreatedOrDeletedDuringASyncLosesNothing() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["one.md": Self.base])
        let fromA = note("na", title: "New", updated: "2026-11-29T11:00:00Z", body: "From A.\n")
        let edited = Self.base.replacingOccurrences(of: "Para two.", with: "Para two, A.")
            .replacingOccurrences(of: "10:00", with: "11:00")
        try a.write(fromA, to: "new.md")
        try a.write(edited, to: "one.md")
        try a.sync(now: "2026-11-29T12:00:00Z")
        let crashed = try b.run(["sync"], now: "2026-11-29T12:01:00Z", environment: ["QUIRE_FAULT": "before-checkout:kill"])
        #expect(crashed.code != 0)
        let fromB = note("nb", title: "New", updated: "2026-11-29T11:30:00Z", body: "From B, typed during the sync.\n")
        try b.write(fromB, to: "new.md")
        try b.remove("one.md")
        try b.sync(now: "2026-11-29T12:02:00Z")
        try a.sync(now: "2026-11-29T12:03:00Z")
        #expect(try b.read("new.md") == fromB)
        #expect(try b.read("new-2.md") == fromA)
        #expect(try b.read("one.md") == edited)
        #expect(try a.files() == b.files())
    }

    /// Soak seed 1021 (an earlier build) found it: a sync killed after it wrote a note another
    /// device added, before the branch moved; the user moved the note; the next sync finished the
    /// update by writing the note again at its old path: two notes with one id (and later a
    /// losing version looked up by that id came from the wrong copy). Also for an attachment.
    @Test(arguments: ["Archive/incoming.md", "Archive/poster.txt"])
    func aFileTheInterruptedSyncAddedAndTheUserMovedIsNotWrittenAgain(path: String) throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["one.md": Self.base])
        let text = path.hasSuffix(".md") ? note("n9", title: "Incoming", updated: "2026-11-29T11:00:00Z") : "poster bytes\n"
        try b.write(text, to: path)
        try b.sync(now: "2026-11-29T12:00:00Z")
        let crashed = try a.run(["sync"], now: "2026-11-29T12:01:00Z", environment: ["QUIRE_FAULT": "before-ref-update:kill"])
        try #require(crashed.code != 0)
        try #require(try a.read(path) == text)
        let moved = "Journal/" + (path as NSString).lastPathComponent
        if path.hasSuffix(".md") {
            try #require(try a.run(["mv", path, "Journal"], now: "2026-11-29T12:02:00Z").code == 0)
        } else {
            try FileManager.default.createDirectory(at: a.vault.url("Journal"), withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: a.vault.url(path), to: a.vault.url(moved))
        }
        let finished = try a.sync(["--json"], now: "2026-11-29T12:03:00Z")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(finished.stdout.utf8)) as? [String: Any])
        #expect(report["committed"] as? [String] == ["R \(path) -> \(moved)"], "\(finished.stdout)")
        try b.sync(now: "2026-11-29T12:04:00Z")
        for device in [a, b] {
            #expect(!device.exists(path))
            #expect(try device.read(moved) == text)
        }
        #expect(try a.files() == b.files())
        #expect(try a.git(["status", "--porcelain"]).stdout.isEmpty)
    }
}
