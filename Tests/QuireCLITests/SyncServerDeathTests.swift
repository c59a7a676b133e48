import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A server that dies in the middle of a transfer (DESIGN.md §4, issues 5 and 20): a loopback
/// proxy in front of the server cuts the connection after a number of bytes, on every network
/// transport (git daemon, smart http, https, ssh). The sync fails with a clear error (offline,
/// exit 3), the local commit is kept, and the next sync through the server itself completes and
/// converges.
@Suite(.serialized)
struct SyncServerDeathTests {
    /// Starts a proxy from a free port to `target` that closes both sides once `limit` bytes went
    /// `direction` ("down": server → client, "up": client → server). Returns its port and pid.
    static func cuttingProxy(to target: Int, limit: Int, direction: String) throws -> (port: Int, pid: pid_t) {
        let directory = try Harness.temporaryDirectory("quire-proxy")
        let portFile = directory.appendingPathComponent("port").path
        let script = """
            import socket, sys, threading, os
            target, limit, direction, port_file = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
            s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", 0)); s.listen(8)
            open(port_file + ".tmp", "w").write(str(s.getsockname()[1])); os.rename(port_file + ".tmp", port_file)
            def pump(src, dst, counted, both):
                sent = 0
                try:
                    while True:
                        data = src.recv(4096)
                        if not data: break
                        if counted and sent + len(data) > limit:
                            dst.sendall(data[:max(0, limit - sent)]); break
                        dst.sendall(data); sent += len(data)
                finally:
                    for c in both:
                        try: c.shutdown(socket.SHUT_RDWR)
                        except OSError: pass
                        c.close()
            while True:
                client, _ = s.accept()
                server = socket.create_connection(("127.0.0.1", target))
                both = [client, server]
                threading.Thread(target=pump, args=(server, client, direction == "down", both), daemon=True).start()
                threading.Thread(target=pump, args=(client, server, direction == "up", both), daemon=True).start()
            """
        let pid = try spawn(["/usr/bin/env", "python3", "-c", script, String(target), String(limit), direction, portFile])
        var port = 0
        for _ in 0..<200 where port == 0 {
            port = Int((try? String(contentsOfFile: portFile, encoding: .utf8)) ?? "") ?? 0
            if port == 0 { Thread.sleep(forTimeInterval: 0.05) }
        }
        try #require(port != 0, "the proxy did not start")
        return (port, pid)
    }

    /// The URL of `vault.git` on `server` (of `kind`) reached through `port` (a proxy, or the
    /// server's own), and the environment that trusts it.
    static func route(_ server: GitServer, kind: String, port: Int) throws -> (url: String, environment: [String: String]) {
        switch kind {
        case "https":
            return ("https://localhost:\(port)/vault.git",
                    ["GIT_SSL_CAINFO": server.directory.appendingPathComponent("cert.pem").path])
        case "ssh":
            let home = try SyncTransportTests.sshHome(server, trusted: true)
            let knownHosts = home.appendingPathComponent(".ssh/known_hosts")
            let line = try Harness.read(knownHosts)
            try Harness.write(line + line.replacingOccurrences(of: "]:\(server.port) ", with: "]:\(port) "), to: knownHosts)
            return (server.baseURL.replacingOccurrences(of: ":\(server.port)/", with: ":\(port)/") + "vault.git",
                    ["HOME": home.path])
        default:
            return (server.baseURL.replacingOccurrences(of: ":\(server.port)/", with: ":\(port)/") + "vault.git", [:])
        }
    }

    /// A push into a path remote killed half-way leaves libgit2's temporary pack
    /// (`objects/pack/pack_git2_<hex>`) and quire's staging reference in the remote; the next
    /// push removes both (it holds the remote's lock, so no other quire is writing them), and
    /// nothing else.
    @Test func theNextPushIntoAPathRemoteRemovesWhatAKilledPushLeft() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["one.md": SyncMergeTests.base])
        let pack = world.bare.appendingPathComponent("objects/pack")
        try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
        let litter = pack.appendingPathComponent("pack_git2_0123456789abcdef")
        let foreign = pack.appendingPathComponent("tmp_pack_Xy12Ab")
        try Harness.write("half a pack", to: litter)
        try Harness.write("git's own", to: foreign)
        try Self.leaveStagingReference("0e1d", in: world)
        try Self.syncANote(a)
        #expect(!FileManager.default.fileExists(atPath: litter.path))
        #expect(FileManager.default.fileExists(atPath: foreign.path), "only what libgit2 names its own is removed")
        #expect(try gitCLI(["for-each-ref", "refs/quire/"], in: world.bare).stdout.isEmpty)
        try Self.expectTheRemoteHoldsThePush(a, world)
    }

    /// A push into a path remote killed while libgit2 wrote or deleted its staging reference
    /// leaves a lock file on it (`refs/quire/incoming/<uuid>.lock`; the chaos soak's seed 1021
    /// found one beside its reference), which failed every later push's cleanup for good. The
    /// next push removes such locks, with or without their reference, and leaves a lock of
    /// another name alone.
    @Test func theNextPushIntoAPathRemoteRemovesALockAKilledPushLeftOnItsStagingReference() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["one.md": SyncMergeTests.base])
        let staging = "62fd7bf3-d562-4028-8f50-3ca473f1bc90"
        try Self.leaveStagingReference(staging, in: world)
        let incoming = world.bare.appendingPathComponent("refs/quire/incoming")
        let locks = [staging, "0b7c2a51-93de-4f6e-a1c0-5d2e8f4b7a19"].map { incoming.appendingPathComponent("\($0).lock") }
        let foreign = incoming.appendingPathComponent("kept.lock")
        for lock in locks + [foreign] { try Harness.write("", to: lock) }
        try Self.syncANote(a)
        for lock in locks { #expect(!FileManager.default.fileExists(atPath: lock.path), "\(lock.lastPathComponent)") }
        #expect(FileManager.default.fileExists(atPath: foreign.path), "only locks named as quire names its references")
        #expect(try gitCLI(["for-each-ref", "refs/quire/"], in: world.bare).stdout.isEmpty)
        try Self.expectTheRemoteHoldsThePush(a, world)
    }

    /// A push into a path remote killed while it moved the branch leaves `refs/heads/main.lock`
    /// there (the chaos soak's seed 1044: four devices failed with exit 6 until it was five
    /// seconds old). The next push, holding the remote's lock, waits for that file to go — a
    /// plain git holds it for milliseconds — and removes it once it stood unchanged for two
    /// seconds, with no clock compared: here it is dated an hour ahead (a disk another clock
    /// wrote), which the five-second rule alone would never have removed.
    @Test func aBranchLockAKilledPushLeftInAPathRemoteIsRemovedWithNoClockTrusted() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["one.md": SyncMergeTests.base])
        let lock = world.bare.appendingPathComponent("refs/heads/main.lock")
        try Harness.write("", to: lock)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(3600)], ofItemAtPath: lock.path)
        try Self.syncANote(a)
        #expect(!FileManager.default.fileExists(atPath: lock.path))
        try Self.expectTheRemoteHoldsThePush(a, world)
    }

    /// A fetch killed half-way leaves the pack libgit2 was receiving in the vault's own
    /// `.git/objects/pack` (`pack_git2_<16 hex>`, as large as what it fetched; a chaos batch
    /// with many kills left one). The next sync removes one that has not grown for a minute (a
    /// live fetch writes its file all the time), and leaves a fresh one and any other name.
    @Test func aPackAKilledFetchLeftInTheVaultIsRemovedOnceItStopsGrowing() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["one.md": SyncMergeTests.base])
        let pack = a.root.appendingPathComponent(".git/objects/pack")
        let stale = pack.appendingPathComponent("pack_git2_0123456789abcdef")
        let growing = pack.appendingPathComponent("pack_git2_fedcba9876543210")
        let foreign = pack.appendingPathComponent("pack_git2_short")
        for file in [stale, growing, foreign] { try Harness.write("half a pack", to: file) }
        for file in [stale, foreign] {
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-120)], ofItemAtPath: file.path)
        }
        try Self.syncANote(a)
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: growing.path), "a fetch may still be writing it")
        #expect(FileManager.default.fileExists(atPath: foreign.path), "only what libgit2 names its own is removed")
        #expect(try a.git(["fsck"]).code == 0)
        try Self.expectTheRemoteHoldsThePush(a, world)
    }

    /// A staging reference `refs/quire/incoming/<name>` at the remote's branch, as a push killed
    /// before it removed its own leaves one.
    static func leaveStagingReference(_ name: String, in world: SyncWorld) throws {
        let head = try gitCLI(["rev-parse", "main"], in: world.bare).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(try gitCLI(["update-ref", "refs/quire/incoming/\(name)", head], in: world.bare).code == 0)
    }

    /// Writes a note in `device` and syncs it, which must succeed.
    static func syncANote(_ device: Device) throws {
        try device.write(note("n2", title: "Two", updated: "2026-11-29T12:00:00Z"), to: "two.md")
        let synced = try device.run(["sync"])
        #expect(synced.code == 0, "\(synced.stderr)")
    }

    /// The bare remote of `world` is sound and its branch is `device`'s head.
    static func expectTheRemoteHoldsThePush(_ device: Device, _ world: SyncWorld) throws {
        #expect(try gitCLI(["fsck"], in: world.bare).code == 0)
        #expect(try device.git(["rev-parse", "HEAD"]).stdout == gitCLI(["rev-parse", "main"], in: world.bare).stdout)
    }

    /// 120 notes of incompressible text: a pack of several hundred kilobytes.
    static func bulk(_ device: Device, tag: String) throws {
        for index in 0..<120 {
            var body = ""
            for _ in 0..<40 { body += UUID().uuidString + " " }
            try device.write(note("\(tag)-\(index)", title: "\(tag) \(index)", updated: "2026-11-29T11:00:00Z", body: body + "\n"),
                             to: "\(tag)/n\(index).md")
        }
    }

    @Test(arguments: ["daemon", "http", "https", "ssh"])
    func aServerDyingMidPushKeepsTheCommitAndTheNextSyncCompletes(kind: String) throws {
        let server = try GitServer.start(kind)
        defer { server.stop() }
        let bare = try server.makeRepository()
        let a = try SyncErrorTests.lonely(try SyncWorld())
        try Self.bulk(a, tag: "big")
        let proxy = try Self.cuttingProxy(to: server.port, limit: 40_000, direction: "up")
        defer { kill(proxy.pid, SIGKILL); _ = waitpid(proxy.pid, nil, 0) }
        let cutRoute = try Self.route(server, kind: kind, port: proxy.port)
        try #require(try a.run(["remote", "--replace", cutRoute.url]).code == 0)
        let cut = try a.run(["sync"], environment: cutRoute.environment.merging(["QUIRE_TIMEOUT": "10"]) { $1 })
        #expect(cut.code == 3, "\(kind): \(cut.stderr)")
        #expect(cut.stderr.hasPrefix("quire: error: the remote cannot be reached"), "\(kind): \(cut.stderr)")
        #expect(try a.run(["status"]).stdout.contains("1 local commit waiting to be pushed"))
        #expect(try gitCLI(["rev-parse", "--verify", "-q", "refs/heads/main"], in: bare).code != 0, "nothing may land half-pushed")
        let healthy = try Self.route(server, kind: kind, port: server.port)
        try #require(try a.run(["remote", "--replace", healthy.url]).code == 0)
        let healed = try a.run(["sync"], environment: healthy.environment)
        #expect(healed.code == 0, "\(kind): \(healed.stderr)")
        #expect(try gitCLI(["fsck"], in: bare).code == 0)
        #expect(try a.git(["rev-parse", "HEAD"]).stdout == gitCLI(["rev-parse", "main"], in: bare).stdout)
    }

    @Test(arguments: ["daemon", "http", "https", "ssh"])
    func aServerDyingMidFetchKeepsTheCommitAndTheNextSyncCompletes(kind: String) throws {
        let server = try GitServer.start(kind)
        defer { server.stop() }
        let bare = try server.makeRepository()
        let world = try SyncWorld()
        let a = try SyncErrorTests.lonely(world)
        let healthy = try Self.route(server, kind: kind, port: server.port)
        let env = healthy.environment, envB = healthy.environment.merging(["QUIRE_DEVICE": "b"]) { $1 }
        try #require(try a.run(["remote", "--replace", healthy.url]).code == 0)
        try #require(try a.run(["sync"], environment: env).code == 0)
        let cloned = try Harness.run(["clone", healthy.url, world.folder("b").path], in: world.directory, environment: envB)
        try #require(cloned.code == 0, "\(cloned.stderr)")
        let b = Device(name: "b", vault: TestVault(existing: world.folder("b")))
        try Self.bulk(a, tag: "incoming")
        try #require(try a.run(["sync"], environment: env).code == 0)
        try b.write(note("mine", title: "Mine", updated: "2026-11-29T11:30:00Z"), to: "mine.md")
        let proxy = try Self.cuttingProxy(to: server.port, limit: 30_000, direction: "down")
        defer { kill(proxy.pid, SIGKILL); _ = waitpid(proxy.pid, nil, 0) }
        let cutRoute = try Self.route(server, kind: kind, port: proxy.port)
        try #require(try b.run(["remote", "--replace", cutRoute.url], environment: envB).code == 0)
        let cut = try b.run(["sync"], environment: cutRoute.environment.merging(["QUIRE_DEVICE": "b", "QUIRE_TIMEOUT": "10"]) { $1 })
        #expect(cut.code == 3, "\(kind): \(cut.stderr)")
        #expect(try b.read("mine.md") == note("mine", title: "Mine", updated: "2026-11-29T11:30:00Z"))
        #expect(!b.exists("incoming/n0.md"))
        try #require(try b.run(["remote", "--replace", healthy.url], environment: envB).code == 0)
        let healed = try b.run(["sync"], environment: envB)
        #expect(healed.code == 0, "\(kind): \(healed.stderr)")
        try #require(try a.run(["sync"], environment: env).code == 0)
        #expect(try a.files() == b.files())
        #expect(b.exists("incoming/n119.md"))
        #expect(a.exists("mine.md"))
        #expect(try gitCLI(["fsck"], in: bare).code == 0)
    }
}
