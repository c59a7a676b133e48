import Foundation
import QuireCore
import QuireKit
import QuireSync
import Testing

/// The sync's options and multi-device runs, in process: strategies, a dry run, committing
/// without pushing, undo after many merges, three devices converging, two devices pushing at
/// once. (The CLI's output for `--dry-run` and `--no-push`: QuireCLITests' SyncOptionsTests.)
@Suite struct SyncOptionsScenarioTests {
    static let base = SyncMergeScenarioTests.base
    /// A's change: status done, updatedAt 11:30 (newer); B's: status review, updatedAt 11:00.
    static let fromA = base.replacingOccurrences(of: "draft", with: "done").replacingOccurrences(of: "10:00", with: "11:30")
    static let fromB = base.replacingOccurrences(of: "draft", with: "review").replacingOccurrences(of: "10:00", with: "11:00")

    /// A syncs its change, B merges with `strategy`, A syncs again; both hold the same files.
    static func collide(_ strategy: MergeStrategy) throws -> (KitWorld, KitDevice, KitDevice) {
        let (world, a, b) = try KitWorld.pair(["one.md": base])
        try a.write(fromA, to: "one.md")
        try b.write(fromB, to: "one.md")
        try a.sync("2026-11-29T12:00:00Z")
        try b.sync("2026-11-29T12:01:00Z", strategy: strategy)
        try a.sync("2026-11-29T12:02:00Z")
        #expect(try a.files() == b.files())
        return (world, a, b)
    }

    @Test func strategyOursKeepsThisDevicesValue() throws {
        let (world, a, _) = try Self.collide(.ours)
        defer { world.remove() }
        #expect(try a.read("one.md") == Self.fromB.replacingOccurrences(of: "11:00:00Z", with: "11:30:00Z"))
    }

    @Test func strategyTheirsKeepsTheIncomingValue() throws {
        let (world, a, _) = try Self.collide(.theirs)
        defer { world.remove() }
        #expect(try a.read("one.md") == Self.fromA)
    }

    @Test func strategyKeepBothWritesTheLoserBeside() throws {
        let (world, a, _) = try Self.collide(.keepBoth)
        defer { world.remove() }
        #expect(try a.read("one.md") == Self.fromA)
        let copies = try a.files().keys.filter { $0.hasPrefix("one.conflict-") }
        #expect(copies == ["one.conflict-b-20261129T120100Z.md"])
        let copy = try a.read(try #require(copies.first))
        #expect(copy.contains("status: review\n") && copy.contains("conflictOf: n1\n"))
        #expect(!copy.contains("id: n1\n"), "a new id: two notes never share one")
        #expect(copy.hasSuffix("Para one.\n\nPara two.\n\nPara three.\n"))
    }

    /// A strategy set in the shared config for a path pattern applies without the option.
    @Test func aStrategyFromTheConfigAppliesToItsPaths() throws {
        let (world, a, b) = try KitWorld.pair(["Journal/one.md": Self.base, "one.md": Self.base])
        defer { world.remove() }
        try b.write(try b.read(".quire/config.yml") + "merge:\n  \"Journal/**\": theirs\n", to: ".quire/config.yml")
        try b.sync("2026-11-29T11:50:00Z")
        try a.sync("2026-11-29T11:51:00Z")
        for path in ["Journal/one.md", "one.md"] {
            try a.write(Self.fromA, to: path)
            try b.write(Self.fromB, to: path)
        }
        try a.sync("2026-11-29T12:00:00Z")
        try b.sync("2026-11-29T12:01:00Z")
        #expect(try b.read("Journal/one.md") == Self.fromA, "theirs, by the config")
        #expect(try b.read("one.md") == Self.fromA, "newest: a's is newer")
    }

    @Test func aDryRunChangesNothing() throws {
        let (world, a, _) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        let head = try a.git(["rev-parse", "HEAD"])
        let remoteHead = try world.remoteHead()
        let edited = Self.base.replacingOccurrences(of: "Para two.", with: "Para two, edited.")
        try a.write(edited, to: "one.md")
        var options = VaultSyncOptions(environment: a.environment("2026-11-29T12:00:00Z"), dryRun: true)
        options.waitForDaemon = 0
        let report = try VaultSync.run(a.vault, options: options)
        #expect(report.wouldCommit == ["M one.md"], "\(report.wouldCommit)")
        #expect(report.incomingCommits == 0, "\(report.incomingCommits)")
        #expect(report.outgoingCommits == 0, "no commit of this device waits yet; the one it would make is not counted")
        #expect(report.commit == nil && !report.pushed)
        #expect(try a.git(["rev-parse", "HEAD"]) == head)
        #expect(try world.remoteHead() == remoteHead)
        #expect(try a.read("one.md") == edited)
        #expect(try a.git(["status", "--porcelain"]) == "M one.md")
    }

    @Test func withoutPushTheCommitWaitsForTheNextSync() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        let remoteHead = try world.remoteHead()
        try a.write(Self.fromA, to: "one.md")
        let report = try a.sync("2026-11-29T12:00:00Z", push: false).report
        #expect(report.commit != nil && !report.pushed)
        #expect(try world.remoteHead() == remoteHead)
        #expect(try SyncStatus.read(vaultRoot: a.root).ahead == 1)
        try a.sync("2026-11-29T12:01:00Z")
        try b.sync("2026-11-29T12:02:00Z")
        #expect(try b.read("one.md") == Self.fromA)
    }

    @Test func undoReturnsToTheVaultBeforeTheMerge() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        try a.write(Self.fromA, to: "one.md")
        try a.write(kitNote("n2", title: "Two", updated: "2026-11-29T11:00:00Z"), to: "two.md")
        try a.sync("2026-11-29T12:00:00Z")
        let mine = kitNote("n3", title: "Three", updated: "2026-11-29T11:00:00Z")
        try b.write(mine, to: "three.md")
        try b.sync("2026-11-29T12:01:00Z")
        #expect(try b.read("one.md") == Self.fromA)
        _ = try SyncUndo.run(b.vault, environment: b.environment("2026-11-29T12:05:00Z"))
        #expect(try b.read("one.md") == Self.base)
        #expect(!b.exists("two.md"))
        #expect(try b.read("three.md") == mine)
        try b.sync("2026-11-29T12:06:00Z")
        try a.sync("2026-11-29T12:07:00Z")
        #expect(try a.files() == b.files())
        #expect(try a.read("one.md") == Self.base)
        #expect(throws: SyncError.nothingToUndo) { try SyncUndo.run(b.vault, environment: b.environment("2026-11-29T12:08:00Z")) }
    }

    /// Eleven merges in the same second: undo still takes back the newest.
    @Test func undoAfterManyMergesInOneSecond() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        for round in 1...11 {
            try a.write("a\(round)\n", to: "a\(round).txt")
            try a.sync()
            try b.write("b\(round)\n", to: "b\(round).txt")
            try b.sync()
        }
        _ = try SyncUndo.run(b.vault, environment: b.environment("2026-11-29T12:00:00Z"))
        #expect(b.exists("b11.txt") && b.exists("a10.txt"))
        #expect(!b.exists("a11.txt"))
    }

    @Test func threeDevicesConverge() throws {
        let world = try KitWorld(notes: ["shared.md": Self.base])
        defer { world.remove() }
        let a = world.first
        let b = try world.clone("b"), c = try world.clone("c")
        try a.write(Self.base.replacingOccurrences(of: "Para one.", with: "Para one, A.").replacingOccurrences(of: "10:00", with: "10:30"),
                    to: "shared.md")
        try b.write(Self.base.replacingOccurrences(of: "Para two.", with: "Para two, B.").replacingOccurrences(of: "10:00", with: "11:00"),
                    to: "shared.md")
        let fromC = Self.base.replacingOccurrences(of: "Para two.", with: "Para two, C.").replacingOccurrences(of: "10:00", with: "11:30")
        try c.write(fromC, to: "shared.md")
        for device in [a, b, c] {
            try device.write(kitNote("only-\(device.name)", title: device.name, updated: "2026-11-29T11:00:00Z"), to: "\(device.name).md")
        }
        for (index, device) in [a, b, c, a, b].enumerated() { try device.sync("2026-11-29T12:0\(index):00Z") }
        let tree = try a.headTree()
        #expect(try b.headTree() == tree && c.headTree() == tree)
        #expect(try a.kit.git(["rev-parse", "main^{tree}"], in: world.bare) == tree)
        #expect(try a.files() == b.files() && a.files() == c.files())
        for (path, text) in try a.files() { #expect(!text.contains("<<<<<<<"), "\(path)") }
        // B's and C's edits collide on the same words: C's (newer) are kept, B's are in the log.
        #expect(try a.read("shared.md") == fromC.replacingOccurrences(of: "Para one.", with: "Para one, A."))
        #expect(Set(try a.files().keys.filter { $0.hasSuffix(".md") }) == ["shared.md", "a.md", "b.md", "c.md"])
        #expect(try a.conflicts().contains { $0.path == "shared.md" && $0.losingDevice == "b" })
        try a.kit.git(["fsck", "--strict"], in: world.bare)
    }

    /// Two devices syncing at the same moment: one push is rejected, that device fetches,
    /// merges and pushes again; both end on one tree with both changes.
    @Test func twoDevicesPushingAtOnceBothSucceed() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        try a.write(Self.fromA, to: "one.md")
        try b.write(kitNote("n2", title: "Two", updated: "2026-11-29T11:00:00Z"), to: "two.md")
        let reports = Reports()
        let group = DispatchGroup()
        for (device, now) in [(a, "2026-11-29T12:00:00Z"), (b, "2026-11-29T12:00:01Z")] {
            group.enter()
            Thread.detachNewThread {
                reports.add(Result { try device.sync(now).report })
                group.leave()
            }
        }
        group.wait()
        for result in reports.all { #expect(throws: Never.self) { try result.get() } }
        try a.sync("2026-11-29T12:01:00Z")
        try b.sync("2026-11-29T12:02:00Z")
        #expect(try a.headTree() == b.headTree())
        #expect(try a.read("one.md") == Self.fromA)
        #expect(try a.read("two.md") == b.read("two.md"))
        try a.kit.git(["fsck"], in: world.bare)
    }
}

/// Sync results gathered from several threads.
private final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<SyncReport, any Error>] = []
    func add(_ result: Result<SyncReport, any Error>) { lock.withLock { results.append(result) } }
    var all: [Result<SyncReport, any Error>] { lock.withLock { results } }
}
