import Foundation
import Testing

/// `--strategy`, `--dry-run`, `--no-push`, `undo`, three devices converging and a push race.
@Suite struct SyncOptionsTests {
    static let base = SyncMergeTests.base
    /// A's change: status done, updatedAt 11:30 (newer); B's: status review, updatedAt 11:00.
    static let fromA = base.replacingOccurrences(of: "draft", with: "done").replacingOccurrences(of: "10:00", with: "11:30")
    static let fromB = base.replacingOccurrences(of: "draft", with: "review").replacingOccurrences(of: "10:00", with: "11:00")

    static func collide(strategy: String) throws -> (Device, Device) {
        let (a, b) = try SyncWorld().pair(["one.md": base])
        try a.write(fromA, to: "one.md")
        try b.write(fromB, to: "one.md")
        try a.sync(now: "2026-11-29T12:00:00Z")
        try b.sync(["--strategy", strategy], now: "2026-11-29T12:01:00Z")
        try a.sync(now: "2026-11-29T12:02:00Z")
        #expect(try a.files() == b.files())
        return (a, b)
    }

    @Test func strategyOursKeepsThisDevicesValue() throws {
        let (a, _) = try Self.collide(strategy: "ours")
        #expect(try a.read("one.md") == Self.fromB.replacingOccurrences(of: "11:00:00Z", with: "11:30:00Z"))
    }

    @Test func strategyTheirsKeepsTheIncomingValue() throws {
        let (a, _) = try Self.collide(strategy: "theirs")
        #expect(try a.read("one.md") == Self.fromA)
    }

    @Test func strategyKeepBothWritesTheLoserBeside() throws {
        let (a, _) = try Self.collide(strategy: "keep-both")
        #expect(try a.read("one.md") == Self.fromA)
        let copies = try a.files().keys.filter { $0.hasPrefix("one.conflict-") }
        #expect(copies == ["one.conflict-b-20261129T120100Z.md"])
        let copy = try a.read(try #require(copies.first))
        #expect(copy.contains("status: review\n"))
        #expect(copy.contains("conflictOf: n1\n"))
        #expect(!copy.contains("id: n1\n"))
        #expect(copy.hasSuffix("Para one.\n\nPara two.\n\nPara three.\n"))
    }

    @Test func dryRunCommitsNothing() throws {
        let world = try SyncWorld()
        let (a, _) = try world.pair(["one.md": Self.base])
        let head = try a.git(["rev-parse", "HEAD"]).stdout
        let remoteHead = try world.git(["rev-parse", "main"]).stdout
        let edited = Self.base.replacingOccurrences(of: "Para two.", with: "Para two, edited.")
        try a.write(edited, to: "one.md")
        let run = try a.sync(["--dry-run"])
        #expect(run.stdout == "would commit 1 change:\n  M one.md\nwould merge 0 remote commits and push 1 commit\n")
        #expect(try a.git(["rev-parse", "HEAD"]).stdout == head)
        #expect(try world.git(["rev-parse", "main"]).stdout == remoteHead)
        #expect(try a.read("one.md") == edited)
        #expect(try a.git(["status", "--porcelain"]).stdout == " M one.md\n")
    }

    @Test func noPushCommitsAndMergesButDoesNotPush() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["one.md": Self.base])
        let remoteHead = try world.git(["rev-parse", "main"]).stdout
        try a.write(Self.fromA, to: "one.md")
        let run = try a.sync(["--no-push"])
        #expect(run.stdout.hasSuffix("not pushed (--no-push)\n"))
        #expect(try world.git(["rev-parse", "main"]).stdout == remoteHead)
        #expect(try a.run(["status"]).stdout.contains("1 local commit waiting to be pushed"))
        try a.sync()
        try b.sync()
        #expect(try b.read("one.md") == Self.fromA)
    }

    @Test func undoReturnsToTheVaultBeforeTheMerge() throws {
        let (a, b) = try SyncWorld().pair(["one.md": Self.base])
        try a.write(Self.fromA, to: "one.md")
        try a.write(note("n2", title: "Two", updated: "2026-11-29T11:00:00Z"), to: "two.md")
        try a.sync()
        let mine = note("n3", title: "Three", updated: "2026-11-29T11:00:00Z")
        try b.write(mine, to: "three.md")
        try b.sync(now: "2026-11-29T12:01:00Z")
        #expect(try b.read("one.md") == Self.fromA)
        let undone = try b.run(["undo"], now: "2026-11-29T12:05:00Z")
        #expect(undone.code == 0, "\(undone.stderr)")
        #expect(try b.read("one.md") == Self.base)
        #expect(!b.exists("two.md"))
        #expect(try b.read("three.md") == mine)
        try b.sync(now: "2026-11-29T12:06:00Z")
        try a.sync(now: "2026-11-29T12:07:00Z")
        #expect(try a.files() == b.files())
        #expect(try a.read("one.md") == Self.base)
        #expect(try b.run(["undo"]).code == 1)
    }

    /// Eleven merges in the same second (`-2` … `-11` backups): undo still takes the newest.
    @Test func undoAfterManyMergesInOneSecond() throws {
        let (a, b) = try SyncWorld().pair(["one.md": Self.base])
        for round in 1...11 {
            try a.write("a\(round)\n", to: "a\(round).txt")
            try a.sync()
            try b.write("b\(round)\n", to: "b\(round).txt")
            try b.sync()
        }
        let undone = try b.run(["undo"])
        #expect(undone.code == 0, "\(undone.stderr)")
        #expect(b.exists("b11.txt"))
        #expect(b.exists("a10.txt"))
        #expect(!b.exists("a11.txt"))
    }

    @Test func threeDevicesConverge() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["shared.md": Self.base])
        let b = try world.clone("b"), c = try world.clone("c")
        try a.write(Self.base.replacingOccurrences(of: "Para one.", with: "Para one, A.")
            .replacingOccurrences(of: "10:00", with: "10:30"), to: "shared.md")
        try b.write(Self.base.replacingOccurrences(of: "Para two.", with: "Para two, B.")
            .replacingOccurrences(of: "10:00", with: "11:00"), to: "shared.md")
        let fromC = Self.base.replacingOccurrences(of: "Para two.", with: "Para two, C.")
            .replacingOccurrences(of: "10:00", with: "11:30")
        try c.write(fromC, to: "shared.md")
        for device in [a, b, c] {
            try device.write(note("only-\(device.name)", title: device.name, updated: "2026-11-29T11:00:00Z"), to: "\(device.name).md")
        }
        for (index, device) in [a, b, c, a, b].enumerated() {
            try device.sync(now: "2026-11-29T12:0\(index):00Z")
        }
        let tree = try a.headTree()
        #expect(try b.headTree() == tree)
        #expect(try c.headTree() == tree)
        #expect(try world.git(["rev-parse", "main^{tree}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == tree)
        #expect(try a.files() == b.files())
        #expect(try a.files() == c.files())
        for (path, text) in try a.files() { #expect(!text.contains("<<<<<<<"), "\(path)") }
        // B's and C's edits collide on the same words: C's (newer) are kept and B's are in the
        // conflict log; A's edit of another paragraph survives.
        #expect(try a.read("shared.md") == fromC.replacingOccurrences(of: "Para one.", with: "Para one, A."))
        #expect(Set(try a.files().keys.filter { $0.hasSuffix(".md") }) == ["shared.md", "a.md", "b.md", "c.md"])
        let fsck = try world.git(["fsck", "--strict"])
        #expect(fsck.code == 0, "\(fsck.stderr)")
    }

    @Test func pushRaceBothSucceedAndConverge() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["one.md": Self.base])
        try a.write(Self.fromA, to: "one.md")
        try b.write(note("n2", title: "Two", updated: "2026-11-29T11:00:00Z"), to: "two.md")
        let results = try concurrently([{ try a.run(["sync"]) }, { try b.run(["sync"], now: "2026-11-29T12:00:01Z") }])
        for result in results { #expect(result.code == 0, "\(result.stdout)\(result.stderr)") }
        try a.sync(now: "2026-11-29T12:01:00Z")
        try b.sync(now: "2026-11-29T12:02:00Z")
        #expect(try a.headTree() == b.headTree())
        #expect(try a.read("one.md") == Self.fromA)
        #expect(try a.read("two.md") == b.read("two.md"))
        #expect(try world.git(["fsck"]).code == 0)
    }
}

/// Runs `blocks` at the same time on separate threads and returns their results in order.
func concurrently(_ blocks: [@Sendable () throws -> QuireRun]) throws -> [QuireRun] {
    final class Box: @unchecked Sendable {
        let lock = NSLock()
        var results: [Int: Result<QuireRun, Error>] = [:]
    }
    let box = Box()
    let group = DispatchGroup()
    for (index, block) in blocks.enumerated() {
        group.enter()
        Thread.detachNewThread {
            let result = Result { try block() }
            box.lock.lock()
            box.results[index] = result
            box.lock.unlock()
            group.leave()
        }
    }
    group.wait()
    return try blocks.indices.map { try box.results[$0]?.get() ?? QuireRun(stdout: "", stderr: "missing", code: -1) }
}
