import Foundation
import QuireCore
@testable import QuireKit
import QuireSync
import Testing

/// The sync daemon's cycles between two devices, in process: `SyncDaemon` on a vault synced
/// through a bare remote, its clock a number the test sets, each cycle run by the test when
/// `dueTime` says it is due. No waiting on the real clock or on another process. (The daemon as a
/// background process with real file events and signals: QuireCLITests' SyncDaemonTests.)
@Suite struct SyncDaemonScenarioTests {
    /// A daemon for `device` at clock 1000 (debounce 5 s, fetch every 60 s, no jitter), its log
    /// lines collected.
    static func daemon(_ device: KitDevice, now: String = "2026-11-29T12:00:00Z") throws -> (SyncDaemon, DaemonLines) {
        let lines = DaemonLines()
        let daemon = try SyncDaemon(vault: device.vault, environment: device.environment(now),
                                    overrides: ["syncDebounce": 5, "syncFetchInterval": 60]) { lines.append($0) }
        daemon.clock = { 1000 }
        daemon.jitter = { 1 }
        daemon.nextFetch = 1060
        return (daemon, lines)
    }

    @Test func aLocalEditIsCommittedAndPushedAfterTheDebounce() throws {
        let (world, a, b) = try KitWorld.pair(["start.md": kitNote("s", title: "Start", updated: "2026-11-29T10:00:00Z")])
        defer { world.remove() }
        let (daemon, lines) = try Self.daemon(a)
        var now = 1000.0
        daemon.clock = { now }
        try a.write(kitNote("o", title: "One", updated: "2026-11-29T10:00:00Z", body: "Written on a.\n"), to: "Deep/New/one.md")
        try a.write(".swap\n", to: "Deep/New/.one.md.swp")
        try daemon.takeChanges()
        #expect(!daemon.pending.isEmpty)
        #expect(!daemon.pending.keys.contains { $0.hasSuffix(".swp") }, "an editor's swap file never wakes the daemon")
        #expect(daemon.dueTime(now: now) == 1005, "five quiet seconds after the change")
        now = 1005
        daemon.runCycle()
        #expect(daemon.health.lastResult == "ok", "\(lines.text)")
        #expect(daemon.pending.isEmpty)
        #expect(try world.remoteFile("Deep/New/one.md") == a.read("Deep/New/one.md"))
        #expect(try world.remoteFile("Deep/New/.one.md.swp") == nil)
        #expect(lines.text.contains("sync ok: committed"), "\(lines.text)")
        try b.sync("2026-11-29T12:01:00Z")
        #expect(b.exists("Deep/New/one.md") && !b.exists("Deep/New/.one.md.swp"))
    }

    @Test func anotherDevicesEditArrivesAtTheNextFetch() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": kitNote("o", title: "One", updated: "2026-11-29T10:00:00Z")])
        defer { world.remove() }
        let (daemon, lines) = try Self.daemon(a)
        var now = 1000.0
        daemon.clock = { now }
        try b.write(kitNote("o", title: "One", updated: "2026-11-29T11:00:00Z", body: "Rewritten on b.\n"), to: "one.md")
        try b.sync("2026-11-29T12:01:00Z")
        try daemon.takeChanges()
        #expect(daemon.dueTime(now: now) == 1060, "nothing pending here: the fetch timer")
        now = 1060
        daemon.runCycle()
        #expect(daemon.health.lastResult == "ok", "\(lines.text)")
        #expect(try a.read("one.md").hasSuffix("Rewritten on b.\n"))
        #expect(daemon.nextFetch == 1120)
        try daemon.takeChanges()
        #expect(daemon.pending.isEmpty, "the files the cycle wrote are no reason for another one")
    }

    /// A git command holding the index makes the daemon skip its cycle and try again a debounce
    /// later, the change still waiting; then the change travels.
    @Test func aGitCommandInProgressIsWaitedFor() throws {
        let (world, a, _) = try KitWorld.pair(["start.md": kitNote("s", title: "Start", updated: "2026-11-29T10:00:00Z")])
        defer { world.remove() }
        let (daemon, lines) = try Self.daemon(a)
        var now = 1000.0
        daemon.clock = { now }
        try a.write("", to: ".git/index.lock")
        try a.write(kitNote("t", title: "Two", updated: "2026-11-29T10:00:00Z"), to: "two.md")
        try daemon.takeChanges()
        now = 1005
        daemon.runCycle()
        #expect(lines.text.contains("skipped: a git command is working on the vault"), "\(lines.text)")
        #expect(daemon.pending.keys.contains("two.md"), "the change still waits")
        #expect(try world.remoteFile("two.md") == nil)
        try a.remove(".git/index.lock")
        now = daemon.dueTime(now: now)
        daemon.runCycle()
        #expect(daemon.health.lastResult == "ok", "\(lines.text)")
        #expect(try world.remoteFile("two.md") != nil)
    }

    /// Two daemons editing the same notes converge: disjoint paragraphs merge, the same line goes
    /// to one side and the other is listed as a conflict on both devices, new notes all arrive.
    @Test func twoDaemonsEditingTheSameNotesConvergeWithNothingLost() throws {
        let shared = kitNote("sh", title: "Shared", updated: "2026-11-29T10:00:00Z",
                             body: "First paragraph.\n\nMiddle.\n\nLast paragraph.\n")
        let clash = kitNote("cl", title: "Clash", updated: "2026-11-29T10:00:00Z", body: "Original line.\n")
        let (world, a, b) = try KitWorld.pair(["shared.md": shared, "clash.md": clash])
        defer { world.remove() }
        let (daemonA, linesA) = try Self.daemon(a, now: "2026-11-29T12:00:00Z")
        // A daemon blocks the stop signals of the thread that makes it until it is released: b's,
        // made second, is released first, so the thread's signal mask ends as it began.
        try withExtendedLifetime(daemonA) {
            let (daemonB, linesB) = try Self.daemon(b, now: "2026-11-29T12:01:00Z")
            try a.write(shared.replacingOccurrences(of: "First paragraph.", with: "First paragraph, edited on a."), to: "shared.md")
            try b.write(shared.replacingOccurrences(of: "Last paragraph.", with: "Last paragraph, edited on b."), to: "shared.md")
            try a.write(clash.replacingOccurrences(of: "Original line.", with: "Line from a."), to: "clash.md")
            try b.write(clash.replacingOccurrences(of: "Original line.", with: "Line from b."), to: "clash.md")
            for index in 1...3 {
                try a.write(kitNote("a\(index)", title: "A\(index)", updated: "2026-11-29T10:00:00Z"), to: "from-a/\(index).md")
                try b.write(kitNote("b\(index)", title: "B\(index)", updated: "2026-11-29T10:00:00Z"), to: "from-b/\(index).md")
            }
            // Edited in another editor: stamped from the files' times, a's older than b's.
            for (device, time) in [(a, "2026-11-29T11:00:00Z"), (b, "2026-11-29T11:30:00Z")] {
                for path in ["shared.md", "clash.md"] { try device.touch(path, time) }
            }
            // a's cycle, b's (merging), a's fetch.
            for daemon in [daemonA, daemonB, daemonA] {
                try daemon.takeChanges()
                daemon.runCycle()
            }
            #expect(daemonA.health.lastResult == "ok" && daemonB.health.lastResult == "ok", "\(linesA.text)\n\(linesB.text)")
            #expect(try a.files() == b.files())
            #expect(try a.git(["rev-parse", "HEAD"]) == world.remoteHead())
            #expect(try a.git(["status", "--porcelain"]).isEmpty && b.git(["status", "--porcelain"]).isEmpty)
            let merged = try a.read("shared.md")
            #expect(merged.contains("First paragraph, edited on a.") && merged.contains("Last paragraph, edited on b."), "\(merged)")
            for index in 1...3 { #expect(a.exists("from-a/\(index).md") && a.exists("from-b/\(index).md")) }
            let record = try #require(try a.conflicts().first { $0.path == "clash.md" })
            #expect(try b.conflicts().map(\.id).contains(record.id))
            #expect(try a.read("clash.md").hasSuffix("Line from b.\n"), "b's edit is the newer")
            let loser = "Line from a."
            let losing = try ConflictLog(vaultRoot: a.root).losingVersion(of: record)
            #expect(losing.map { String(decoding: $0, as: UTF8.self) }?.contains(loser) == true)
            #expect(daemonB.health.conflicts.contains { $0.hasPrefix("clash.md: kept this device's version") },
                    "the daemon that merged tells its status: \(daemonB.health.conflicts)")
        }
    }

    /// A remote that cannot be found: the change is committed here, the daemon backs off, and
    /// the cycle when the backoff ends finds the remote back and pushes.
    @Test func theRemoteGoingAwayIsBackedOffAndItsReturnNoticed() throws {
        let (world, a, _) = try KitWorld.pair(["start.md": kitNote("s", title: "Start", updated: "2026-11-29T10:00:00Z")])
        defer { world.remove() }
        let (daemon, lines) = try Self.daemon(a)
        var now = 1000.0
        daemon.clock = { now }
        let away = world.directory.appendingPathComponent("away.git")
        try FileManager.default.moveItem(at: world.bare, to: away)
        try a.write(kitNote("l", title: "Late", updated: "2026-11-29T10:00:00Z"), to: "late.md")
        try daemon.takeChanges()
        now = 1005
        daemon.runCycle()
        #expect(daemon.health.lastResult == "remote not found", "\(lines.text)")
        #expect(daemon.failures == 1 && daemon.nextFetch == 1015)
        #expect(try a.git(["show", "--stat", "--format=", "HEAD"]).contains("late.md"), "committed here meanwhile")
        try FileManager.default.moveItem(at: away, to: world.bare)
        now = 1015
        daemon.runCycle()
        #expect(daemon.health.lastResult == "ok", "\(lines.text)")
        #expect(daemon.failures == 0)
        #expect(try world.remoteFile("late.md") != nil)
    }
}
