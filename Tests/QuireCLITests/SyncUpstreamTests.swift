import Foundation
import Testing

/// A vault made with `quire init` and pointed with `quire remote URL` at a repository that
/// already has a branch: the first sync follows the remote's branch (its HEAD, else its only
/// branch) instead of pushing `main` beside it, and merges the two unrelated histories.
@Suite struct SyncUpstreamTests {
    /// A bare repository made by the git CLI with `-b <head>`, and a git CLI clone of it that
    /// commits `files` and pushes them to `branches` (each from the same commit).
    static func seededRemote(head: String, branches: [String], files: [String: String]) throws -> SyncWorld {
        let directory = try Harness.temporaryDirectory("quire-upstream")
        let bare = directory.appendingPathComponent("remote.git")
        try #require(try gitCLI(["init", "-q", "--bare", "-b", head, bare.path], in: directory).code == 0)
        let seed = directory.appendingPathComponent("seed")
        try #require(try gitCLI(["clone", "-q", bare.path, seed.path], in: directory).code == 0)
        for (path, text) in files { try Harness.write(text, to: seed.appendingPathComponent(path)) }
        try #require(try gitCLI(["add", "-A"], in: seed).code == 0)
        try #require(try gitCLI(["commit", "-qm", "notes from git"], in: seed).code == 0)
        for branch in branches {
            try #require(try gitCLI(["push", "-q", "origin", "HEAD:refs/heads/\(branch)"], in: seed).code == 0)
        }
        return try SyncWorld(directory: directory, bare: bare)
    }

    /// `quire init` in `world/a` with `files`, a first sync with no remote (so `main` has its own
    /// commit), then `quire remote` to the world's repository.
    static func initVault(_ world: SyncWorld, files: [String: String]) throws -> Device {
        try #require(try Harness.run(["init", world.folder("a").path], in: world.directory).code == 0)
        let a = Device(name: "a", vault: TestVault(existing: world.folder("a")))
        for (path, text) in files { try a.write(text, to: path) }
        let offline = try a.run(["sync"])
        try #require(offline.code == 0, "\(offline.stderr)")
        try #require(try a.git(["rev-parse", "--verify", "-q", "refs/heads/main"]).code == 0)
        try #require(try a.run(["remote", "--replace", world.bare.path]).code == 0)
        return a
    }

    static func lines(_ run: GitRun) -> [String] {
        run.stdout.split(separator: "\n").map(String.init)
    }

    @Test func anInitVaultWithItsOwnCommitsFollowsTheRemotesMasterBranch() throws {
        let fromGit = note("g1", title: "From git", updated: "2026-11-29T09:00:00Z")
        let sameFromGit = note("s1", title: "Same", updated: "2026-11-29T09:00:00Z", body: "git text\n")
        let world = try Self.seededRemote(head: "master", branches: ["master"],
                                          files: ["git.md": fromGit, "same.md": sameFromGit])
        let local = note("q1", title: "From quire", updated: "2026-11-29T10:00:00Z")
        let sameLocal = note("s2", title: "Same", updated: "2026-11-29T10:00:00Z", body: "quire text\n")
        let a = try Self.initVault(world, files: ["quire.md": local, "same.md": sameLocal])

        try a.sync(now: "2026-11-29T12:01:00Z")

        // One branch, shared: the vault's branch is now master, tracking origin/master; main is gone
        // here and was never pushed.
        #expect(try a.git(["symbolic-ref", "HEAD"]).stdout == "refs/heads/master\n")
        #expect(Self.lines(try a.git(["branch", "--format=%(refname)"])) == ["refs/heads/master"])
        #expect(try a.git(["config", "branch.master.merge"]).stdout == "refs/heads/master\n")
        #expect(try a.git(["config", "branch.master.remote"]).stdout == "origin\n")
        #expect(Self.lines(try world.git(["branch", "--format=%(refname)"])) == ["refs/heads/master"])
        #expect(try world.git(["rev-parse", "master"]).stdout == a.git(["rev-parse", "HEAD"]).stdout)
        // Unrelated histories: every note as if added on both sides; one path with two different
        // notes keeps both, the incoming one with `-2`.
        #expect(Self.lines(try a.git(["rev-list", "--max-parents=0", "HEAD"])).count == 2)
        #expect(try a.read("git.md") == fromGit)
        #expect(try a.read("quire.md") == local)
        #expect(try a.read("same.md") == sameLocal)
        #expect(try a.read("same-2.md") == sameFromGit)
        #expect(try a.git(["status", "--porcelain"]).stdout.isEmpty)
        let listed = Self.lines(try world.git(["ls-tree", "--name-only", "master"]))
        #expect(listed == [".gitattributes", ".gitignore", ".quire", "git.md", "quire.md", "same-2.md", "same.md"])

        // The git CLI user pulls it as a fast-forward; the next sync has nothing to do.
        let seed = world.directory.appendingPathComponent("seed")
        try #require(try gitCLI(["pull", "-q", "--ff-only"], in: seed).code == 0)
        #expect(try Harness.read(seed.appendingPathComponent("quire.md")) == local)
        let again = try a.sync(["--json"], now: "2026-11-29T12:02:00Z")
        let report = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        #expect(report?["integration"] as? String == "up-to-date", "\(again.stdout)")
        #expect(Self.lines(try world.git(["branch", "--format=%(refname)"])) == ["refs/heads/master"])
    }

    /// The remote's HEAD decides among several branches, even over one named like the vault's
    /// (both at the same commit: only the HEAD the server advertises tells them apart).
    @Test func theRemoteHeadIsFollowedAmongSeveralBranches() throws {
        let fromGit = note("g1", title: "From git", updated: "2026-11-29T09:00:00Z")
        let world = try Self.seededRemote(head: "notes", branches: ["main", "notes"], files: ["git.md": fromGit])
        let a = try Self.initVault(world, files: ["quire.md": note("q1", title: "Q", updated: "2026-11-29T10:00:00Z")])

        try a.sync(now: "2026-11-29T12:01:00Z")

        #expect(try a.git(["symbolic-ref", "HEAD"]).stdout == "refs/heads/notes\n")
        #expect(try world.git(["rev-parse", "notes"]).stdout == a.git(["rev-parse", "HEAD"]).stdout)
        #expect(try world.git(["rev-parse", "main"]).stdout != a.git(["rev-parse", "HEAD"]).stdout)
    }

    /// The remote's HEAD names a branch that does not exist; its only branch is followed.
    @Test func theOnlyBranchIsFollowedWhenTheRemoteHeadIsUnborn() throws {
        let fromGit = note("g1", title: "From git", updated: "2026-11-29T09:00:00Z")
        let world = try Self.seededRemote(head: "master", branches: ["trunk"], files: ["git.md": fromGit])
        let a = try Self.initVault(world, files: ["quire.md": note("q1", title: "Q", updated: "2026-11-29T10:00:00Z")])

        try a.sync(now: "2026-11-29T12:01:00Z")

        #expect(try a.git(["symbolic-ref", "HEAD"]).stdout == "refs/heads/trunk\n")
        #expect(Self.lines(try a.git(["branch", "--format=%(refname)"])) == ["refs/heads/trunk"])
        #expect(Self.lines(try world.git(["branch", "--format=%(refname)"])) == ["refs/heads/trunk"])
        #expect(try a.read("git.md") == fromGit)
    }

    /// Several branches and no default: the sync refuses with the branches named; once the git
    /// CLI records an upstream, the vault keeps its branch name and syncs with that one.
    @Test func severalBranchesAndNoDefaultAskWhichOne() throws {
        let fromGit = note("g1", title: "From git", updated: "2026-11-29T09:00:00Z")
        let world = try Self.seededRemote(head: "master", branches: ["notes", "drafts"], files: ["git.md": fromGit])
        let a = try Self.initVault(world, files: ["quire.md": note("q1", title: "Q", updated: "2026-11-29T10:00:00Z")])

        let refused = try a.run(["sync"], now: "2026-11-29T12:01:00Z")
        #expect(refused.code == 1)
        #expect(refused.stderr.contains("quire: error: the remote has several branches and no default one to follow (drafts, notes)"),
                "\(refused.stderr)")
        #expect(refused.stderr.contains("git branch --set-upstream-to=origin/NAME"), "\(refused.stderr)")
        #expect(Self.lines(try world.git(["branch", "--format=%(refname)"])) == ["refs/heads/drafts", "refs/heads/notes"])

        try #require(try a.git(["branch", "--set-upstream-to=origin/notes"]).code == 0)
        try a.sync(now: "2026-11-29T12:02:00Z")
        #expect(try a.git(["symbolic-ref", "HEAD"]).stdout == "refs/heads/main\n")
        #expect(Self.lines(try world.git(["branch", "--format=%(refname)"])) == ["refs/heads/drafts", "refs/heads/notes"])
        #expect(try world.git(["rev-parse", "notes"]).stdout == a.git(["rev-parse", "HEAD"]).stdout)
        #expect(try a.read("git.md") == fromGit)
    }

    /// `quire clone` checks out the branch the remote's HEAD names, as `git clone` does (it took
    /// `main` whenever there was one): here `notes`, beside a `main` that holds something else.
    @Test func cloneChecksOutTheBranchTheRemoteHeadNames() throws {
        let fromGit = note("g1", title: "From git", updated: "2026-11-29T09:00:00Z")
        let world = try Self.seededRemote(head: "notes", branches: ["notes", "main"], files: ["git.md": fromGit])
        let seed = world.directory.appendingPathComponent("seed")
        try Harness.write("main only\n", to: seed.appendingPathComponent("other.md"))
        try #require(try gitCLI(["add", "-A"], in: seed).code == 0)
        try #require(try gitCLI(["commit", "-qm", "on main only"], in: seed).code == 0)
        try #require(try gitCLI(["push", "-q", "origin", "HEAD:refs/heads/main"], in: seed).code == 0)
        let main = try world.git(["rev-parse", "main"]).stdout

        let b = try world.clone("b")

        #expect(try b.git(["symbolic-ref", "HEAD"]).stdout == "refs/heads/notes\n")
        #expect(Self.lines(try b.git(["branch", "--format=%(refname)"])) == ["refs/heads/notes"])
        #expect(try b.git(["config", "branch.notes.remote"]).stdout == "origin\n")
        #expect(try b.git(["config", "branch.notes.merge"]).stdout == "refs/heads/notes\n")
        #expect(try b.git(["rev-parse", "HEAD"]).stdout == world.git(["rev-parse", "notes"]).stdout)
        #expect(try b.read("git.md") == fromGit)
        #expect(!b.exists("other.md"))
        try b.write(note("n2", title: "Two", updated: "2026-11-29T11:00:00Z"), to: "two.md")
        try b.sync(now: "2026-11-29T12:01:00Z")
        #expect(try world.git(["rev-parse", "notes"]).stdout == b.git(["rev-parse", "HEAD"]).stdout)
        #expect(try world.git(["rev-parse", "main"]).stdout == main)
    }
}
