import Foundation
import Testing

/// The host changes an encrypted remote's branch; `quire sync` refuses with exit code 8 and
/// leaves the vault as it was.
@Suite struct EncryptedAttackTests {
    /// `a` pushed twice, `b` synced both; returns them.
    private func world() throws -> (SyncWorld, Device, Device) {
        let world = try SyncWorld()
        let a = try EncryptedSyncTests.first(world, notes: ["one.md": "one\n"])
        let b = try world.clone("b", environment: EncryptedSyncTests.passphrase)
        try a.write("two\n", to: "two.md")
        try a.sync()
        try b.sync()
        return (world, a, b)
    }

    /// `b`'s sync exits 8 naming `reason`; its branch, remote-tracking branch and files stay.
    private func expectRefused(_ b: Device, _ reason: String) throws {
        let head = try b.git(["rev-parse", "HEAD", "refs/remotes/origin/main"]).stdout
        let files = try b.files()
        let run = try b.run(["sync"])
        #expect(run.code == 8, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("failed verification") && run.stderr.contains(reason), "\(run.stderr)")
        #expect(try b.git(["rev-parse", "HEAD", "refs/remotes/origin/main"]).stdout == head)
        #expect(try b.files() == files)
        #expect(try b.run(["status"]).stdout.contains("verification"))
    }

    /// Replaces `path` on the host's branch by `change(bytes)`, in a commit on top of its tip.
    private func rewrite(_ world: SyncWorld, _ path: String, _ change: (inout Data) -> Void) throws {
        let scratch = try Harness.temporaryDirectory("quire-forge")
        let work = scratch.appendingPathComponent("w")
        try #require(try gitCLI(["clone", "-q", world.bare.path, work.path], in: scratch).code == 0)
        let file = work.appendingPathComponent(path)
        var bytes = try Data(contentsOf: file)
        change(&bytes)
        try bytes.write(to: file)
        try #require(try gitCLI(["commit", "-qam", "x"], in: work).code == 0)
        try #require(try gitCLI(["push", "-q", "origin", "main"], in: work).code == 0)
    }

    @Test func aFlippedByteInTheManifest() throws {
        let (world, _, b) = try world()
        try rewrite(world, "manifest") { $0[$0.startIndex + 30] ^= 1 }
        try expectRefused(b, "does not authenticate")
    }

    @Test func aFlippedByteInAPack() throws {
        let (world, _, b) = try world()
        let pack = try #require(try world.git(["ls-tree", "--name-only", "main", "packs/"]).stdout.split(separator: "\n").first)
        try rewrite(world, String(pack)) { $0[$0.startIndex + $0.count / 2] ^= 1 }
        try expectRefused(b, "without a newer manifest")
    }

    @Test func aRollback() throws {
        let (world, _, b) = try world()
        try #require(try world.git(["update-ref", "refs/heads/main", "main~1"]).code == 0)
        try expectRefused(b, "rollback")
    }
}

/// The git CLI beside an encrypted remote.
@Suite struct EncryptedGitCLITests {
    @Test func aGitFetchByHandNeverGetsTheCarrierMerged() throws {
        let world = try SyncWorld()
        let a = try EncryptedSyncTests.first(world, notes: ["one.md": "one\n"])
        // `git fetch` points origin/main at the host's carrier commit (keyring, manifest, packs).
        #expect(try a.git(["fetch", "-q", "origin"]).code == 0)
        try a.write("two\n", to: "two.md")
        try a.sync()
        #expect(!a.exists("manifest") && !a.exists("keyring"))
        #expect(try a.git(["ls-tree", "-r", "--name-only", "HEAD"]).stdout.split(separator: "\n").sorted()
            == [".gitattributes", ".gitignore", ".quire/config.yml", "one.md", "two.md"])
    }
}
