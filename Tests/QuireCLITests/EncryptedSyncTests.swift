import Foundation
import Testing

/// Devices syncing through an encrypted remote (`quire remote URL --encrypt`, `quire clone`),
/// end to end through the built binary, on a bare repository and the real servers.
@Suite struct EncryptedSyncTests {
    static let passphrase = ["QUIRE_PASSPHRASE": "correct horse battery staple", "QUIRE_PASSPHRASE_COST": "interactive"]
    static let canary = noteText("title: Canary Title 7781\ntags: [canarytag]", body: "canary-body-text-4711\n")

    /// Device `a` made with `quire init`, its notes written, the remote set with `--encrypt`, synced.
    static func first(_ world: SyncWorld, notes: [String: String], environment: [String: String] = [:]) throws -> Device {
        let root = world.folder("a")
        try #require(try Harness.run(["init", root.path], in: world.directory).code == 0)
        let device = Device(name: "a", vault: TestVault(existing: root))
        for (path, text) in notes { try device.write(text, to: path) }
        let set = try device.run(["remote", world.remoteURL, "--encrypt"], environment: environment.merging(passphrase) { $1 })
        try #require(set.code == 0, "remote --encrypt failed: \(set.stderr)")
        #expect(set.stdout.contains("(encrypted)"))
        try device.sync(environment: environment)
        return device
    }

    /// Every object on the host, inflated (`git cat-file --batch-all-objects --batch`).
    static func hostObjects(_ bare: URL) throws -> String {
        let run = try gitCLI(["cat-file", "--batch-all-objects", "--batch"], in: bare)
        try #require(run.code == 0)
        return run.stdout
    }

    /// A and B (cloned with the passphrase) edit one note each side and converge through `url`;
    /// the host holds no note text, title, tag or path.
    static func roundTrip(_ world: SyncWorld, bare: URL, environment: [String: String] = [:]) throws -> (Device, Device) {
        let a = try first(world, notes: ["one.md": SyncMergeTests.base, "Canary Note.md": canary], environment: environment)
        let b = try world.clone("b", environment: environment.merging(passphrase) { $1 })
        try SyncTransportTests.exchangeEdits(a, b, bare: bare, environment: environment)
        let host = try hostObjects(bare)
        for secret in ["canary-body-text-4711", "Canary Title 7781", "canarytag", "Canary Note", "one.md", "Para one",
                       "quire sync on", "Quire-Device"] {
            #expect(!host.contains(secret), "the host holds \(secret)")
        }
        return (a, b)
    }

    @Test func twoDevicesThroughABareRemoteAndTheHostReadsNothing() throws {
        let world = try SyncWorld()
        let (a, _) = try Self.roundTrip(world, bare: world.bare)
        // The host's branch is main, named by its HEAD, and holds the keyring, the manifest and packs only.
        #expect(try world.git(["symbolic-ref", "HEAD"]).stdout == "refs/heads/main\n")
        let files = try world.git(["ls-tree", "-r", "--name-only", "main"]).stdout.split(separator: "\n")
        #expect(files.allSatisfy { $0 == "keyring" || $0 == "manifest" || $0.hasPrefix("packs/") }, "\(files)")
        #expect(try world.git(["log", "--format=%an %ae %ad %s", "main"]).stdout.split(separator: "\n")
            .allSatisfy { $0 == "quire quire@quire.invalid Sat Jan 1 00:00:00 2000 +0000 quire encrypted vault" })
        #expect(try a.run(["remote"]).stdout.contains("(encrypted)"))
    }

    @Test func threeDevicesConverge() throws {
        let world = try SyncWorld()
        let a = try Self.first(world, notes: ["a.md": "from a\n"])
        let b = try world.clone("b", environment: Self.passphrase)
        let c = try world.clone("c", environment: Self.passphrase)
        try a.write("a again\n", to: "a.md")
        try b.write("from b\n", to: "b.md")
        try c.write("from c\n", to: "c.md")
        for device in [a, b, c, a, b] { try device.sync() }
        #expect(try a.files() == b.files())
        #expect(try b.files() == c.files())
        #expect(try c.read("a.md") == "a again\n")
        #expect(try a.read("c.md") == "from c\n")
    }

    /// The shapes that break syncs at the edges travel through the encrypted packs as through a
    /// plain remote: a symlink, names equal under NFC made apart, a nested repository (never
    /// sent), a plain `git commit` between syncs, `core.autocrlf` on one device and different
    /// words of one line changed on both devices.
    @Test func edgeShapesCrossAnEncryptedRemote() throws {
        let world = try SyncWorld()
        let a = try Self.first(world, notes: ["one.md": SyncMergeTests.base, "caf\u{E9}.md": "composed\n"])
        try FileManager.default.createSymbolicLink(atPath: a.vault.url("link.md").path, withDestinationPath: "one.md")
        try a.write("inside\n", to: "nested/inner.md")
        try #require(try gitCLI(["init", "-q"], in: a.vault.url("nested")).code == 0)
        try a.sync(now: "2026-11-29T12:01:00Z")
        let b = try world.clone("b", environment: Self.passphrase)
        #expect(try b.git(["config", "core.autocrlf", "true"]).code == 0)
        try a.write(SyncMergeTests.base.replacingOccurrences(of: "Para two.", with: "Big para two."), to: "one.md")
        try a.write("decomposed\n", to: "cafe\u{301}.md")
        try b.write(SyncMergeTests.base.replacingOccurrences(of: "Para two.", with: "Para two ends."), to: "one.md")
        try b.write("by plain git\n", to: "plain.md")
        #expect(try b.git(["add", "plain.md"]).code == 0)
        #expect(try b.git(["-c", "user.name=Ben", "-c", "user.email=ben@example.com", "commit", "-qm", "by hand"]).code == 0)
        for (device, minute) in [(a, 2), (b, 3), (a, 4), (b, 5)] {
            try device.sync(now: "2026-11-29T12:0\(minute):00Z")
        }
        #expect(try a.headTree() == b.headTree(), "both devices hold one tree")
        let merged = try a.read("one.md")
        #expect(merged.contains("Big para two ends."), "both devices' words of the line survive: \(merged)")
        #expect(try a.read("plain.md") == "by plain git\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: b.vault.url("link.md").path) == "one.md")
        let texts = Set(try a.files().values)
        #expect(texts.contains("composed\n") && texts.contains("decomposed\n"), "both notes of NFC-equal names are kept")
        #expect(!b.exists("nested/inner.md"), "a nested repository is never sent")
        let host = try Self.hostObjects(world.bare)
        for secret in ["Big para", "decomposed", "by plain git", "inside"] {
            #expect(!host.contains(secret), "the host holds \(secret)")
        }
    }

    @Test func gitDaemon() throws {
        let server = try GitServer.start("daemon")
        defer { server.stop() }
        let bare = try server.makeRepository()
        _ = try Self.roundTrip(try SyncWorld(bare: bare, url: server.baseURL + "vault.git"), bare: bare)
    }

    @Test func ssh() throws {
        let server = try GitServer.start("ssh")
        defer { server.stop() }
        let bare = try server.makeRepository()
        let home = try SyncTransportTests.sshHome(server, trusted: true)
        _ = try Self.roundTrip(try SyncWorld(bare: bare, url: server.baseURL + "vault.git"), bare: bare,
                               environment: ["HOME": home.path])
    }

    @Test func smartHTTP() throws {
        let server = try GitServer.start("http")
        defer { server.stop() }
        let bare = try server.makeRepository()
        _ = try Self.roundTrip(try SyncWorld(bare: bare, url: server.baseURL + "vault.git"), bare: bare)
    }

    @Test func aWrongPassphraseClonesNothingAndExitsWith4() throws {
        let world = try SyncWorld()
        _ = try Self.first(world, notes: ["a.md": "a\n"])
        let run = try Harness.run(["clone", world.remoteURL, "b"], in: world.directory,
                                  environment: ["QUIRE_DEVICE": "b", "QUIRE_PASSPHRASE": "wrong", "QUIRE_PASSPHRASE_COST": "interactive"])
        #expect(run.code == 4, "\(run.stderr)")
        #expect(run.stderr.contains("wrong passphrase"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: world.folder("b").path))
    }

    @Test func aPushThatLostTheRaceOnAGitDaemonIsMergedAndPushedAgain() throws {
        let server = try GitServer.start("daemon")
        defer { server.stop() }
        let world = try SyncWorld(bare: try server.makeRepository(), url: server.baseURL + "vault.git")
        let a = try Self.first(world, notes: ["one.md": "one\n"])
        let b = try world.clone("b", environment: Self.passphrase)
        try a.write("from a\n", to: "a.md")
        try b.write("from b\n", to: "b.md")
        // `a` stops once its push has connected, its carrier commit made on the tip it fetched;
        // `b` pushes meanwhile: the daemon refuses `a`'s as not a fast-forward.
        let (run, stopped) = try a.runStopping(at: "during-push", ["sync"]) { try b.sync() }
        try #require(stopped, "the sync never reached its pause: \(run.stderr)")
        #expect(run.code == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("pushed"), "\(run.stdout)")
        try b.sync()
        #expect(try a.read("b.md") == "from b\n")
        #expect(try b.read("a.md") == "from a\n")
        #expect(try a.headTree() == b.headTree())
    }
}
