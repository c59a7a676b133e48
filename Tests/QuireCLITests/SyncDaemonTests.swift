import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `quire watch --sync` end to end: real file events, real remotes (a path, a git daemon on
/// loopback), the built binary as a background process with short intervals.
@Suite("sync daemon", .serialized)
struct SyncDaemonTests {
    @Test func editsTravelByThemselvesAndPeopleAreNotInTheWay() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["start.md": noteText("title: Start")])
        let daemonA = try DaemonProcess(a)
        let daemonB = try DaemonProcess(b)

        // One daemon per vault.
        let second = try a.run(["watch", "run", "--sync"], environment: ["QUIRE_NOW": ""])
        #expect(second.code == 7 && second.stderr.contains("already runs"), "\(second.stderr)")

        // An edit made outside quire reaches the remote and the other device by itself; the
        // editor's swap file next to it never does.
        try a.write(".swap\n", to: "Deep/New/.one.md.swp")
        try a.write(noteText("title: One", body: "Written on a.\n"), to: "Deep/New/one.md")
        try waitUntil("one.md reached the remote") { try world.remoteFile("Deep/New/one.md") != nil }
        try waitUntil("one.md arrived on b") { b.exists("Deep/New/one.md") }
        #expect(try world.remoteFile("Deep/New/.one.md.swp") == nil)
        #expect(!b.exists("Deep/New/.one.md.swp"))

        // A change from b arrives on a.
        try b.write(noteText("title: One", body: "Rewritten on b.\n"), to: "Deep/New/one.md")
        try waitUntil("b's edit arrived on a") { try a.read("Deep/New/one.md").contains("Rewritten on b.") }

        // A git command holding the index: the daemon skips and tries again, without an error.
        try a.write("", to: ".git/index.lock")
        try a.write(noteText("title: Two"), to: "two.md")
        try waitUntil("the daemon skipped a cycle") { daemonA.log.contains("skipped: a git command is working on the vault") }
        try FileManager.default.removeItem(at: a.root.appendingPathComponent(".git/index.lock"))
        try waitUntil("two.md reached the remote") { try world.remoteFile("two.md") != nil }

        // A sync by hand while the daemon runs succeeds (it waits for the daemon's cycle).
        try a.write(noteText("title: Three"), to: "three.md")
        let manual = try a.run(["sync"], environment: ["QUIRE_NOW": ""])
        #expect(manual.code == 0, "\(manual.stderr)")

        // Health: running, a last cycle, the next fetch; one log line per cycle in the file. (A
        // cycle due while the sync by hand ran was skipped and is tried again.)
        try waitUntil("a cycle after the sync by hand") { daemonA.health()?["lastResult"] as? String == "ok" }
        let health = try #require(daemonA.health())
        #expect(health["running"] as? Bool == true)
        #expect(health["pid"] as? Int == Int(daemonA.pid))
        #expect(health["lastResult"] as? String == "ok")
        #expect(health["nextFetch"] is String)
        #expect(try a.run(["watch", "status"]).stdout.contains("it also syncs the vault by itself"))
        let text = try a.run(["status"]).stdout
        #expect(text.contains("sync daemon: running since") && text.contains("next fetch:"), "\(text)")
        let logFile = try a.read(".quire/local/log")
        #expect(logFile.contains("sync ok: committed"))

        #expect(daemonA.stop(SIGTERM) == 0, "\(daemonA.log)")
        #expect(daemonB.stop(SIGINT) == 0, "\(daemonB.log)")
        let after = try #require(DaemonProcess.healthOf(a))
        #expect(after["running"] as? Bool == false)
        #expect(try a.run(["status"]).stdout.contains("sync daemon: not running"))
        #expect(try a.git(["status", "--porcelain"]).stdout == "?? Deep/New/.one.md.swp\n")
    }

    @Test func twoDaemonsEditingTheSameNotesConvergeWithNothingLost() throws {
        let world = try SyncWorld()
        let shared = "First paragraph.\n\nMiddle.\n\nLast paragraph.\n"
        let (a, b) = try world.pair(["shared.md": noteText("title: Shared", body: shared),
                                     "clash.md": noteText("title: Clash", body: "Original line.\n")])
        let daemonA = try DaemonProcess(a)
        let daemonB = try DaemonProcess(b)
        // Both edit at once: disjoint paragraphs of one note, the same line of another, and new notes.
        try a.write(noteText("title: Shared", body: "First paragraph, edited on a.\n\nMiddle.\n\nLast paragraph.\n"), to: "shared.md")
        try b.write(noteText("title: Shared", body: "First paragraph.\n\nMiddle.\n\nLast paragraph, edited on b.\n"), to: "shared.md")
        try a.write(noteText("title: Clash", body: "Line from a.\n"), to: "clash.md")
        try b.write(noteText("title: Clash", body: "Line from b.\n"), to: "clash.md")
        for index in 1...3 {
            try a.write(noteText("title: A\(index)"), to: "from-a/\(index).md")
            try b.write(noteText("title: B\(index)"), to: "from-b/\(index).md")
        }
        try waitUntil("both devices hold the same files as the remote") {
            let head = { (device: Device) in try device.git(["rev-parse", "HEAD"]).stdout }
            let remote = try world.git(["rev-parse", "main"]).stdout
            guard try head(a) == remote, try head(b) == remote, try a.files() == b.files() else { return false }
            return try a.git(["status", "--porcelain"]).stdout.isEmpty && b.git(["status", "--porcelain"]).stdout.isEmpty
        }
        #expect(daemonA.stop() == 0)
        #expect(daemonB.stop() == 0)
        let merged = try a.read("shared.md")
        #expect(merged.contains("First paragraph, edited on a.") && merged.contains("Last paragraph, edited on b."))
        for index in 1...3 {
            #expect(a.exists("from-a/\(index).md") && a.exists("from-b/\(index).md"))
        }
        // The clash: one line won, the other is listed by quire conflicts and can be shown.
        let clash = try a.read("clash.md")
        let loser = clash.contains("Line from a.") ? "Line from b." : "Line from a."
        let conflicts = try a.run(["conflicts", "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(conflicts.stdout.utf8)) as? [[String: Any]])
        let record = try #require(list.first { $0["path"] as? String == "clash.md" }, "\(conflicts.stdout)")
        let shown = try a.run(["conflicts", "show", try #require(record["id"] as? String)])
        #expect(shown.stdout.contains(loser), "\(shown.stdout)")
    }

    @Test func theRemoteGoingAwayAndComingBackIsSurvivedWithTheBackoffInStatus() throws {
        let directory = try Harness.temporaryDirectory("quire-daemon-server")
        let port = GitServer.freePort()
        var server = try GitServer.start("daemon", directory: directory, port: port)
        defer { server.stop() }
        let bare = try server.makeRepository()
        let world = try SyncWorld(bare: bare, url: server.baseURL + "vault.git")
        let a = try world.first("a", notes: ["start.md": noteText("title: Start")])
        try a.write("syncBackoffStart: 0.3\n", to: ".quire/local/config.yml")
        let daemon = try DaemonProcess(a, settings: ["--debounce", "0.2", "--fetch-interval", "0.5", "--max-backoff", "1"])
        server.stop()
        try a.write(noteText("title: Offline"), to: "offline.md")
        try waitUntil("the daemon backs off") {
            guard let health = daemon.health() else { return false }
            return health["lastResult"] as? String == "offline" && (health["backoffSeconds"] as? Int ?? 0) >= 1
                && health["lastError"] is String && health["lastErrorAt"] is String
        }
        let status = try a.run(["status"]).stdout
        #expect(status.contains("backing off:") && status.contains("last error"), "\(status)")
        // The local commit is kept meanwhile.
        #expect(try a.git(["log", "--format=%s", "-1", "--", "offline.md"]).stdout.isEmpty == false)
        server = try GitServer.start("daemon", directory: directory, port: port)
        try waitUntil("offline.md reached the remote once it answered") { try world.remoteFile("offline.md") != nil }
        try waitUntil("the backoff is over") { daemon.health()?["lastResult"] as? String == "ok" }
        #expect(daemon.health()?["backoffSeconds"] as? Int == 0)
        #expect(daemon.stop() == 0)
        #expect(daemon.log.contains("sync offline:"))
    }

    @Test func anUnknownHostKeyStopsRetryingUntilTheSettingsAreReloaded() throws {
        let server = try GitServer.start("ssh")
        defer { server.stop() }
        let bare = try server.makeRepository()
        let home = try SyncTransportTests.sshHome(server, trusted: true)
        let world = try SyncWorld(bare: bare, url: server.baseURL + "vault.git")
        let a = try world.first("a", notes: ["start.md": noteText("title: Start")], environment: ["HOME": home.path])
        let knownHosts = home.appendingPathComponent(".ssh/known_hosts")
        let saved = try Data(contentsOf: knownHosts)
        try FileManager.default.removeItem(at: knownHosts)
        let daemon = try DaemonProcess(a, environment: ["HOME": home.path])
        try waitUntil("the daemon stopped for the user") { daemon.health()?["stoppedBecause"] as? String == "authentication failed" }
        let health = try #require(daemon.health())
        #expect(health["nextFetch"] is NSNull && (health["lastError"] as? String)?.contains("known_hosts") == true, "\(health)")
        let status = try a.run(["status"]).stdout
        #expect(status.contains("stopped retrying: authentication failed"), "\(status)")
        // It does not retry by itself: a change waits.
        try a.write(noteText("title: Waiting"), to: "waiting.md")
        try waitUntil("the change is pending") { daemon.health()?["pendingChanges"] as? Int == 1 }
        #expect(try world.remoteFile("waiting.md") == nil)
        // Trusting the host and syncing by hand resumes it.
        try saved.write(to: knownHosts)
        let manual = try a.run(["sync"], environment: ["HOME": home.path, "QUIRE_NOW": ""])
        #expect(manual.code == 0, "\(manual.stderr)")
        try waitUntil("the daemon resumed after the sync by hand") { daemon.health()?["stoppedBecause"] is NSNull }
        #expect(try world.remoteFile("waiting.md") != nil)
        // Stopped again; trusting the host and reloading (SIGHUP) resumes it too.
        try FileManager.default.removeItem(at: knownHosts)
        try a.write(noteText("title: Later"), to: "later.md")
        try waitUntil("stopped again") { daemon.health()?["stoppedBecause"] as? String == "authentication failed" }
        try saved.write(to: knownHosts)
        kill(daemon.pid, SIGHUP)
        try waitUntil("later.md reached the remote") { try world.remoteFile("later.md") != nil }
        #expect(daemon.health()?["stoppedBecause"] is NSNull)
        #expect(daemon.stop() == 0)
        #expect(daemon.log.contains("not retrying until the settings change"))
    }

    @Test func sigtermDuringASyncFinishesItAndTwoStopItAtASafePoint() throws {
        for signals in [1, 2] {
            let world = try SyncWorld()
            let a = try world.first("a", notes: ["start.md": noteText("title: Start")])
            let daemon = try DaemonProcess(a, environment: ["QUIRE_FAULT": "before-push:stop"])
            try a.write(noteText("title: Late"), to: "late.md")
            try waitUntil("the cycle stopped before its push") { DaemonProcess.isStopped(daemon.pid) }
            for _ in 0..<signals { kill(daemon.pid, SIGTERM) }
            try waitUntil("SIGTERM is pending for the stopped daemon") { DaemonProcess.isPending(SIGTERM, daemon.pid) }
            // Waited for with no other SIGTERM (`stop()` sent one more: a daemon slow to push
            // after SIGCONT then had two, stopped before the push, and one signal looked like two).
            kill(daemon.pid, SIGCONT)
            #expect(daemon.stop(SIGCONT) == 0, "\(daemon.log)")
            // One signal: the cycle finished (pushed). Two: it stopped at its safe point, before
            // the push. Either way the vault is consistent and the next sync goes on from there.
            #expect(try world.remoteFile("late.md") != nil || signals == 2)
            #expect(try a.git(["status", "--porcelain"]).stdout.isEmpty)
            #expect(try a.git(["fsck", "--no-progress"]).code == 0)
            let next = try a.sync(environment: ["QUIRE_NOW": ""])
            #expect(next.stdout.contains("nothing to commit"), "\(next.stdout)")
            #expect(try world.remoteFile("late.md") != nil)
        }
    }
}

/// `quire watch stop` returns once the process is gone (issue 36), or says it still runs.
@Suite("watch stop", .serialized)
struct WatchStopTests {
    @Test func stopReturnsWhenTheDaemonIsGone() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["start.md": noteText("title: Start")])
        let daemon = try DaemonProcess(a)
        try a.write(noteText("title: Late"), to: "late.md")
        let stopped = try a.run(["watch", "stop"], environment: ["QUIRE_NOW": ""])
        #expect(stopped.code == 0 && stopped.stdout.hasPrefix("stopped the watcher of "), "\(stopped.stdout)\(stopped.stderr)")
        // At once, with nothing waited for: the process has ended (a zombie until the test
        // reaps it) and its lock is free, so a restart cannot race it.
        let state = try String(contentsOfFile: "/proc/\(daemon.pid)/stat", encoding: .utf8)
        #expect(state.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") == true, "\(state)")
        #expect(DaemonProcess.healthOf(a)?["running"] as? Bool == false)
        #expect(daemon.stop() == 0, "\(daemon.log)")
        #expect(try a.run(["watch", "stop"]).stdout.hasPrefix("no watcher runs for "))
    }

    @Test func stopGivesUpAfterItsTimeoutSayingSo() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["start.md": noteText("title: Start")])
        let daemon = try DaemonProcess(a, environment: ["QUIRE_FAULT": "before-push:stop"])
        try a.write(noteText("title: Late"), to: "late.md")
        try waitUntil("the cycle stopped before its push") { DaemonProcess.isStopped(daemon.pid) }
        let run = try a.run(["watch", "stop", "--timeout", "0.2"], environment: ["QUIRE_NOW": ""])
        #expect(run.code == 1)
        #expect(run.stderr.hasPrefix("quire: error: the watcher of \(a.root.resolvingSymlinksInPath().path) still runs 0.2 s after it was asked to stop (pid \(daemon.pid))\nhint: "),
                "\(run.stderr)")
        // It was sent SIGTERM: once it runs again, it finishes its cycle and ends.
        kill(daemon.pid, SIGCONT)
        #expect(daemon.stop(SIGCONT) == 0, "\(daemon.log)")
        #expect(try world.remoteFile("late.md") != nil)
        let usage = try a.run(["watch", "status", "--timeout", "3"])
        #expect(usage.code == 2)
    }
}

extension DaemonProcess {
    /// `quire status --json`'s daemon object of `device`.
    static func healthOf(_ device: Device) -> [String: Any]? {
        guard let run = try? device.run(["status", "--json"]),
              let object = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] else { return nil }
        return object["daemon"] as? [String: Any]
    }

    /// Whether process `pid` is stopped (SIGSTOP), from /proc.
    static func isStopped(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("T")
    }

    /// Whether `signal` waits to be delivered to process `pid` (sent to the process, or to one of
    /// its threads): the bit in `ShdPnd` or `SigPnd` of `/proc/<pid>/status`.
    static func isPending(_ signal: Int32, _ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        let bit = UInt64(1) << UInt64(signal - 1)
        return status.split(separator: "\n").contains { line in
            let fields = line.split(separator: ":", maxSplits: 1)
            guard fields.count == 2, fields[0] == "ShdPnd" || fields[0] == "SigPnd",
                  let mask = UInt64(fields[1].trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
            return mask & bit != 0
        }
    }
}
