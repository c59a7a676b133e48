import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// Ctrl-C during `quire sync` (issue 21). Before the fix a SIGINT killed the sync wherever it was:
/// the temporary files of the notes being written (`.quire-tmp-*`, beside the notes) stayed, and
/// the next sync committed and pushed them to every device; `quire check` saw nothing and
/// `quire status` said "ok" with the work tree half-updated. Now temporaries live in
/// `.quire/local/tmp/` and are never committed, leftovers are removed, a signal stops the sync at
/// its next safe point with exit 130 (SIGINT) or 143 (SIGTERM), and status and check say so.
@Suite struct SyncInterruptTests {
    static let base = note("n1", title: "Shared", updated: "2026-11-29T10:00:00Z", body: "line 1\nline 2\n")
    static let other = note("n2", title: "Other", updated: "2026-11-29T10:00:00Z", body: "other\n")

    /// Every vault-relative file (outside `.git`) that is a temporary file: named `.quire-tmp-*`,
    /// or anything in `.quire/local/tmp/`.
    static func temporaries(in root: URL) -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: root.path) else { return ["(unreadable)"] }
        var found: [String] = []
        while let path = walk.nextObject() as? String {
            if path == ".git" { walk.skipDescendants(); continue }
            let name = (path as NSString).lastPathComponent
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isFolder)
            if name.hasPrefix(".quire-tmp") || (path.hasPrefix(".quire/local/tmp/") && !isFolder.boolValue) {
                found.append(path)
            }
        }
        return found.sorted()
    }

    /// The paths of a tree that a sync must never commit.
    static func junk(inTree listing: String) -> [String] {
        listing.split(separator: "\n").map(String.init)
            .filter { $0.contains(".quire-tmp") || $0.hasPrefix(".quire/local/") }
    }

    struct Case: CustomStringConvertible, Sendable {
        var point: String
        var signal: Int32
        var description: String { "\(point) \(signal == SIGINT ? "SIGINT" : "SIGTERM")" }
    }

    static let cases = [
        Case(point: "after-stamp", signal: SIGINT), Case(point: "after-commit", signal: SIGTERM),
        Case(point: "after-fetch", signal: SIGINT), Case(point: "during-merge", signal: SIGTERM),
        // Inside the work-tree update (a critical section): the sync finishes the update and
        // stops at the next safe point, before pushing.
        Case(point: "before-checkout", signal: SIGINT), Case(point: "before-ref-update", signal: SIGTERM),
        Case(point: "before-push", signal: SIGINT),
    ]

    @Test(arguments: cases)
    func aSignalStopsTheSyncAtASafePointAndTheNextSyncFinishesIt(_ scenario: Case) throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["shared.md": Self.base, "other.md": Self.other])
        // Incoming: b changes other.md. Local: a changes shared.md (stamped from its mtime).
        let theirs = note("n2", title: "Other", updated: "2026-11-29T11:00:00Z", body: "other from b\n")
        try b.write(theirs, to: "other.md")
        try b.sync(now: "2026-11-29T11:10:00Z")
        try a.write(note("n1", title: "Shared", updated: "2026-11-29T10:00:00Z", body: "line 1 from a\nline 2\n"), to: "shared.md")
        try a.touch("shared.md", "2026-11-29T11:20:00Z")

        let (run, stopped) = try a.runStopping(at: scenario.point, ["sync"], now: "2026-11-29T11:30:00Z",
                                                signal: scenario.signal) {}
        try #require(stopped, "the sync never reached \(scenario.point): \(run.stderr)")
        let name = scenario.signal == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(run.code == (scenario.signal == SIGINT ? 130 : 143), "\(run.code) \(run.stderr)")
        #expect(run.stderr.contains("quire: error: interrupted by \(name)"), "\(run.stderr)")
        #expect(run.stderr.contains("hint: run 'quire sync' to finish it"), "\(run.stderr)")

        // Nothing half-done: no temporary file anywhere, none committed, nothing pushed.
        #expect(Self.temporaries(in: a.root) == [])
        #expect(Self.junk(inTree: try a.git(["ls-tree", "-r", "--name-only", "HEAD"]).stdout) == [])
        #expect(Self.junk(inTree: try world.git(["ls-tree", "-r", "--name-only", "main"]).stdout) == [])
        #expect(try world.git(["show", "main:shared.md"]).stdout == Self.base)
        let check = try a.run(["check"])
        #expect(check.code == 0, "\(check.stdout)")
        let status = try a.run(["status"])
        #expect(status.stdout.contains("— interrupted"), "\(status.stdout)")
        #expect(status.stdout.contains("run 'quire sync' to finish the interrupted sync"), "\(status.stdout)")

        // The next sync finishes: both changes on both sides, the vault consistent.
        try a.sync(now: "2026-11-29T11:40:00Z")
        try b.sync(now: "2026-11-29T11:50:00Z")
        #expect(try a.read("other.md") == theirs)
        #expect(try world.git(["show", "main:shared.md"]).stdout == (try a.read("shared.md")))
        #expect(try a.read("shared.md").contains("line 1 from a"))
        #expect(try b.read("shared.md") == (try a.read("shared.md")))
        #expect(try a.git(["status", "--porcelain"]).stdout == "")
        #expect(Self.junk(inTree: try world.git(["ls-tree", "-r", "--name-only", "main"]).stdout) == [])
        let after = try a.run(["status", "--json"])
        #expect(after.stdout.contains("\"interrupted\": false") || after.stdout.contains("\"interrupted\":false"), "\(after.stdout)")
        #expect(try a.run(["check"]).code == 0)
    }

    /// A process id no process has: a child that ran and was reaped.
    static func deadProcessID() throws -> pid_t {
        let pid = try spawn(["/bin/true"])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return pid
    }

    @Test func leftoverTemporaryFilesAreReportedNeverCommittedAndRemovedByTheNextSync() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["notes/shared.md": Self.base])
        let dead = try Self.deadProcessID()
        // What a killed quire left: temporaries beside a note (older versions) and in .quire/local/tmp.
        let strays = ["notes/.quire-tmp-\(dead)-1", ".quire-tmp-\(dead)-2", ".quire/local/tmp/.quire-tmp-\(dead)-3"]
        for path in strays { try a.write(Self.base, to: path) }
        // One of a live writer (this test process) is neither reported nor removed, nor committed.
        let live = "notes/.quire-tmp-\(getpid())-4"
        try a.write(Self.base, to: live)

        let check = try a.run(["check"])
        #expect(check.code == 1)
        for path in strays {
            #expect(check.stdout.contains("\(path): temporary file left by an interrupted quire"), "\(check.stdout)")
        }
        #expect(!check.stdout.contains(live))
        #expect(try a.run(["check", "--json"]).stdout.contains("\"temporaryFile\""))
        #expect(try a.run(["status"]).stdout.contains("no uncommitted changes"))

        try a.write(note("n1", title: "Shared", updated: "2026-11-29T11:00:00Z", body: "edited\n"), to: "notes/shared.md")
        try a.sync(now: "2026-11-29T11:10:00Z")
        #expect(Self.junk(inTree: try a.git(["ls-tree", "-r", "--name-only", "HEAD"]).stdout) == [])
        #expect(Self.junk(inTree: try world.git(["ls-tree", "-r", "--name-only", "main"]).stdout) == [])
        #expect(try world.git(["show", "main:notes/shared.md"]).stdout.contains("edited"))
        #expect(Self.temporaries(in: a.root) == [live])
        #expect(try a.run(["check"]).code == 0)
    }

    /// Temporaries an older quire committed (and pushed to every device) are deleted by the next
    /// sync, which commits their deletion.
    @Test func temporaryFilesAnOlderQuireCommittedAreDeletedEverywhere() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["notes/shared.md": Self.base])
        let strays = ["notes/.quire-tmp-4242-1", ".quire-tmp-4242-2"]
        for path in strays { try a.write(Self.base, to: path) }
        try #require(try a.git(["add", "-f"] + strays).code == 0)
        try #require(try a.git(["commit", "-q", "-m", "an older quire committed its temporaries"]).code == 0)
        try #require(try a.git(["push", "-q", "origin", "main"]).code == 0)
        try b.sync(now: "2026-11-29T11:00:00Z")

        let check = try b.run(["check"])
        #expect(check.code == 1)
        for path in strays { #expect(check.stdout.contains("\(path): temporary file left by an interrupted quire"), "\(check.stdout)") }
        // They are no notes: the summary counts them apart (it said "2 problems in 2 of 1 note").
        #expect(check.stdout.hasSuffix("2 problems in 0 of 1 note and 2 other files\n"), "\(check.stdout)")
        try b.sync(now: "2026-11-29T11:10:00Z")
        #expect(Self.junk(inTree: try world.git(["ls-tree", "-r", "--name-only", "main"]).stdout) == [])
        #expect(Self.temporaries(in: b.root) == [])
        try a.sync(now: "2026-11-29T11:20:00Z")
        #expect(Self.temporaries(in: a.root) == [])
        #expect(Self.junk(inTree: try a.git(["ls-tree", "-r", "--name-only", "HEAD"]).stdout) == [])
        #expect(try a.run(["check"]).code == 0)
        #expect(try b.run(["check"]).code == 0)
    }

    @Test func statusSaysASyncStoppedInsideItsWorkTreeUpdateAndThatSyncFinishesIt() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["shared.md": Self.base])
        try b.write(note("n1", title: "Shared", updated: "2026-11-29T11:00:00Z", body: "from b\n"), to: "shared.md")
        try b.sync(now: "2026-11-29T11:10:00Z")
        let crashed = try a.run(["sync"], now: "2026-11-29T11:20:00Z", environment: ["QUIRE_FAULT": "before-ref-update:kill"])
        try #require(crashed.code != 0)

        let status = try a.run(["status"])
        #expect(status.stdout.contains("last sync: interrupted while updating the notes"), "\(status.stdout)")
        #expect(status.stdout.contains("run 'quire sync' to finish the interrupted sync"), "\(status.stdout)")
        #expect(!status.stdout.contains("— ok"), "\(status.stdout)")
        let json = try a.run(["status", "--json"]).stdout.replacingOccurrences(of: " ", with: "")
        #expect(json.contains("\"interrupted\":true"), "\(json)")
        #expect(json.contains("\"lastOutcome\":\"interrupted\""), "\(json)")

        try a.sync(now: "2026-11-29T11:30:00Z")
        let after = try a.run(["status"])
        #expect(after.stdout.contains("— ok"), "\(after.stdout)")
        #expect(!after.stdout.contains("interrupted"), "\(after.stdout)")
        #expect(try a.read("shared.md").contains("from b"))
    }

    /// Ctrl-C during a push or a fetch stops the transfer itself (it ran to its end before, ~30 s
    /// on a slow uplink, and a push then reported success with exit 0); the next sync finishes.
    @Test(arguments: ["during-push", "during-fetch"])
    func anInterruptStopsATransferInFlight(point: String) throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["n.md": Self.base])
        let device = point == "during-push" ? a : b
        try a.write(Self.base + "line 3 from a\n", to: "n.md")
        if point == "during-fetch" { try a.sync(now: "2026-11-29T12:01:00Z") }
        let environment = Harness.environment(home: world.directory.appendingPathComponent(".test-home"),
                                              extra: ["QUIRE_DEVICE": device.name, "QUIRE_FAULT": "\(point):stop"])
        let (run, stopped) = try runUntilStopped([Harness.binary.path, "sync"], in: device.root, environment: environment,
                                                 signal: SIGINT, whileStopped: {})
        try #require(stopped, "the sync never reached its pause: \(run.stderr)")
        #expect(run.code == 130, "\(run.stderr)")
        #expect(run.stderr.contains("interrupted by SIGINT while \(point == "during-push" ? "pushing" : "fetching")"), "\(run.stderr)")
        let again = try device.sync(now: "2026-11-29T12:02:00Z")
        #expect(again.code == 0, "\(again.stderr)")
        try b.sync(now: "2026-11-29T12:03:00Z")
        #expect(try b.read("n.md").contains("line 3 from a"))
    }

    /// Ctrl-C during `quire clone` stops it and removes what it made, saying so (killed at once
    /// it left a folder holding only `.git`, which a second clone refused, with no word).
    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptedCloneLeavesNothingBehind(signal: Int32) throws {
        let world = try SyncWorld()
        _ = try world.first("a", notes: ["n.md": Self.base])
        let environment = Harness.environment(home: world.directory.appendingPathComponent(".test-home"),
                                              extra: ["QUIRE_DEVICE": "b", "QUIRE_FAULT": "clone-after-fetch:stop"])
        let (run, stopped) = try runUntilStopped([Harness.binary.path, "clone", world.remoteURL, "b"], in: world.directory,
                                                 environment: environment, signal: signal, whileStopped: {})
        try #require(stopped, "the clone never reached its pause: \(run.stderr)")
        #expect(run.code == (signal == SIGINT ? 130 : 143), "\(run.stderr)")
        #expect(run.stderr.contains("quire: error: the clone was stopped by \(signal == SIGINT ? "SIGINT" : "SIGTERM"); nothing was left in b"),
                "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: world.folder("b").path))
        _ = try world.clone("b")  // and a clone afterwards works
    }
}
