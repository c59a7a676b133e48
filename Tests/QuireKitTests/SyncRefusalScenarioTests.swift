import Foundation
#if canImport(Glibc)
import Glibc
#endif
import QuireCore
import QuireKit
import QuireSync
import Testing

/// What a sync refuses, and the user's edit made while a sync runs, in process: typed errors
/// (the CLI maps them to its exit codes and hints: QuireCLITests' SyncErrorTests), and an edit
/// saved at a chosen step of the cycle (`phaseStarted`) never overwritten.
@Suite struct SyncRefusalScenarioTests {
    static let base = SyncMergeScenarioTests.base

    @Test func aVaultWithoutARemoteCommitsAndSaysSo() throws {
        let kit = try KitVault()
        defer { kit.remove() }
        let device = try KitDevice(name: "solo", kit: kit)
        try device.write(Self.base, to: "one.md")
        let first = try device.sync("2026-11-29T12:00:00Z").report
        #expect(first.noRemote, "a first sync without a remote says so")
        #expect(first.commit != nil, "the change is committed all the same")
        #expect(try device.git(["status", "--porcelain"]).isEmpty)
    }

    @Test func aRemoteThatIsNotThereIsNamedAndTheCommitStays() throws {
        let (world, a, _) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        try FileManager.default.removeItem(at: world.bare)
        try a.write(Self.base.replacingOccurrences(of: "Para one.", with: "Para one, offline."), to: "one.md")
        let error = #expect(throws: (any Error).self) { try a.sync("2026-11-29T12:00:00Z") }
        #expect(error.flatMap { GitFailure($0) }?.kind == .repositoryNotFound(serverAdvice: nil), "\(String(describing: error))")
        #expect(try a.git(["status", "--porcelain"]).isEmpty, "the local commit stays")
        #expect(try a.git(["log", "-1", "--format=%s"]) == "Edit “One”")
        let status = try SyncStatus.read(vaultRoot: a.root)
        #expect(status.ahead == 1, "one commit waits to be pushed")
    }

    @Test func aVaultLockedByAnotherSyncIsRefused() throws {
        let (world, a, _) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        let held = try VaultLock(vaultRoot: a.root)
        let error = #expect(throws: SyncError.self) { try a.sync("2026-11-29T12:00:00Z") }
        guard case .locked? = error else { Issue.record("\(String(describing: error))"); return }
        withExtendedLifetime(held) {}
    }

    @Test func aDetachedHeadIsRefused() throws {
        let (world, a, _) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        try a.git(["checkout", "-q", "--detach"])
        #expect(throws: SyncError.detachedHead) { try a.sync("2026-11-29T12:00:00Z") }
    }

    @Test func aMergeLeftInProgressByGitIsRefused() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        try b.write(Self.base.replacingOccurrences(of: "Para one.", with: "Para one, b."), to: "one.md")
        try b.sync("2026-11-29T12:00:00Z")
        try a.git(["fetch", "-q", "origin"])
        try a.write(Self.base.replacingOccurrences(of: "Para one.", with: "Para one, a."), to: "one.md")
        try a.git(["-c", "merge.quire.driver=false", "commit", "-qam", "by hand"])
        _ = try? a.git(["-c", "merge.quire.driver=false", "merge", "-q", "origin/main"])
        #expect(a.exists(".git/MERGE_HEAD"), "git left its merge in progress")
        let error = #expect(throws: SyncError.self) { try a.sync("2026-11-29T12:01:00Z") }
        guard case .operationInProgress? = error else { Issue.record("\(String(describing: error))"); return }
    }

    /// The user saves a note while the sync merges the other device's change of it: the save is
    /// never overwritten nor committed as a revert; the next sync merges it three ways against
    /// the version it was based on, and both changes reach both devices.
    @Test func anEditSavedWhileTheSyncMergesIsKeptAndMergedNextTime() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        let fromA = Self.base.replacingOccurrences(of: "Para one.", with: "Para one, from a.")
        try a.write(fromA, to: "one.md")
        try a.sync("2026-11-29T12:00:00Z")
        let saved = Self.base.replacingOccurrences(of: "Para three.", with: "Para three, saved during the sync.")
        let url = b.root.appendingPathComponent("one.md")
        var options = VaultSyncOptions(environment: b.environment("2026-11-29T12:01:00Z"))
        options.waitForDaemon = 0
        options.phaseStarted = { phase in
            if phase == .merging { try? Data(saved.utf8).write(to: url) }
        }
        let report = try VaultSync.run(b.vault, options: options)
        #expect(report.keptUserEdits == ["one.md"], "\(report.keptUserEdits)")
        #expect(try b.read("one.md") == saved, "left as the user wrote it")
        #expect(try world.remoteFile("one.md") == a.read("one.md"), "nothing of the save was committed as a revert")
        try b.sync("2026-11-29T12:02:00Z")
        let merged = try b.read("one.md")
        #expect(merged.contains("Para one, from a.") && merged.contains("Para three, saved during the sync."), "\(merged)")
        try a.sync("2026-11-29T12:03:00Z")
        #expect(try a.files() == b.files())
        #expect(try a.conflicts().isEmpty)
    }

    /// A sync interrupted at a safe point (the caller's `interruption` says a signal came) stops
    /// there with nothing half done; the next sync goes on and pushes.
    @Test func anInterruptedSyncStopsAtASafePointAndTheNextGoesOn() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.base])
        defer { world.remove() }
        try a.write(Self.base.replacingOccurrences(of: "Para two.", with: "Para two, a."), to: "one.md")
        var options = VaultSyncOptions(environment: a.environment("2026-11-29T12:00:00Z"))
        options.waitForDaemon = 0
        options.interruption = { SIGINT }
        let error = #expect(throws: SyncError.self) { try VaultSync.run(a.vault, options: options) }
        guard case .interrupted(let signal, _)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(signal == SIGINT)
        try a.sync("2026-11-29T12:01:00Z")
        try b.sync("2026-11-29T12:02:00Z")
        #expect(try b.read("one.md").contains("Para two, a."))
        #expect(try a.git(["status", "--porcelain"]).isEmpty)
    }
}
