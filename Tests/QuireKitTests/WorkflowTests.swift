import Foundation
import QuireCore
import QuireGit
import QuireKit
import QuireSearch
import QuireSync
import Testing

/// QuireKit's workflows in process: typed options in, typed reports (or typed errors) out.
@Suite final class WorkflowTests {
    private let kit: KitVault
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    init() throws { kit = try KitVault() }
    deinit { kit.remove() }

    @Test func initRegistersTheMergeDriverAndRefusesAVaultTwice() throws {
        #expect(try kit.read(".gitattributes").contains("*.md merge=quire"))
        #expect(try kit.git(["config", "merge.quire.driver"]) == "/usr/bin/quire merge-driver %O %A %B %P")
        #expect(throws: KitError.alreadyVault(path: kit.root.path)) { try VaultSetup.initialize(at: kit.root) }
        let other = kit.root.deletingLastPathComponent().appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try Data("# a\n".utf8).write(to: other.appendingPathComponent("a.md"))
        let report = try VaultSetup.initialize(at: other, driverProgram: "/q")
        #expect(report.notes == 1)
        #expect(!report.adoptedRepository)
        let inner = #expect(throws: CoreError.self) { try VaultSetup.initialize(at: other.appendingPathComponent("inner")) }
        guard case .vaultNotAtWorkTreeRoot? = inner else { Issue.record("\(String(describing: inner))"); return }
    }

    /// A CRLF checkout of `.gitattributes` (`core.autocrlf`, as a clone on such a device makes)
    /// already has the driver's line: registering again changes nothing (a second line was
    /// added, and the next sync committed and pushed it).
    @Test func registeringAgainOverACRLFCheckoutChangesNothing() throws {
        for text in ["*.md merge=quire\r\n", "*.png binary\r\n*.md merge=quire\r\n"] {
            try kit.write(text, to: ".gitattributes")
            try MergeDriverRegistration.register(repository: try Repository.open(at: kit.root), vault: kit.vault, binary: "/q")
            #expect(try kit.read(".gitattributes") == text)
        }
        try kit.write("*.png binary\r\n", to: ".gitattributes")
        try MergeDriverRegistration.register(repository: try Repository.open(at: kit.root), vault: kit.vault, binary: "/q")
        #expect(try kit.read(".gitattributes") == "*.png binary\r\n*.md merge=quire\r\n")
    }

    @Test func removeAndRestoreACommittedNote() throws {
        try kit.write("---\ntitle: A\n---\nfirst\n", to: "a.md")
        let first = try kit.commitAll()
        #expect(try NoteRemoval.run(path: "a.md", vault: kit.vault, now: now) == .removed(path: "a.md"))
        #expect(!kit.exists("a.md"))
        let back = try NoteRestore.run(.init(path: "a.md", source: .deleted, now: now), vault: kit.vault)
        #expect(back.origin == .lastCommit(CommitID(hex: first)))
        #expect(try kit.read("a.md") == "---\ntitle: A\n---\nfirst\n")  // as committed: not stamped
        #expect(throws: KitError.nothingToRestore(path: "a.md")) { try NoteRestore.run(.init(path: "a.md", source: .deleted, now: now), vault: kit.vault) }
    }

    @Test func removeOfANoteNeverCommittedGoesToTheTrashAndComesBack() throws {
        try kit.write("new\n", to: "Drafts/n.md")
        guard case let .trashed(_, trashPath, committed) = try NoteRemoval.run(path: "Drafts/n.md", vault: kit.vault, now: now) else {
            Issue.record("not trashed"); return
        }
        #expect(!committed)
        #expect(trashPath.hasPrefix(".quire/local/trash/") && trashPath.hasSuffix("/Drafts/n.md"))
        #expect(try NoteRestore.run(.init(path: "Drafts/n.md", source: .deleted, now: now), vault: kit.vault).origin == .trash)
        #expect(try kit.read("Drafts/n.md") == "new\n")
        #expect(throws: KitError.notDeleted(path: "gone.md")) { try NoteRestore.run(.init(path: "gone.md", source: .deleted, now: now), vault: kit.vault) }
    }

    @Test func restoreAtARevisionKeepsUnsyncedChangesOnlyWhenForced() throws {
        try kit.write("---\ntitle: A\n---\nfirst\n", to: "a.md")
        let first = try kit.commitAll()
        try kit.write("---\ntitle: A\n---\nsecond\n", to: "a.md")
        try kit.commitAll()
        try kit.write("---\ntitle: A\n---\nunsynced\n", to: "a.md")
        let options = NoteRestore.Options(path: "a.md", source: .revision(String(first.prefix(8))), now: now)
        #expect(throws: KitError.unsyncedChanges(path: "a.md")) { try NoteRestore.run(options, vault: kit.vault) }
        #expect(try kit.read("a.md") == "---\ntitle: A\n---\nunsynced\n")
        var forced = options
        forced.force = true
        let report = try NoteRestore.run(forced, vault: kit.vault)
        #expect(report.origin == .commit(CommitID(hex: first)))
        let kept = try #require(report.keptCopy)
        #expect(try kit.read(kept) == "---\ntitle: A\n---\nunsynced\n")
        let restored = try kit.read("a.md")
        #expect(restored.hasSuffix("---\nfirst\n"))
        #expect(restored.contains("updatedAt: 2027-01-15T08:00:00+00:00"), "\(restored)")
        #expect(throws: KitError.unknownRevision("nope")) { try NoteRestore.run(.init(path: "a.md", source: .revision("nope"), now: now), vault: kit.vault) }
    }

    @Test func historyListsChangesAndDeletedNotesAndOldVersions() throws {
        try kit.write("one\n", to: "a.md")
        let first = try kit.commitAll("first")
        try kit.write("two\n", to: "a.md")
        try kit.commitAll("second")
        try FileManager.default.removeItem(at: kit.root.appendingPathComponent("a.md"))
        try kit.commitAll("gone")
        let history = try VaultHistory(vault: kit.vault)
        #expect(try history.changes(of: "a.md").map(\.summary) == ["gone", "second", "first"])
        #expect(try history.changes(of: "a.md", limit: 1).count == 1)
        let deleted = try history.deletedNotes()
        #expect(deleted.map(\.path) == ["a.md"])
        let old = try history.version(of: "a.md", at: first)
        #expect(String(decoding: old.data, as: UTF8.self) == "one\n")
        #expect(old.commit.hex == first)
        #expect(throws: KitError.notInCommit(path: "b.md", revision: first)) { try history.version(of: "b.md", at: first) }
    }

    @Test func undoWithoutAMergeIsRefused() throws {
        try kit.write("# a\n", to: "a.md")
        try kit.commitAll()
        #expect(throws: SyncError.nothingToUndo) { try SyncUndo.run(kit.vault, environment: kit.environment) }
        #expect(try kit.read("a.md") == "# a\n")
    }

    @Test func remoteIsSetShownRedactedAndCertificatesArePinnedOnce() throws {
        #expect(throws: KitError.noRemote) { try VaultRemote.url(of: kit.vault) }
        #expect(try VaultRemote.set("https://me:secret@example.com/notes.git", in: kit.vault) == VaultRemote.redacted("https://me:secret@example.com/notes.git"))
        #expect(try !VaultRemote.url(of: kit.vault).contains("secret"))
        #expect(try kit.git(["config", "remote.origin.url"]) == "https://me:secret@example.com/notes.git")
        let pin = try #require(VaultRemote.normalizedFingerprint(String(repeating: "ab", count: 32)))
        #expect(VaultRemote.normalizedFingerprint("SHA256:12") == nil)
        try VaultRemote.pinCertificate(pin, in: kit.vault)
        try VaultRemote.pinCertificate(pin, in: kit.vault)
        let config = try VaultConfig(data: Data(try kit.read(".quire/local/config.yml").utf8), path: "config.yml")
        #expect(TransferSettings.pinnedCertificates(config) == [pin])
    }

    @Test func cloneOfALocalRemoteAndItsRefusals() throws {
        try kit.write("# a\n", to: "a.md")
        try kit.commitAll()
        let bare = kit.root.deletingLastPathComponent().appendingPathComponent("remote.git")
        try kit.git(["clone", "-q", "--bare", kit.root.path, bare.path], in: kit.root.deletingLastPathComponent())
        let target = kit.root.deletingLastPathComponent().appendingPathComponent("copy")
        let steps = Steps()
        let report = try VaultClone.run(.init(url: bare.path, root: target, displayName: "copy", environment: kit.environment,
                                              now: now, driverProgram: "/q", progress: { steps.add($0) }))
        #expect(report.branch == "main")
        #expect(report.skipped == [])
        #expect(try String(contentsOf: target.appendingPathComponent("a.md"), encoding: .utf8) == "# a\n")
        #expect(FileManager.default.fileExists(atPath: target.appendingPathComponent(".quire/config.yml").path))
        #expect(steps.all.allSatisfy { $0.done <= $0.total })
        #expect(throws: KitError.folderNotEmpty("copy")) {
            try VaultClone.run(.init(url: bare.path, root: target, displayName: "copy", environment: kit.environment, now: now))
        }
        let missing = kit.root.deletingLastPathComponent().appendingPathComponent("elsewhere")
        let notFound = #expect(throws: (any Error).self) {
            try VaultClone.run(.init(url: "/nonexistent/remote.git", root: missing, displayName: "elsewhere",
                                     environment: kit.environment, now: now))
        }
        #expect(notFound.flatMap { GitFailure($0) }?.kind == .repositoryNotFound(serverAdvice: nil))
        #expect(!FileManager.default.fileExists(atPath: missing.path), "a failed clone leaves nothing behind")
    }
}

/// Progress reports collected from libgit2's thread.
private final class Steps: @unchecked Sendable {
    private let lock = NSLock()
    private var steps: [TransferActivity] = []
    func add(_ step: TransferActivity) { lock.withLock { steps.append(step) } }
    var all: [TransferActivity] { lock.withLock { steps } }
}
