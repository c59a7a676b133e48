import Foundation
@testable import QuireGit
import Testing

/// `IndexFile` reads `.git/index` as libgit2 does, field by field, and leaves every index it
/// does not take (version 4, a required extension, a damaged file) to libgit2; the stat scan
/// answers the same either way.
@Suite struct IndexFileTests {
    /// A repository committed by the git CLI (which writes the tree cache): notes in folders,
    /// a non-ASCII name, an executable file.
    private func committed(_ temp: TemporaryDirectory) throws -> Repository {
        let repo = try Repository.create(at: temp.url)
        try Fixture.write("alpha\n", to: "alpha.md", in: temp.url)
        try Fixture.write("beta\n", to: "Folder/beta.md", in: temp.url)
        try Fixture.write("café\n", to: "Folder/Deeper/café-\(String(repeating: "x", count: 120)).md", in: temp.url)
        try Fixture.write("#!/bin/sh\n", to: "run.sh", in: temp.url)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: temp.path("run.sh").path)
        try Fixture.git(["add", "-A"], in: temp.url)
        try Fixture.git(["commit", "-qm", "base"], in: temp.url)
        return repo
    }

    private func indexPath(_ temp: TemporaryDirectory) -> String { temp.path(".git/index").path }

    @Test func entriesAndTreeAreLibgit2s() throws {
        let temp = try TemporaryDirectory()
        let repo = try committed(temp)
        for version in ["2", "3"] {
            try Fixture.git(["update-index", "--index-version", version], in: temp.url)
            let file = try #require(IndexFile(path: indexPath(temp)), "version \(version)")
            let index = try repo.index()
            try index.reload()
            let expected = IndexFile.entries(of: index)
            file.withEntries { entries in
                #expect(entries.count == expected.count)
                for (read, known) in zip(entries, expected) {
                    #expect(String(cString: read.path) == String(cString: known.path))
                    #expect([read.ctimeSeconds, read.ctimeNanoseconds, read.mtimeSeconds, read.mtimeNanoseconds, read.inode,
                             read.mode, read.uid, read.gid, read.size]
                            == [known.ctimeSeconds, known.ctimeNanoseconds, known.mtimeSeconds, known.mtimeNanoseconds,
                                known.inode, known.mode, known.uid, known.gid, known.size])
                    #expect(read.stage == 0 && !read.flagged)
                }
            }
            let head = try #require(try repo.headCommitID())
            #expect(file.tree == (try repo.treeID(ofCommit: head)))
            #expect(try repo.changeCandidates() == [], "version \(version)")
        }
        try Fixture.write("ALPHA, longer\n", to: "alpha.md", in: temp.url)
        #expect(try repo.changeCandidates() == ["alpha.md"])
    }

    /// The entries by name prefix (the temporary files an older quire committed) come alike from
    /// the file and, for a version this reader leaves, from libgit2.
    @Test func trackedPathsByNamePrefix() throws {
        let temp = try TemporaryDirectory()
        let repo = try committed(temp)
        try Fixture.write("x\n", to: ".quire-tmp-1", in: temp.url)
        try Fixture.write("y\n", to: "Folder/.quire-tmp-2", in: temp.url)
        try Fixture.git(["add", "-A"], in: temp.url)
        try Fixture.git(["commit", "-qm", "strays"], in: temp.url)
        for version in ["2", "4"] {
            try Fixture.git(["update-index", "--index-version", version], in: temp.url)
            #expect(try repo.trackedPaths(withNamePrefix: ".quire-tmp-") == [".quire-tmp-1", "Folder/.quire-tmp-2"])
        }
    }

    /// Version 4, an intent-to-add entry, a damaged file: not read here (libgit2 decides), and
    /// the scan still finds the edit.
    @Test func indexesItDoesNotTakeGoToLibgit2() throws {
        for kind in ["version 4", "intent to add", "truncated"] {
            let temp = try TemporaryDirectory()
            let repo = try committed(temp)
            switch kind {
            case "version 4":
                try Fixture.git(["update-index", "--index-version", "4"], in: temp.url)
                #expect(IndexFile(path: indexPath(temp)) == nil)
                #expect(try repo.changeCandidates() == [])
                try Fixture.write("ALPHA, longer\n", to: "alpha.md", in: temp.url)
                #expect(try repo.changeCandidates() == ["alpha.md"])
            case "intent to add":
                try Fixture.write("new\n", to: "new.md", in: temp.url)
                try Fixture.git(["add", "-N", "new.md"], in: temp.url)
                let file = try #require(IndexFile(path: indexPath(temp)))
                #expect(file.entries.contains { $0.flagged })
                #expect(try repo.changeCandidates() == nil)
            default:
                let data = try Data(contentsOf: temp.path(".git/index"))
                let cut = data.prefix(data.count / 2)
                #expect(IndexFile.parsing(Data(cut)) == false)
            }
        }
    }
}

extension IndexFile {
    /// Whether `data`, written as an index file, reads.
    static func parsing(_ data: Data) -> Bool {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("index-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        guard (try? data.write(to: url)) != nil else { return false }
        return IndexFile(path: url.path) != nil
    }
}
