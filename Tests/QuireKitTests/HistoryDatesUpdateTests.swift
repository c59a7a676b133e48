import Foundation
import QuireCore
import QuireGit
import Testing
@testable import QuireKit

/// The dates kept in `.quire/cache/dates.tsv` after a commit, a merge, a fast-forward, a rebase,
/// a reset or a rewritten history equal those of a walk of the whole history; when `HEAD` moved
/// on from the commit they were kept for, only the changed notes' lines are appended.
@Suite struct HistoryDatesUpdateTests {
    /// Commits everything at `time` (ISO 8601, author and committer).
    @discardableResult
    static func commit(_ kit: KitVault, _ message: String, at time: String) throws -> String {
        try kit.git(["add", "-A"])
        try kit.git(["commit", "-q", "--allow-empty", "-m", message], environment: ["GIT_AUTHOR_DATE": time, "GIT_COMMITTER_DATE": time])
        return try kit.git(["rev-parse", "HEAD"])
    }

    static func git(_ kit: KitVault, _ arguments: [String], at time: String) throws {
        try kit.git(arguments, environment: ["GIT_AUTHOR_DATE": time, "GIT_COMMITTER_DATE": time])
    }

    /// The dates brought up to date by `HistoryDates.load` equal a walk of the whole history;
    /// returns how many `head` lines the file holds (1: written whole, more: appended).
    @discardableResult
    static func expectCurrent(_ kit: KitVault, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        _ = HistoryDates.load(vault: kit.vault)
        let url = kit.root.appendingPathComponent(HistoryDatesFile.path)
        let kept = try #require(HistoryDatesFile.read(url), sourceLocation: sourceLocation)
        let repository = try Repository.open(at: kit.root)
        let head = try #require(try repository.headCommitID(), sourceLocation: sourceLocation)
        var walker = HistoryWalk(repository: repository)
        try walker.walk(to: head)
        #expect(kept.head == head.hex, sourceLocation: sourceLocation)
        #expect(HistoryDatesFile.head(url) == head.hex, sourceLocation: sourceLocation)
        #expect(kept.entries == walker.entries, sourceLocation: sourceLocation)
        #expect(HistoryDates.isCurrent(vault: kit.vault), sourceLocation: sourceLocation)
        let text = try String(contentsOf: url, encoding: .utf8)
        return text.split(separator: "\n").filter { $0.hasPrefix(HistoryDatesFile.headPrefix) }.count
    }

    /// Notes `a` to `d` committed at 10:00.
    static func start() throws -> KitVault {
        let kit = try KitVault()
        for name in ["a", "b", "c", "d"] { try kit.write("# \(name)\n\nWords of \(name).\n", to: "notes/\(name).md") }
        try commit(kit, "start", at: "2026-11-01T10:00:00Z")
        #expect(try expectCurrent(kit) == 1)
        return kit
    }

    @Test func aCommitAppendsOnlyWhatChanged() throws {
        let kit = try Self.start()
        defer { kit.remove() }
        try kit.write("# a\n\nWords of a, changed.\n", to: "notes/a.md")
        try kit.write("# e\n\nA new note.\n", to: "e.md")
        try FileManager.default.createDirectory(at: kit.root.appendingPathComponent("moved"), withIntermediateDirectories: true)
        try kit.git(["mv", "notes/c.md", "moved/c.md"])
        try kit.git(["rm", "-q", "notes/d.md"])
        try Self.commit(kit, "edits", at: "2026-11-02T10:00:00Z")
        #expect(try Self.expectCurrent(kit) == 2)
        let appended = try String(contentsOf: kit.root.appendingPathComponent(HistoryDatesFile.path), encoding: .utf8)
            .split(separator: "\n").drop { !$0.hasPrefix(HistoryDatesFile.headPrefix) }.dropFirst().map { String($0.prefix { $0 != "\t" }) }
        #expect(appended.dropLast() == ["e.md", "moved/c.md", "notes/a.md", "notes/c.md", "notes/d.md"])
        try Self.commit(kit, "nothing to date", at: "2026-11-03T10:00:00Z")
        #expect(try Self.expectCurrent(kit) == 3)
    }

    /// A merge brings a branch's notes; another keeps this side's words of notes both branches
    /// added and changed at interleaved times: the earlier creation and the later change, as a
    /// whole walk gives; a fast-forward follows.
    @Test func aMergeAndAFastForwardEqualAWholeWalk() throws {
        let kit = try Self.start()
        defer { kit.remove() }
        try kit.git(["branch", "side"])
        try kit.git(["branch", "other"])
        try kit.write("# b\n\nMain's words.\n", to: "notes/b.md")
        try kit.write("# both\n\nMain's.\n", to: "both.md")
        try Self.commit(kit, "main", at: "2026-11-03T10:00:00Z")
        try Self.expectCurrent(kit)
        try kit.git(["checkout", "-q", "side"])
        try kit.write("# s\n\nSide only.\n", to: "s.md")
        try kit.write("# c\n\nSide's words.\n", to: "notes/c.md")
        try Self.commit(kit, "side", at: "2026-11-02T10:00:00Z")
        try kit.git(["checkout", "-q", "other"])
        try kit.write("# b\n\nOther words.\n", to: "notes/b.md")
        try kit.write("# both\n\nOther's.\n", to: "both.md")
        try Self.commit(kit, "other", at: "2026-11-02T12:00:00Z")
        try kit.git(["checkout", "-q", "main"])
        try Self.git(kit, ["merge", "-q", "--no-ff", "--no-edit", "side"], at: "2026-11-04T10:00:00Z")
        #expect(try Self.expectCurrent(kit) == 3)
        try Self.git(kit, ["merge", "-q", "--no-edit", "-s", "ours", "other"], at: "2026-11-04T11:00:00Z")
        #expect(try Self.expectCurrent(kit) == 4)
        try kit.git(["checkout", "-q", "-b", "ahead"])
        try kit.write("# f\n\nAhead.\n", to: "f.md")
        try Self.commit(kit, "ahead", at: "2026-11-05T10:00:00Z")
        try kit.git(["checkout", "-q", "main"])
        #expect(try Self.expectCurrent(kit) == 4)
        try kit.git(["merge", "-q", "--ff-only", "ahead"])
        #expect(try Self.expectCurrent(kit) == 5)
    }

    /// A fast-forward of a line of commits (one diff each, no diff of the two ends): a note
    /// added then deleted, one changed then changed back, one renamed, one changed.
    @Test func aFastForwardOfSeveralCommitsEqualsAWholeWalk() throws {
        let kit = try Self.start()
        defer { kit.remove() }
        try kit.git(["checkout", "-q", "-b", "ahead"])
        try kit.write("# x\n\nBriefly.\n", to: "x.md")
        try kit.write("# b\n\nFor a while.\n", to: "notes/b.md")
        try Self.commit(kit, "one", at: "2026-11-02T10:00:00Z")
        try kit.git(["rm", "-q", "x.md"])
        try kit.write("# b\n\nWords of b.\n", to: "notes/b.md")
        try kit.git(["mv", "notes/c.md", "c.md"])
        try Self.commit(kit, "two", at: "2026-11-03T10:00:00Z")
        try kit.write("# a\n\nChanged.\n", to: "notes/a.md")
        try Self.commit(kit, "three", at: "2026-11-04T10:00:00Z")
        try kit.git(["checkout", "-q", "main"])
        #expect(try Self.expectCurrent(kit) == 1)
        try kit.git(["merge", "-q", "--ff-only", "ahead"])
        #expect(try Self.expectCurrent(kit) == 2)
    }

    /// A reset, a rebase and an amended commit leave the kept commit out of `HEAD`'s history:
    /// the dates are those of a whole walk again, written whole.
    @Test func aResetARebaseAndARewrittenHistoryEqualAWholeWalk() throws {
        let kit = try Self.start()
        defer { kit.remove() }
        try kit.write("# a\n\nOne.\n", to: "notes/a.md")
        try Self.commit(kit, "one", at: "2026-11-02T10:00:00Z")
        try kit.write("# g\n\nTwo.\n", to: "g.md")
        try Self.commit(kit, "two", at: "2026-11-03T10:00:00Z")
        #expect(try Self.expectCurrent(kit) == 2)
        try kit.git(["reset", "-q", "--hard", "HEAD~1"])
        #expect(try Self.expectCurrent(kit) == 1)
        try kit.git(["checkout", "-q", "-b", "topic", "HEAD~1"])
        try kit.write("# b\n\nTopic.\n", to: "notes/b.md")
        try Self.commit(kit, "topic", at: "2026-11-04T10:00:00Z")
        #expect(try Self.expectCurrent(kit) == 1)
        try Self.git(kit, ["rebase", "-q", "main"], at: "2026-11-05T10:00:00Z")
        #expect(try Self.expectCurrent(kit) == 1)
        try kit.write("# b\n\nTopic, amended.\n", to: "notes/b.md")
        try kit.git(["add", "-A"])
        try Self.git(kit, ["commit", "-q", "--amend", "-m", "amended", "--date", "2026-10-01T10:00:00Z"], at: "2026-11-06T10:00:00Z")
        #expect(try Self.expectCurrent(kit) == 1)
    }

    /// Once the appended lines outgrow the rest, the next commit writes the file whole again
    /// (from its own bytes: `HistoryDatesCompaction`) with the dates a whole walk gives.
    @Test func appendsOutgrowingTheRestAreWrittenWhole() throws {
        let kit = try Self.start()
        defer { kit.remove() }
        let url = kit.root.appendingPathComponent(HistoryDatesFile.path)
        // The file's lines again and again (each block ending with the kept head), past 64 KiB.
        let block = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst().joined(separator: "\n") + "\n"
        let handle = try FileHandle(forUpdating: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(String(repeating: block, count: 70_000 / block.utf8.count + 1).utf8))
        try handle.close()
        #expect(try Self.expectCurrent(kit) > 100)
        try kit.write("# a\n\nChanged.\n", to: "notes/a.md")
        try kit.git(["rm", "-q", "notes/d.md"])
        try Self.commit(kit, "a", at: "2026-11-02T10:00:00Z")
        #expect(try Self.expectCurrent(kit) == 1)
    }

    /// An append cut short (lines after the last `head` line) is not used: the dates are
    /// brought up to date from the last `head` and the file written whole.
    @Test func anAppendCutShortIsNotUsed() throws {
        let kit = try Self.start()
        defer { kit.remove() }
        let url = kit.root.appendingPathComponent(HistoryDatesFile.path)
        let handle = try FileHandle(forUpdating: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("notes/a.md\t1\t2\t\(String(repeating: "0", count: 40))\nnotes/b".utf8))
        try handle.close()
        #expect(HistoryDatesFile.head(url) == nil)
        let kept = try #require(HistoryDatesFile.read(url))
        #expect(kept.entries["notes/a.md"] != nil && kept.entries["notes/a.md"]?.updated != Date(timeIntervalSince1970: 2))
        try kit.write("# b\n\nChanged.\n", to: "notes/b.md")
        try Self.commit(kit, "b", at: "2026-11-02T10:00:00Z")
        #expect(try Self.expectCurrent(kit) == 1)
    }
}
