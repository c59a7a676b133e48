import Foundation
import Testing

/// A bare remote made with `git init --bare` has HEAD at an unborn `master` (issue 32, class 8):
/// after the first push of `main` a plain `git clone` checked out nothing. On a path or
/// `file://` remote the sync points HEAD at the pushed branch; over ssh (the protocol cannot set
/// it) the sync after the first push says so and how to set it on the server.
@Suite(.serialized) struct SyncRemoteHeadTests {
    @Test(arguments: [false, true])
    func aPathRemoteHeadIsPointedAtThePushedBranch(fileURL: Bool) throws {
        let directory = try Harness.temporaryDirectory("quire-remote-head")
        let bare = directory.appendingPathComponent("remote.git")
        try #require(try gitCLI(["init", "-q", "--bare", "-b", "master", bare.path], in: directory).code == 0)
        let world = try SyncWorld(directory: directory, bare: bare, url: fileURL ? "file://" + bare.path : nil)
        let root = world.folder("a")
        try #require(try Harness.run(["init", root.path], in: directory).code == 0)
        let a = Device(name: "a", vault: TestVault(existing: root))
        try a.write(note("n", title: "N", updated: "2026-11-29T10:00:00Z"), to: "n.md")
        try #require(try a.run(["remote", world.remoteURL]).code == 0)
        let synced = try a.sync()
        #expect(synced.stdout.contains("pointed the remote's HEAD at main: a plain 'git clone' of it checks out the notes\n"),
                "\(synced.stdout)")
        #expect(try world.git(["symbolic-ref", "HEAD"]).stdout == "refs/heads/main\n")
        let cloned = try gitCLI(["clone", "-q", world.remoteURL, "plain"], in: directory)
        #expect(cloned.code == 0, "\(cloned.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("plain/n.md").path))
        // A remote pushed to before (HEAD back at an unborn master): the next sync points it.
        try #require(try world.git(["symbolic-ref", "HEAD", "refs/heads/master"]).code == 0)
        let again = try a.run(["sync", "--json"])
        #expect(again.code == 0)
        #expect(again.stdout.contains(#""remoteHead": {"#) && again.stdout.contains(#""state": "pointed""#), "\(again.stdout)")
        #expect(try world.git(["symbolic-ref", "HEAD"]).stdout == "refs/heads/main\n")
        // Nothing to say once it names the branch.
        let quiet = try a.sync()
        #expect(!quiet.stdout.contains("HEAD"), "\(quiet.stdout)")
    }

    @Test func anSshRemoteWithAnUnbornHeadIsNamedWithHowToSetIt() throws {
        let server = try GitServer.start("ssh")
        defer { server.stop() }
        let bare = server.repositories.appendingPathComponent("vault.git")
        try #require(try gitCLI(["init", "-q", "--bare", "-b", "master", bare.path], in: server.directory).code == 0)
        let home = try SyncTransportTests.sshHome(server, trusted: true)
        let world = try SyncWorld()
        let root = world.folder("a")
        try #require(try Harness.run(["init", root.path], in: world.directory).code == 0)
        let a = Device(name: "a", vault: TestVault(existing: root))
        try a.write(note("n", title: "N", updated: "2026-11-29T10:00:00Z"), to: "n.md")
        try #require(try a.run(["remote", server.baseURL + "vault.git"]).code == 0)
        try a.sync(environment: ["HOME": home.path])
        let next = try a.sync(environment: ["HOME": home.path])
        #expect(next.stdout.contains("warning: the remote's HEAD names no branch: a plain 'git clone' of it checks out nothing\n"
            + "  set it on the server: git --git-dir=PATH/OF/THE/REPOSITORY symbolic-ref HEAD refs/heads/main\n"), "\(next.stdout)")
        // Set on the server as said: the warning is gone.
        try #require(try gitCLI(["symbolic-ref", "HEAD", "refs/heads/main"], in: bare).code == 0)
        let fixed = try a.sync(environment: ["HOME": home.path])
        #expect(!fixed.stdout.contains("HEAD"), "\(fixed.stdout)")
    }
}
