import Foundation
import QuireTestSupport
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// Errors and exit codes of `quire sync` (DESIGN.md §5): 1 failure, 3 offline, 5 not found,
/// 6 push rejected, 7 locked.
@Suite struct SyncErrorTests {
    /// A vault made with `quire init` holding one note, with no remote.
    static func lonely(_ world: SyncWorld) throws -> Device {
        let made = try Harness.run(["init", world.folder("a").path], in: world.directory)
        try #require(made.code == 0)
        let device = Device(name: "a", vault: TestVault(existing: world.folder("a")))
        try device.write(SyncMergeTests.base, to: "one.md")
        return device
    }

    @Test func noRemoteNamesTheCommand() throws {
        let a = try Self.lonely(try SyncWorld())
        let run = try a.run(["sync"])
        #expect(run.code == 0, "committed locally: \(run.stderr)")
        #expect(run.stdout.contains("no remote: committed locally, nothing pushed"))
        #expect(run.stdout.contains("quire remote URL"))
    }

    @Test func missingRemotePathIsNotFound() throws {
        let world = try SyncWorld()
        let a = try Self.lonely(world)
        try #require(try a.run(["remote", "--replace", world.directory.appendingPathComponent("missing.git").path]).code == 0)
        let run = try a.run(["sync"])
        #expect(run.code == 5, "\(run.stderr)")
        #expect(run.stderr.contains("not found"))
        #expect(!run.stderr.contains("git daemon"), "the hint fits the transport: \(run.stderr)")
    }

    /// git daemon refusing a repository (not exported, or no pushes) is exit 5, as a missing or
    /// refused repository is on every other transport — not "check the network".
    @Test func aGitDaemonRefusingTheRepositoryIsNotFound() throws {
        let server = try GitServer.start("daemon-readonly")
        defer { server.stop() }
        let bare = try server.makeRepository()
        let a = try Self.lonely(try SyncWorld())
        try #require(try a.run(["remote", "--replace", server.baseURL + "vault.git"]).code == 0)
        let hidden = try a.run(["sync"])
        #expect(hidden.code == 5, "\(hidden.stderr)")
        #expect(hidden.stderr.contains("not exported"), "\(hidden.stderr)")
        #expect(hidden.stderr.contains("--enable=receive-pack"), "\(hidden.stderr)")
        #expect(!hidden.stderr.contains("check the network"), "\(hidden.stderr)")
        try Harness.write("", to: bare.appendingPathComponent("git-daemon-export-ok"))
        let readOnly = try a.run(["sync"])
        #expect(readOnly.code == 5, "fetching works, pushing is refused: \(readOnly.stderr)")
        #expect(readOnly.stderr.contains("git_remote_push"), "\(readOnly.stderr)")
        #expect(try a.run(["status"]).stdout.contains("1 local commit waiting to be pushed"))
    }

    @Test func serverDownKeepsTheCommitAndTheNextSyncPushes() throws {
        let directory = try Harness.temporaryDirectory("quire-server-daemon")
        let port = GitServer.freePort()
        let world = try SyncWorld()
        let a = try Self.lonely(world)
        try #require(try a.run(["remote", "--replace", "git://127.0.0.1:\(port)/vault.git"]).code == 0)
        let offline = try a.run(["sync"])
        #expect(offline.code == 3, "\(offline.stderr)")
        #expect(offline.stderr.contains("cannot be reached"))
        let status = try a.run(["status"])
        #expect(status.stdout.contains("1 local commit waiting to be pushed"), "\(status.stdout)")
        #expect(status.stdout.contains("offline"))
        #expect(try a.git(["status", "--porcelain"]).stdout.isEmpty)

        let server = try GitServer.start("daemon", directory: directory, port: port)
        defer { server.stop() }
        let bare = try server.makeRepository()
        let online = try a.sync()
        #expect(online.stdout.contains("pushed 1 commit to origin"))
        #expect(try a.run(["status"]).stdout.contains("0 local commits waiting to be pushed"))
        #expect(try gitCLI(["rev-parse", "main"], in: bare).stdout == a.git(["rev-parse", "HEAD"]).stdout)
    }

    @Test func stalledServerIsAbandonedAfterTheTimeout() throws {
        let directory = try Harness.temporaryDirectory("quire-stall")
        let portFile = directory.appendingPathComponent("port")
        let listener = Process()
        listener.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        listener.arguments = ["python3", "-c", """
            import socket, sys, time
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
            open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
            import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
            held = []
            while True:
                c, _ = s.accept(); held.append(c)
            """, portFile.path]
        listener.standardOutput = FileHandle.nullDevice
        listener.standardError = FileHandle.nullDevice
        try listener.run()
        // SIGKILL: the child may inherit a signal mask that blocks SIGTERM.
        defer { kill(listener.processIdentifier, SIGKILL); listener.waitUntilExit() }
        var port = ""
        for _ in 0..<100 where port.isEmpty {
            port = (try? Harness.read(portFile)) ?? ""
            if port.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
        }
        try #require(!port.isEmpty)

        let a = try Self.lonely(try SyncWorld())
        try #require(try a.run(["remote", "--replace", "git://127.0.0.1:\(port)/vault.git"]).code == 0)
        let started = Date()
        let run = try a.run(["sync"], environment: ["QUIRE_TIMEOUT": "3"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(run.code == 3, "\(run.stderr)")
        #expect(elapsed < 10, "took \(elapsed) s")
        #expect(try a.run(["status"]).stdout.contains("1 local commit waiting to be pushed"))
    }

    @Test func aLockHeldByALiveProcessExitsSeven() throws {
        let (a, _) = try SyncWorld().pair(["one.md": SyncMergeTests.base])
        // -o: the lock stays with flock itself (not `sleep`), so killing flock releases it.
        let holder = try spawn(["/usr/bin/flock", "-o", a.root.appendingPathComponent(".quire/local/lock").path, "sleep", "30"])
        var released = false
        defer { if !released { kill(holder, SIGKILL); _ = waitpid(holder, nil, 0) } }
        var held = false
        for _ in 0..<100 where !held {
            held = try spawnAndWait(["/usr/bin/flock", "-n", a.root.appendingPathComponent(".quire/local/lock").path, "true"]) != 0
            if !held { Thread.sleep(forTimeInterval: 0.05) }
        }
        try #require(held)
        let run = try a.run(["sync"])
        #expect(run.code == 7, "\(run.stderr)")
        #expect(run.stderr.contains("locked"))
        kill(holder, SIGKILL)
        _ = waitpid(holder, nil, 0)
        released = true
        try a.sync()
    }

    /// A fresh `.git/index.lock` (a git command running, or one that crashed a moment ago):
    /// exit 7 with what to do, not libgit2's words alone.
    @Test func aGitIndexLockExitsSevenWithAHint() throws {
        let (a, _) = try SyncWorld().pair(["one.md": SyncMergeTests.base])
        try a.write(SyncMergeTests.base + "An edit.\n", to: "one.md")
        try a.write("", to: ".git/index.lock")
        let run = try a.run(["sync"])
        #expect(run.code == 7, "\(run.stderr)")
        #expect(run.stderr.contains("another git command holds a lock of the repository"), "\(run.stderr)")
        let hint = run.stderr.split(separator: "\n").first { $0.hasPrefix("hint:") } ?? ""
        #expect(hint.contains("remove ") && hint.hasSuffix(".git/index.lock"), "\(run.stderr)")
        try FileManager.default.removeItem(at: a.root.appendingPathComponent(".git/index.lock"))
        #expect(try a.run(["sync"]).code == 0)
    }

    /// A shallow clone (`git clone --depth 1`) used as a vault: refused at once with the command
    /// that fixes it, instead of libgit2's "object not found" on every sync.
    @Test func aShallowCloneIsRefusedWithTheFix() throws {
        let world = try SyncWorld()
        let (a, _) = try world.pair(["one.md": SyncMergeTests.base])
        try a.write(SyncMergeTests.base + "Second.\n", to: "one.md")
        try a.sync(now: "2026-11-29T12:01:00Z")
        let shallow = world.folder("shallow")
        try #require(try gitCLI(["clone", "-q", "--depth", "1", "file://" + world.bare.path, shallow.path], in: world.directory).code == 0)
        let device = Device(name: "shallow", vault: TestVault(existing: shallow))
        try device.write(SyncMergeTests.base + "From the shallow clone.\n", to: "one.md")
        let run = try device.run(["sync"])
        #expect(run.code == 1)
        #expect(run.stderr.contains("the vault is a shallow clone"), "\(run.stderr)")
        #expect(run.stderr.contains("git fetch --unshallow"))
        try #require(try device.git(["fetch", "-q", "--unshallow"]).code == 0)
        let synced = try device.run(["sync"])
        #expect(synced.code == 0, "\(synced.stderr)")
    }

    @Test func detachedHeadIsRefused() throws {
        let (a, _) = try SyncWorld().pair(["one.md": SyncMergeTests.base])
        try #require(try a.git(["checkout", "-q", "--detach"]).code == 0)
        let run = try a.run(["sync"])
        #expect(run.code == 1)
        #expect(run.stderr.contains("HEAD is detached"))
        #expect(run.stderr.contains("git switch main"))
    }

    @Test func aMergeInProgressIsRefused() throws {
        let (a, _) = try SyncWorld().pair(["one.md": SyncMergeTests.base, "data.txt": "base\n"])
        try #require(try a.git(["checkout", "-q", "-b", "other"]).code == 0)
        try a.write("other\n", to: "data.txt")
        try #require(try a.git(["commit", "-qam", "other"]).code == 0)
        try #require(try a.git(["checkout", "-q", "main"]).code == 0)
        try a.write("main\n", to: "data.txt")
        try #require(try a.git(["commit", "-qam", "main"]).code == 0)
        #expect(try a.git(["merge", "other"]).code != 0)
        let run = try a.run(["sync"])
        #expect(run.code == 1)
        #expect(run.stderr.contains("merge is in progress"), "\(run.stderr)")
        #expect(run.stderr.contains("git merge --abort"))
    }

    /// Device `a` synced through a git daemon whose repository then gets `hook` as its
    /// `pre-receive`, with an edit waiting; returns `quire sync`'s run and the device.
    static func syncAgainstAHook(_ hook: String, server: GitServer) throws -> (QuireRun, Device) {
        let bare = try server.makeRepository()
        let world = try SyncWorld(bare: bare, url: server.baseURL + "vault.git")
        let a = try world.first("a", notes: ["one.md": SyncMergeTests.base])
        let path = bare.appendingPathComponent("hooks/pre-receive")
        try ExecutableScript.write(hook, to: path)
        try a.write(SyncOptionsTests.fromA, to: "one.md")
        return (try a.run(["sync"]), a)
    }

    @Test func aPushRejectedByTheServerExitsSix() throws {
        let server = try GitServer.start("daemon")
        defer { server.stop() }
        let (run, a) = try Self.syncAgainstAHook("#!/bin/sh\necho 'protected branch' >&2\nexit 1\n", server: server)
        #expect(run.code == 6, "\(run.stdout)\(run.stderr)")
        #expect(!run.stdout.contains("pushed"))
        #expect(try a.run(["status"]).stdout.contains("1 local commit waiting to be pushed"))
    }

    /// A push a server-side hook refuses: the server's `remote:` lines and the reference's reason
    /// are shown, the push is not retried (the hook runs once), the hint does not say to sync
    /// again, and the commit made before the push is kept and said to be.
    @Test func aPushRefusedByAHookShowsTheServersWordsAndIsNotRetried() throws {
        let server = try GitServer.start("daemon")
        defer { server.stop() }
        let runs = try Harness.temporaryDirectory("quire-hook-runs").appendingPathComponent("runs")
        let (run, a) = try Self.syncAgainstAHook(
            "#!/bin/sh\necho run >> '\(runs.path)'\necho 'POLICY: frozen for the migration (ticket 42)' >&2\nexit 1\n",
            server: server)
        #expect(run.code == 6, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("POLICY: frozen for the migration (ticket 42)"), "\(run.stderr)")
        #expect(run.stderr.contains("pre-receive hook declined"), "\(run.stderr)")
        #expect(run.stderr.contains("stay committed"), "\(run.stderr)")
        #expect(!run.stderr.contains("sync' again"), "\(run.stderr)")
        #expect(try Harness.read(runs) == "run\n", "the refused push is not retried")
        #expect(try a.run(["status"]).stdout.contains("1 local commit waiting to be pushed"))
    }
}
