import Foundation
import Testing

/// `--dry-run`, `--no-push`, `undo` and two `quire sync` processes racing, end to end: the output
/// and exit codes. (Strategies, undo after many merges and three devices converging, in process:
/// QuireKitTests' SyncOptionsScenarioTests.)
@Suite struct SyncOptionsTests {
    static let base = SyncMergeTests.base
    /// A's change: status done, updatedAt 11:30 (newer); B's: status review, updatedAt 11:00.
    static let fromA = base.replacingOccurrences(of: "draft", with: "done").replacingOccurrences(of: "10:00", with: "11:30")
    static let fromB = base.replacingOccurrences(of: "draft", with: "review").replacingOccurrences(of: "10:00", with: "11:00")

    /// A syncs its change, B merges with `--strategy strategy`, A syncs again.
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
