import Foundation
import QuireCore
@testable import QuireKit
import QuireGit
import QuireSync
import Testing

/// The sync daemon's rules that need no clock: when a cycle is due, the settings, the log's
/// rotation, the one-daemon lock. (End to end, with real events and remotes: SyncDaemonTests.)
@Suite final class SyncDaemonRulesTests {
    private let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("quirekit-daemon-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".quire"), withIntermediateDirectories: true)
        try Data("version: 1\n".utf8).write(to: root.appendingPathComponent(".quire/config.yml"))
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    private func daemon() throws -> SyncDaemon {
        try SyncDaemon(vault: Vault(at: root), environment: [:], overrides: ["syncDebounce": 5, "syncMaxDelay": 300,
                                                                               "syncFetchInterval": 60]) { _ in }
    }

    /// Two folders whose names differ only in Unicode normalization are two folders to the
    /// daemon's watch: removing one leaves the other watched.
    @Test func foldersEqualUnderNormalizationAreWatchedApart() throws {
        let composed = "R\u{E9}sum\u{E9}s"
        let decomposed = "Re\u{301}sume\u{301}s"
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".quire/local"), withIntermediateDirectories: true)
        // Each removed in turn (which one a table by `String` kept depends on the folder's order).
        for (removed, kept) in [(composed, decomposed), (decomposed, composed)] {
            for folder in [composed, decomposed] {
                try FileManager.default.createDirectory(at: root.appendingPathComponent(folder + "/Old"), withIntermediateDirectories: true)
            }
            let watch = try SyncTreeWatch(root: root.path, rules: nil)
            let before = watch.folderCount
            try FileManager.default.removeItem(at: root.appendingPathComponent(removed))
            _ = try watch.drain()
            #expect(watch.folderCount == (before - 2))
            try Data("x".utf8).write(to: root.appendingPathComponent(kept + "/Old/n.md"))
            let changed = try watch.drain().paths.map { Array($0.string.utf8) }
            #expect(changed.contains(Array((kept + "/Old/n.md").utf8)), "\(changed)")
            try FileManager.default.removeItem(at: root.appendingPathComponent(kept))
        }
    }

    /// An edit of a note whose name equals, under Unicode normalization, one the daemon's own
    /// cycle just wrote is the user's: it stays pending (it used to be dropped with the other).
    @Test func anEditBesideANameTheCycleWroteStaysPending() throws {
        let composed = "caf\u{E9}.md"
        let decomposed = "cafe\u{301}.md"
        let daemon = try daemon()
        try Data("cycle\n".utf8).write(to: root.appendingPathComponent(composed))
        try Data("user\n".utf8).write(to: root.appendingPathComponent(decomposed))
        try daemon.takeChanges(except: [ExactPath(composed)])
        #expect(daemon.pending.keys.map { Array($0.utf8) } == [Array(decomposed.utf8)])
    }

    @Test func debounceWaitsForQuietAndLongerWhileAFileKeepsChanging() throws {
        let daemon = try daemon()
        let now = 1000.0
        daemon.nextFetch = now + 60
        #expect(daemon.dueTime(now: now) == (now + 60), "nothing pending: the fetch timer")
        daemon.firstPending = now
        daemon.pending = ["a.md": (count: 1, last: now)]
        #expect(daemon.dueTime(now: now) == (now + 5), "five quiet seconds after the last change")
        daemon.pending = ["a.md": (count: 3, last: now)]
        #expect(daemon.dueTime(now: now) == (now + 10), "a file written again and again: twice as long")
        daemon.firstPending = now - 298
        #expect(daemon.dueTime(now: now) == (now + 2), "at the latest syncMaxDelay after the first change")
        daemon.health.stoppedBecause = "authentication failed"
        #expect(daemon.dueTime(now: now) == .infinity, "stopped for the user: only a signal or a sync by hand")
        daemon.health.stoppedBecause = nil
        daemon.notBefore = now + 30
        #expect(daemon.dueTime(now: now) == (now + 30), "after a skipped cycle: not before its retry")
    }

    /// A file that appears and vanishes within the debounce (an editor's temporary file of a
    /// name no rule knows) is never committed: its vanishing is a change too, so the cycle comes
    /// a whole debounce after it is gone. A scratch file of a known editor never wakes the daemon.
    @Test func aFileThatAppearsAndVanishesMakesTheCycleWaitUntilItIsGone() throws {
        let daemon = try daemon()
        let transient = root.appendingPathComponent("report.odt.tmp-4711")
        try Data("draft\n".utf8).write(to: transient)
        try daemon.takeChanges()
        let appeared = try #require(daemon.pending["report.odt.tmp-4711"]).last
        try FileManager.default.removeItem(at: transient)
        try daemon.takeChanges()
        let vanished = try #require(daemon.pending["report.odt.tmp-4711"]).last
        #expect(vanished >= appeared)
        daemon.nextFetch = vanished + 60
        #expect(daemon.dueTime(now: vanished) == (vanished + 5), "five quiet seconds after it vanished")
        for name in [".~lock.report.odt#", ".n.md.kate-swp", "n.md___jb_tmp___", ".goutputstream-AB12CD", ".n.md.swx", "5036"] {
            try Data("lock\n".utf8).write(to: root.appendingPathComponent(name))
            try daemon.takeChanges()
            #expect(daemon.pending[name] == nil, "\(name)")
        }
    }

    @Test func settingsFromTheConfigFilesAndTheirOrder() throws {
        try Data("version: 1\nsync: auto\nsyncDebounce: 2\nsyncFetchInterval: 30s\nsyncBackoffMax: -5\nsyncNotify: false\n".utf8)
            .write(to: root.appendingPathComponent(".quire/config.yml"))
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".quire/local"), withIntermediateDirectories: true)
        try Data("syncDebounce: 1.5\n".utf8).write(to: root.appendingPathComponent(".quire/local/config.yml"))
        let settings = try SyncDaemonSettings.load(Vault(at: root))
        #expect(settings.automatic)
        #expect(settings.debounce == 1.5, "the device's own config wins")
        #expect(settings.fetchInterval == 30)
        #expect(settings.backoffMax == 900, "a negative value is ignored")
        #expect(!settings.notify)
    }

    @Test func theLogRotatesBySize() throws {
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".quire/local"), withIntermediateDirectories: true)
        let log = SyncDaemonLog(vaultRoot: root, limit: 100)
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<5 { log.append("line \(index) of the daemon's log", at: time) }
        let current = try String(contentsOf: log.url, encoding: .utf8)
        let old = try String(contentsOf: root.appendingPathComponent(".quire/local/log.1"), encoding: .utf8)
        #expect(current == "2027-01-15T08:00:00Z line 4 of the daemon's log\n")
        #expect(old == "2027-01-15T08:00:00Z line 2 of the daemon's log\n2027-01-15T08:00:00Z line 3 of the daemon's log\n")
    }

    /// Each backoff wait is a random share, between half and all, of the doubling ceiling
    /// (`syncBackoffStart` 10 s, `syncBackoffMax` 900 s): devices that failed together spread out.
    @Test func backoffWaitsDoubleUpToTheMaximumWithJitter() throws {
        let daemon = try daemon()
        daemon.jitter = { 0 }
        #expect(daemon.backoffWait(failures: 1) == 5)
        #expect(daemon.backoffWait(failures: 3) == 20)
        daemon.jitter = { 1 }
        #expect(daemon.backoffWait(failures: 1) == 10)
        #expect(daemon.backoffWait(failures: 3) == 40)
        #expect(daemon.backoffWait(failures: 40) == 900)
        daemon.jitter = { 0.5 }
        #expect(daemon.backoffWait(failures: 2) == 15)
    }

    /// While the daemon backs off, a local edit is committed at once but neither fetched nor
    /// pushed: the remote is tried again only when the backoff ends. (Before, an edit ran a whole
    /// cycle a debounce later, network included, however long the backoff.)
    @Test func duringABackoffEditsAreCommittedAndTheRemoteWaits() throws {
        let kit = try KitVault()
        defer { kit.remove() }
        let remote = kit.root.deletingLastPathComponent().appendingPathComponent("remote.git")
        try kit.git(["remote", "add", "origin", remote.path])
        let lines = DaemonLines()
        let daemon = try SyncDaemon(vault: kit.vault, environment: kit.environment.merging(["QUIRE_DEVICE": "a"]) { $1 },
                                    overrides: ["syncDebounce": 5, "syncFetchInterval": 60]) { lines.append($0) }
        var now = 1000.0
        daemon.clock = { now }
        daemon.jitter = { 1 }
        daemon.runCycle()  // the remote is not there: a failure, 10 s of backoff
        #expect(daemon.health.lastResult == "remote not found", "\(lines.text)")
        #expect(daemon.nextFetch == 1010)
        // The remote appears; an edit is made two seconds into the backoff.
        try kit.git(["init", "-q", "--bare", "-b", "main", remote.path], in: kit.root.deletingLastPathComponent())
        try kit.write("---\nid: n1\ntitle: N\n---\nwritten during the backoff\n", to: "n.md")
        now = 1002
        daemon.runCycle()
        #expect(try kit.git(["show", "HEAD:n.md"]) == "---\nid: n1\ntitle: N\n---\nwritten during the backoff")
        #expect(throws: (any Error).self, "nothing was pushed") { try kit.git(["rev-parse", "--verify", "refs/heads/main"], in: remote) }
        #expect(daemon.nextFetch == 1010, "the backoff is not cut short")
        #expect(daemon.failures == 1)
        #expect(lines.text.contains("committed here: committed 1 change; fetch and push wait for the backoff, trying again in 8 s"), "\(lines.text)")
        now = 1010
        daemon.runCycle()
        #expect(daemon.health.lastResult == "ok", "\(lines.text)")
        #expect(try kit.git(["rev-parse", "refs/heads/main"], in: remote) == kit.git(["rev-parse", "HEAD"]))
    }

    /// The log says whether the changes were committed before the failure, and a full disk is
    /// not "offline" (it was: libgit2 reports a pack it cannot write as an os error).
    @Test func aFailureIsToldAsItHappened() throws {
        let lines = DaemonLines()
        let daemon = try SyncDaemon(vault: Vault(at: root), environment: [:]) { lines.append($0) }
        daemon.clock = { 50 }
        daemon.jitter = { 0 }
        let offline = GitError(function: "git_remote_fetch", code: .other(-1), errorClass: "os",
                               message: "failed to connect to 127.0.0.1: Connection refused")
        daemon.finish(SyncDaemon.classify(offline, committed: true), started: 50)
        #expect(lines.text.contains("sync offline: git_remote_fetch: failed to connect to 127.0.0.1: Connection refused; "
                                          + "local changes stay committed; trying again in 5 s"), "\(lines.text)")
        let full = GitError(function: "git_remote_fetch", code: .other(-1), errorClass: "os",
                            message: "could not write to '/v/.git/objects/pack/pack_git2_1': No space left on device")
        #expect(full.category == .other)
        daemon.finish(SyncDaemon.classify(full, committed: true), started: 50)
        #expect(lines.text.contains("sync disk full: git_remote_fetch: could not write"), "\(lines.text)")
        daemon.finish(SyncDaemon.classify(POSIXError(.ENOSPC), committed: false), started: 50)
        #expect(lines.text.contains("sync disk full: "), "\(lines.text)")
        #expect(lines.text.contains("the failure came before the commit: nothing new is committed; trying again in 20 s"), "\(lines.text)")
        #expect(!(lines.text.components(separatedBy: "\n").last { !$0.isEmpty }?.contains("stay committed") ?? true))
    }

    /// A cycle whose push the remote refused until it had merged another device's push says so
    /// in its log line (the soak counts push rejections from it).
    @Test func theSummarySaysHowManyPushAttemptsACycleNeeded() {
        var report = SyncReport()
        report.pushed = true
        report.pushedCommits = 1
        report.attempts = 1
        #expect(SyncDaemon.summary(report) == "pushed 1 commit")
        report.attempts = 3
        #expect(SyncDaemon.summary(report) == "pushed 1 commit, 3 push attempts (the remote moved meanwhile)")
    }

    @Test func oneDaemonPerVault() throws {
        let first = try daemon()
        #expect(throws: SyncDaemonError.alreadyRunning(pid: Int(getpid()))) { try daemon() }
        #expect(SyncDaemonHealth.lockHolder(vaultRoot: root) == Int(getpid()))
        withExtendedLifetime(first) {}
    }
}
