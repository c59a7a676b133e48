import Foundation
import Testing

/// `quire key status|passphrase|revoke|rotate` end to end through the built binary, devices
/// syncing through an encrypted remote on a bare repository.
@Suite struct KeyCommandTests {
    static let old = "correct horse battery staple"
    static let cheap = ["QUIRE_PASSPHRASE_COST": "interactive"]
    static let passphrase = cheap.merging(["QUIRE_PASSPHRASE": old]) { $1 }

    /// `a` made encrypted with one note and synced; `b` cloned with the passphrase, a note of its
    /// own synced.
    static func pair(_ world: SyncWorld) throws -> (a: Device, b: Device) {
        let root = world.folder("a")
        try #require(try Harness.run(["init", root.path], in: world.directory).code == 0)
        let a = Device(name: "a", vault: TestVault(existing: root))
        try a.write("# One\n\nfirst words\n", to: "one.md")
        let set = try a.run(["remote", world.remoteURL, "--encrypt"], environment: passphrase)
        try #require(set.code == 0, "remote --encrypt failed: \(set.stderr)")
        try a.sync(environment: cheap)
        let b = try world.clone("b", environment: passphrase)
        // b's slot reaches the host with b's first push.
        try b.write("# From b\n\nb's words\n", to: "b.md")
        try b.sync(environment: cheap)
        try a.sync(environment: cheap)
        return (a, b)
    }

    /// The host's packs: path and blob id of each file under `packs/` on `main`.
    static func packs(_ world: SyncWorld) throws -> [String] {
        try world.git(["ls-tree", "-r", "main", "packs/"]).stdout.split(separator: "\n").map(String.init)
    }

    @Test func statusListsTheDevicesWithThisOneMarked() throws {
        let world = try SyncWorld()
        let (a, _) = try Self.pair(world)
        let status = try a.run(["key", "status"], environment: Self.cheap)
        #expect(status.code == 0, "\(status.stderr)")
        #expect(status.stdout.contains("key generation 1"), "\(status.stdout)")
        #expect(status.stdout.contains("2 devices hold the key"), "\(status.stdout)")
        let lines = status.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("  a ") && $0.hasSuffix("(this device)") }, "\(status.stdout)")
        #expect(lines.contains { $0.hasPrefix("  b ") && !$0.contains("this device") }, "\(status.stdout)")
        let json = try a.run(["key", "status", "--json"], environment: Self.cheap)
        #expect(json.stdout.contains("\"generation\": 1"), "\(json.stdout)")
        #expect(json.stdout.contains("\"thisDevice\": true"), "\(json.stdout)")
    }

    /// A new passphrase: the host gets a new keyring and manifest, every pack stays the same
    /// blob; the old passphrase opens nothing; the other device syncs on with its own key.
    @Test func aPassphraseChangeUploadsNoPack() throws {
        let world = try SyncWorld()
        let (a, b) = try Self.pair(world)
        let before = try Self.packs(world)
        #expect(!before.isEmpty)
        let keyringBefore = try world.git(["rev-parse", "main:keyring"]).stdout
        let changed = try a.run(["key", "passphrase"], environment: Self.passphrase.merging(["QUIRE_NEW_PASSPHRASE": "new words here"]) { $1 })
        #expect(changed.code == 0, "\(changed.stderr)")
        #expect(changed.stdout.contains("passphrase changed"), "\(changed.stdout)")
        #expect(try Self.packs(world) == before)
        #expect(try world.git(["rev-parse", "main:keyring"]).stdout != keyringBefore)
        let stale = try Harness.run(["clone", world.remoteURL, "c"], in: world.directory,
                                    environment: Self.passphrase.merging(["QUIRE_DEVICE": "c"]) { $1 })
        #expect(stale.code == 4, "\(stale.stderr)")
        #expect(!FileManager.default.fileExists(atPath: world.folder("c").appendingPathComponent("one.md").path))
        _ = try world.clone("d", environment: Self.cheap.merging(["QUIRE_PASSPHRASE": "new words here"]) { $1 })
        try a.write("# Two\n\nafter the change\n", to: "two.md")
        try a.sync(environment: Self.cheap)
        try b.sync(environment: Self.cheap)
        #expect(try b.read("two.md") == "# Two\n\nafter the change\n")
    }

    /// The passphrase lost, a device still syncing: `--lost` sets a new one with that device's key.
    @Test func aSurvivingDeviceSetsANewPassphraseWithoutTheOldOne() throws {
        let world = try SyncWorld()
        let (_, b) = try Self.pair(world)
        let reset = try b.run(["key", "passphrase", "--lost"], environment: Self.cheap.merging(["QUIRE_NEW_PASSPHRASE": "found again"]) { $1 })
        #expect(reset.code == 0, "\(reset.stderr)")
        let c = try world.clone("c", environment: Self.cheap.merging(["QUIRE_PASSPHRASE": "found again"]) { $1 })
        #expect(try c.read("one.md") == "# One\n\nfirst words\n")
    }

    /// c joined by passphrase and has pushed nothing yet (its slot is only in its own copy of
    /// the keyring) when a changes the passphrase: c's next sync keeps a's change and adds c.
    @Test func aDeviceThatJoinedKeepsAChangeMadeBeforeItsFirstPush() throws {
        let world = try SyncWorld()
        let (a, _) = try Self.pair(world)
        let c = try world.clone("c", environment: Self.passphrase)
        let changed = try a.run(["key", "passphrase"], environment: Self.passphrase.merging(["QUIRE_NEW_PASSPHRASE": "new words here"]) { $1 })
        #expect(changed.code == 0, "\(changed.stderr)")
        try c.write("# From c\n\nc's words\n", to: "c.md")
        try c.sync(environment: Self.cheap)
        let d = try world.clone("d", environment: Self.cheap.merging(["QUIRE_PASSPHRASE": "new words here"]) { $1 })
        #expect(try d.read("c.md") == "# From c\n\nc's words\n")
        let status = try a.run(["key", "status"], environment: Self.cheap)
        #expect(status.stdout.contains("  c "), "\(status.stdout)")
    }

    /// On a terminal: the current passphrase once, the new one twice, none of them echoed.
    @Test func onATerminalThePassphrasesAreAskedWithoutEcho() throws {
        let world = try SyncWorld()
        let (a, _) = try Self.pair(world)
        let driver = Harness.packageRoot.appendingPathComponent("Tests/Servers/pty-editor.py")
        let environment = Harness.environment(home: a.root.appendingPathComponent(".test-home"),
                                              extra: ["QUIRE_NOW": "2026-11-30T08:00:00Z", "TERM": "xterm"])
        let steps = ["current passphrase: ", "\(Self.old)\\r", "new passphrase: ", "typed words 42\\r", "repeat it: ", "typed words 42\\r"]
        let command = ["/usr/bin/env", "QUIRE_PASSPHRASE_COST=interactive", Harness.binary.path, "key", "passphrase"]
        let run = try ChaosSupport.capture(["python3", driver.path, "60"] + steps + ["--"] + command,
                                           in: a.root, environment: environment, withErrors: true)
        #expect(run.code == 0, "\(run.output)")
        #expect(run.output.contains("passphrase changed"), "\(run.output)")
        #expect(!run.output.contains("typed words 42") && !run.output.contains(Self.old), "\(run.output)")
        let c = try world.clone("c", environment: Self.cheap.merging(["QUIRE_PASSPHRASE": "typed words 42"]) { $1 })
        #expect(c.exists("one.md"))
    }

    @Test func aWrongPassphraseExitsFourAndPublishesNothing() throws {
        let world = try SyncWorld()
        let (a, _) = try Self.pair(world)
        let tip = try world.git(["rev-parse", "main"]).stdout
        let wrong = Self.cheap.merging(["QUIRE_PASSPHRASE": "not it", "QUIRE_NEW_PASSPHRASE": "whatever"]) { $1 }
        for command in [["key", "passphrase"], ["key", "rotate"], ["key", "revoke", "b"]] {
            let run = try a.run(command, environment: wrong)
            #expect(run.code == 4, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("wrong passphrase"), "\(command): \(run.stderr)")
        }
        #expect(try world.git(["rev-parse", "main"]).stdout == tip)
        let noTerminal = try a.run(["key", "passphrase"], environment: Self.cheap)
        #expect(noTerminal.code == 2, "\(noTerminal.stderr)")
        #expect(noTerminal.stderr.contains("QUIRE_PASSPHRASE"), "\(noTerminal.stderr)")
    }

    /// After `quire key revoke b`, a note written on a reaches b neither as a file nor as an
    /// object: b's sync is refused (exit 4) and b reads nothing of it.
    @Test func aRevokedDeviceCannotReadANoteWrittenAfterRevocation() throws {
        let world = try SyncWorld()
        let (a, b) = try Self.pair(world)
        let revoked = try a.run(["key", "revoke", "b"], environment: Self.passphrase)
        #expect(revoked.code == 0, "\(revoked.stderr)")
        #expect(revoked.stdout.contains("revoked b: key generation 2 for 1 device"), "\(revoked.stdout)")
        try a.write("# Secret\n\nsecret-after-revocation-5521\n", to: "secret.md")
        try a.sync(environment: Self.cheap)
        let refused = try b.run(["sync"], environment: Self.cheap)
        #expect(refused.code == 4, "\(refused.stderr)")
        #expect(!b.exists("secret.md"))
        let objects = try gitCLI(["cat-file", "--batch-all-objects", "--batch"], in: b.root)
        #expect(!objects.stdout.contains("secret-after-revocation-5521"))
        let status = try a.run(["key", "status"], environment: Self.cheap)
        #expect(status.stdout.contains("1 device holds the key"), "\(status.stdout)")
    }

    /// The host changes the keyring (one more revision, the same manifest): every device's
    /// sync refuses it (exit 8) and nothing changes.
    @Test func aKeyringChangedByTheHostIsRefused() throws {
        let world = try SyncWorld()
        let (a, b) = try Self.pair(world)
        let keyring = try world.git(["cat-file", "blob", "main:keyring"]).stdout
        let revision = try #require(keyring.range(of: #""revision":\d+"#, options: .regularExpression))
        let forged = keyring.replacingOccurrences(of: String(keyring[revision]), with: "\"revision\":99")
        let file = world.directory.appendingPathComponent("forged-keyring")
        try forged.write(to: file, atomically: true, encoding: .utf8)
        let blob = try world.git(["hash-object", "-w", file.path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let tree = try world.git(["ls-tree", "main"]).stdout.split(separator: "\n").map { line in
            line.hasSuffix("\tkeyring") ? "100644 blob \(blob)\tkeyring" : String(line)
        }.joined(separator: "\n") + "\n"
        try tree.write(to: file, atomically: true, encoding: .utf8)
        let treeID = try gitCLI(["mktree"], in: world.bare, stdin: file).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let commit = try world.git(["commit-tree", treeID, "-p", "main", "-m", "quire encrypted vault"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(try world.git(["update-ref", "refs/heads/main", commit]).code == 0)
        let before = try b.files()
        for device in [a, b] {
            let refused = try device.run(["sync"], environment: Self.cheap)
            #expect(refused.code == 8, "\(device.name): \(refused.stderr)")
            #expect(refused.stderr.contains("keyring failed verification"), "\(device.name): \(refused.stderr)")
        }
        #expect(try b.files() == before)
    }

    /// A rotation without revocation: the other device follows it at its next sync.
    @Test func aRotatedKeyReachesTheOtherDevice() throws {
        let world = try SyncWorld()
        let (a, b) = try Self.pair(world)
        let rotated = try a.run(["key", "rotate"], environment: Self.passphrase)
        #expect(rotated.code == 0, "\(rotated.stderr)")
        try a.write("# Later\n\nunder the new key\n", to: "later.md")
        try a.sync(environment: Self.cheap)
        try b.sync(environment: Self.cheap)
        #expect(try b.read("later.md") == "# Later\n\nunder the new key\n")
        let status = try b.run(["key", "status"], environment: Self.cheap)
        #expect(status.stdout.contains("key generation 2"), "\(status.stdout)")
    }
}
