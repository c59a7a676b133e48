import Foundation
import QuireGit
import Testing

@Suite struct RepositoryTests {
    @Test func initCreatesMainBranchAndWorkTreeRoot() throws {
        let temp = try TemporaryDirectory()
        let repo = try Repository.create(at: temp.path("vault"))
        #expect(try repo.headBranchName() == "refs/heads/main")
        #expect(repo.isHeadUnborn)
        #expect(try repo.headCommitID() == nil)
        #expect(repo.isWorkTreeRoot(temp.path("vault")))
        #expect(!repo.isWorkTreeRoot(temp.path("vault/sub")))
        let reopened = try Repository.open(at: temp.path("vault"))
        #expect(reopened.workDirectory?.standardizedFileURL.path == temp.path("vault").standardizedFileURL.path)
        try FileManager.default.createDirectory(at: temp.path("vault/a/b"), withIntermediateDirectories: true)
        let found = try Repository.discover(from: temp.path("vault/a/b"))
        #expect(found.standardizedFileURL.path == temp.path("vault/.git").standardizedFileURL.path)
    }

    @Test func openMissingRepositoryIsNotFound() throws {
        let temp = try TemporaryDirectory()
        #expect(throws: GitError.self) { try Repository.open(at: temp.path("nothing")) }
        do {
            _ = try Repository.open(at: temp.url)
        } catch let error as GitError {
            #expect(error.code == .notFound)
            #expect(error.function == "git_repository_open_ext")
        }
    }

    @Test func configRoundTrip() throws {
        let temp = try TemporaryDirectory()
        let repo = try Repository.create(at: temp.url)
        #expect(try repo.configString("merge.quire.driver") == nil)
        try repo.setConfigString("merge.quire.driver", "/usr/bin/quire merge-driver %O %A %B %P")
        #expect(try repo.configString("merge.quire.driver") == "/usr/bin/quire merge-driver %O %A %B %P")
    }

    @Test func commitRecordsExplicitSignatureAndTime() throws {
        let temp = try TemporaryDirectory()
        let repo = try Repository.create(at: temp.url)
        try Fixture.write("hello\n", to: "a.md", in: temp.url)
        let first = try Fixture.commitAll(repo, "first", at: 60)
        let info = try repo.commit(first)
        #expect(info.parents.isEmpty)
        #expect(info.message == "first")
        #expect(info.author == Fixture.signature(60))
        #expect(info.committer.time == Fixture.epoch.addingTimeInterval(60))
        #expect(try repo.headCommitID() == first)
        let entries = try repo.treeEntries(info.tree)
        #expect(entries.map(\.path) == ["a.md"])
        #expect(try repo.blobData(entries[0].id) == Data("hello\n".utf8))
        try Fixture.write("hello again\n", to: "a.md", in: temp.url)
        let second = try Fixture.commitAll(repo, "second", at: 120)
        #expect(try repo.commit(second).parents == [first])
        #expect(try repo.log(from: second).map(\.id) == [second, first])
        #expect(try Fixture.git(["fsck", "--strict"], in: temp.url).isEmpty)
    }

    @Test func statusListsChangesAndRespectsGitignore() throws {
        let temp = try TemporaryDirectory()
        let repo = try Repository.create(at: temp.url)
        try Fixture.write(".quire/local/\n", to: ".gitignore", in: temp.url)
        try Fixture.write("keep\n", to: "keep.md", in: temp.url)
        try Fixture.write("gone\n", to: "gone.md", in: temp.url)
        try Fixture.commitAll(repo, "base", at: 0)
        #expect(try repo.status().isEmpty)
        try Fixture.write("changed\n", to: "keep.md", in: temp.url)
        try FileManager.default.removeItem(at: temp.path("gone.md"))
        try Fixture.write("new\n", to: "Folder/new.md", in: temp.url)
        try Fixture.write("secret\n", to: ".quire/local/lock", in: temp.url)
        let status = try repo.status()
        #expect(status.map(\.path) == ["Folder/new.md", "gone.md", "keep.md"])
        #expect(status.map(\.kind) == [.added, .deleted, .modified])
        #expect(try repo.isIgnored(".quire/local/lock"))
        #expect(try !repo.isIgnored("keep.md"))
        try Fixture.commitAll(repo, "all", at: 10)
        #expect(try repo.status().isEmpty)
    }

    @Test func referencesCreateListAndDelete() throws {
        let temp = try TemporaryDirectory()
        let repo = try Repository.create(at: temp.url)
        try Fixture.write("x\n", to: "x.md", in: temp.url)
        let head = try Fixture.commitAll(repo, "x", at: 0)
        try repo.setReference("refs/quire/backup/20260101T000000Z", to: head)
        try repo.setReference("refs/quire/backup/20260102T000000Z", to: head)
        let backups = try repo.references(matching: "refs/quire/backup/*")
        #expect(backups.map(\.name) == ["refs/quire/backup/20260101T000000Z", "refs/quire/backup/20260102T000000Z"])
        #expect(backups.allSatisfy { $0.target == head })
        try repo.deleteReference("refs/quire/backup/20260101T000000Z")
        try repo.deleteReference("refs/quire/backup/missing")
        #expect(try repo.references(matching: "refs/quire/backup/*").count == 1)
        #expect(try repo.referenceTarget("refs/heads/main") == head)
        #expect(try repo.referenceTarget("refs/heads/none") == nil)
        #expect(try repo.branches().map(\.name) == ["refs/heads/main"])
    }

    @Test func diffDetectsRenames() throws {
        let temp = try TemporaryDirectory()
        let repo = try Repository.create(at: temp.url)
        let body = (1...20).map { "line \($0) of a long enough note" }.joined(separator: "\n") + "\n"
        try Fixture.write(body, to: "old.md", in: temp.url)
        try Fixture.write("stays\n", to: "stay.md", in: temp.url)
        let first = try Fixture.commitAll(repo, "one", at: 0)
        try FileManager.default.createDirectory(at: temp.path("Folder"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: temp.path("old.md"), to: temp.path("Folder/new.md"))
        try Fixture.write("stays, edited\n", to: "stay.md", in: temp.url)
        try Fixture.write("added\n", to: "added.md", in: temp.url)
        let second = try Fixture.commitAll(repo, "two", at: 10)
        let deltas = try repo.diff(from: repo.treeID(ofCommit: first), to: repo.treeID(ofCommit: second))
        #expect(deltas.map(\.kind) == [.renamed, .added, .modified])
        #expect(deltas[0].oldPath == "old.md")
        #expect(deltas[0].newPath == "Folder/new.md")
        #expect(deltas[0].similarity == 100)
        #expect(deltas[1].oldID == nil)
        let fromEmpty = try repo.diff(from: nil, to: repo.treeID(ofCommit: first))
        #expect(fromEmpty.map(\.kind) == [.added, .added])
        #expect(try repo.log(from: second, path: "stay.md").map(\.id) == [second, first])
        #expect(try repo.log(from: second, path: "added.md").map(\.id) == [second])
    }

    /// The diff reads only the subtrees whose ids differ, and still sees every kind of change:
    /// an edit deep down, a rename across folders, a folder removed whole, a mode change, a file
    /// turned into a folder and a new folder — as a diff of every tree saw them.
    @Test func diffOfDifferingSubtreesSeesEveryChange() throws {
        let temp = try TemporaryDirectory()
        let repo = try Repository.create(at: temp.url)
        let body = (1...20).map { "line \($0) of a note that moves" }.joined(separator: "\n") + "\n"
        for (path, text) in [("A/deep/one.md", "one\n"), ("A/deep/two.md", "two\n"), ("B/keep.md", "keep\n"),
                             ("B/moved.md", body), ("C/gone/x.md", "x\n"), ("C/gone/y.md", "y\n"), ("C/stay.md", "stay\n"),
                             ("script.sh", "echo\n"), ("turn", "a file\n"), ("Z/keep.md", "z\n")] {
            try Fixture.write(text, to: path, in: temp.url)
        }
        let first = try Fixture.commitAll(repo, "one", at: 0)
        try Fixture.write("one, edited\n", to: "A/deep/one.md", in: temp.url)
        try FileManager.default.moveItem(at: temp.path("B/moved.md"), to: temp.path("A/moved.md"))
        try FileManager.default.removeItem(at: temp.path("C/gone"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: temp.path("script.sh").path)
        try FileManager.default.removeItem(at: temp.path("turn"))
        try Fixture.write("inside\n", to: "turn/inside.md", in: temp.url)
        try Fixture.write("new\n", to: "New/sub/new.md", in: temp.url)
        let second = try Fixture.commitAll(repo, "two", at: 10)
        let deltas = try repo.diff(from: repo.treeID(ofCommit: first), to: repo.treeID(ofCommit: second))
        #expect(deltas.map { "\($0.kind) \($0.oldPath) -> \($0.newPath)" } == [
            "modified A/deep/one.md -> A/deep/one.md", "renamed B/moved.md -> A/moved.md",
            "deleted C/gone/x.md -> C/gone/x.md", "deleted C/gone/y.md -> C/gone/y.md",
            "added New/sub/new.md -> New/sub/new.md", "modified script.sh -> script.sh",
            "deleted turn -> turn", "added turn/inside.md -> turn/inside.md",
        ])
        #expect(try repo.diff(from: repo.treeID(ofCommit: second), to: repo.treeID(ofCommit: second)).isEmpty)
        let back = try repo.diff(from: repo.treeID(ofCommit: second), to: repo.treeID(ofCommit: first), detectRenames: false)
        #expect(back.count == 9)
    }

    @Test func writeTreeFromEntriesAndCheckout() throws {
        let temp = try TemporaryDirectory()
        let repo = try Repository.create(at: temp.url)
        let one = try repo.writeBlob(Data("one\n".utf8))
        let two = try repo.writeBlob(Data("two\n".utf8))
        let tree = try repo.writeTree(entries: [TreeEntry(path: "b/two.md", id: two), TreeEntry(path: "one.md", id: one)])
        #expect(try repo.treeEntries(tree) == [TreeEntry(path: "b/two.md", id: two), TreeEntry(path: "one.md", id: one)])
        let commit = try repo.createCommit(tree: tree, parents: [], message: "m", author: Fixture.signature(),
                                           committer: Fixture.signature(), updateReference: "refs/heads/main")
        try repo.checkout(tree: tree, mode: .force)
        #expect(try Fixture.read("b/two.md", in: temp.url) == "two\n")
        #expect(try repo.headCommitID() == commit)
        #expect(try repo.status().isEmpty)
    }

    @Test func safeCheckoutKeepsUserEdits() throws {
        let temp = try TemporaryDirectory()
        let repo = try Repository.create(at: temp.url)
        try Fixture.write("base\n", to: "a.md", in: temp.url)
        try Fixture.write("base\n", to: "b.md", in: temp.url)
        let base = try Fixture.commitAll(repo, "base", at: 0)
        let newA = try repo.writeBlob(Data("remote a\n".utf8))
        let newB = try repo.writeBlob(Data("remote b\n".utf8))
        let tree = try repo.writeTree(entries: [TreeEntry(path: "a.md", id: newA), TreeEntry(path: "b.md", id: newB)])
        try Fixture.write("user edit\n", to: "a.md", in: temp.url)
        try repo.checkout(tree: tree, mode: .safe(allowConflicts: true), paths: ["b.md"],
                          baseline: repo.treeID(ofCommit: base))
        #expect(try Fixture.read("a.md", in: temp.url) == "user edit\n")
        #expect(try Fixture.read("b.md", in: temp.url) == "remote b\n")
        do {
            try repo.checkout(tree: tree, mode: .safe(allowConflicts: false), baseline: repo.treeID(ofCommit: base))
            Issue.record("expected a checkout conflict")
        } catch let error as GitError {
            #expect(error.code == .conflict)
        }
        #expect(try Fixture.read("a.md", in: temp.url) == "user edit\n")
    }

    @Test func resolveRevisionsAndStageBlobEntries() throws {
        let temp = try TemporaryDirectory()
        let repo = try Repository.create(at: temp.url)
        try Fixture.write("1\n", to: "a.md", in: temp.url)
        let first = try Fixture.commitAll(repo, "one", at: 0)
        try Fixture.write("2\n", to: "a.md", in: temp.url)
        let second = try Fixture.commitAll(repo, "two", at: 10)
        #expect(try repo.resolveCommit("HEAD") == second)
        #expect(try repo.resolveCommit("HEAD~1") == first)
        #expect(try repo.resolveCommit(String(first.hex.prefix(10))) == first)
        #expect(throws: GitError.self) { try repo.resolveCommit("nope") }
        let blob = try repo.writeBlob(Data("staged\n".utf8))
        let index = try repo.index()
        try index.add(entry: TreeEntry(path: "b.md", id: blob))
        let tree = try index.writeTree()
        #expect(try repo.entry(atPath: "b.md", inTree: tree)?.id == blob)
    }
}
