import Foundation
import QuireCore
import QuireGit
import QuireKit
import QuireSearch
import QuireSync
import XCTest

/// QuireKit's workflows in process: typed options in, typed reports (or typed errors) out.
final class WorkflowTests: XCTestCase {
    private var kit: KitVault!
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    override func setUpWithError() throws { kit = try KitVault() }
    override func tearDown() { kit.remove() }

    func testInitRegistersTheMergeDriverAndRefusesAVaultTwice() throws {
        XCTAssertTrue(try kit.read(".gitattributes").contains("*.md merge=quire"))
        XCTAssertEqual(try kit.git(["config", "merge.quire.driver"]), "/usr/bin/quire merge-driver %O %A %B %P")
        XCTAssertThrowsError(try VaultSetup.initialize(at: kit.root)) { error in
            XCTAssertEqual(error as? KitError, .alreadyVault(path: kit.root.path))
        }
        let other = kit.root.deletingLastPathComponent().appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try Data("# a\n".utf8).write(to: other.appendingPathComponent("a.md"))
        let report = try VaultSetup.initialize(at: other, driverProgram: "/q")
        XCTAssertEqual(report.notes, 1)
        XCTAssertFalse(report.adoptedRepository)
        XCTAssertThrowsError(try VaultSetup.initialize(at: other.appendingPathComponent("inner"))) { error in
            guard case CoreError.vaultNotAtWorkTreeRoot = error else { return XCTFail("\(error)") }
        }
    }

    /// A CRLF checkout of `.gitattributes` (`core.autocrlf`, as a clone on such a device makes)
    /// already has the driver's line: registering again changes nothing (a second line was
    /// added, and the next sync committed and pushed it).
    func testRegisteringAgainOverACRLFCheckoutChangesNothing() throws {
        for text in ["*.md merge=quire\r\n", "*.png binary\r\n*.md merge=quire\r\n"] {
            try kit.write(text, to: ".gitattributes")
            try MergeDriverRegistration.register(repository: try Repository.open(at: kit.root), vault: kit.vault, binary: "/q")
            XCTAssertEqual(try kit.read(".gitattributes"), text)
        }
        try kit.write("*.png binary\r\n", to: ".gitattributes")
        try MergeDriverRegistration.register(repository: try Repository.open(at: kit.root), vault: kit.vault, binary: "/q")
        XCTAssertEqual(try kit.read(".gitattributes"), "*.png binary\r\n*.md merge=quire\r\n")
    }

    func testRemoveAndRestoreACommittedNote() throws {
        try kit.write("---\ntitle: A\n---\nfirst\n", to: "a.md")
        let first = try kit.commitAll()
        XCTAssertEqual(try NoteRemoval.run(path: "a.md", vault: kit.vault, now: now), .removed(path: "a.md"))
        XCTAssertFalse(kit.exists("a.md"))
        let back = try NoteRestore.run(.init(path: "a.md", source: .deleted, now: now), vault: kit.vault)
        XCTAssertEqual(back.origin, .lastCommit(CommitID(hex: first)))
        XCTAssertEqual(try kit.read("a.md"), "---\ntitle: A\n---\nfirst\n")  // as committed: not stamped
        XCTAssertThrowsError(try NoteRestore.run(.init(path: "a.md", source: .deleted, now: now), vault: kit.vault)) {
            XCTAssertEqual($0 as? KitError, .nothingToRestore(path: "a.md"))
        }
    }

    func testRemoveOfANoteNeverCommittedGoesToTheTrashAndComesBack() throws {
        try kit.write("new\n", to: "Drafts/n.md")
        guard case let .trashed(_, trashPath, committed) = try NoteRemoval.run(path: "Drafts/n.md", vault: kit.vault, now: now) else {
            return XCTFail("not trashed")
        }
        XCTAssertFalse(committed)
        XCTAssertTrue(trashPath.hasPrefix(".quire/local/trash/") && trashPath.hasSuffix("/Drafts/n.md"))
        XCTAssertEqual(try NoteRestore.run(.init(path: "Drafts/n.md", source: .deleted, now: now), vault: kit.vault).origin, .trash)
        XCTAssertEqual(try kit.read("Drafts/n.md"), "new\n")
        XCTAssertThrowsError(try NoteRestore.run(.init(path: "gone.md", source: .deleted, now: now), vault: kit.vault)) {
            XCTAssertEqual($0 as? KitError, .notDeleted(path: "gone.md"))
        }
    }

    func testRestoreAtARevisionKeepsUnsyncedChangesOnlyWhenForced() throws {
        try kit.write("---\ntitle: A\n---\nfirst\n", to: "a.md")
        let first = try kit.commitAll()
        try kit.write("---\ntitle: A\n---\nsecond\n", to: "a.md")
        try kit.commitAll()
        try kit.write("---\ntitle: A\n---\nunsynced\n", to: "a.md")
        let options = NoteRestore.Options(path: "a.md", source: .revision(String(first.prefix(8))), now: now)
        XCTAssertThrowsError(try NoteRestore.run(options, vault: kit.vault)) {
            XCTAssertEqual($0 as? KitError, .unsyncedChanges(path: "a.md"))
        }
        XCTAssertEqual(try kit.read("a.md"), "---\ntitle: A\n---\nunsynced\n")
        var forced = options
        forced.force = true
        let report = try NoteRestore.run(forced, vault: kit.vault)
        XCTAssertEqual(report.origin, .commit(CommitID(hex: first)))
        let kept = try XCTUnwrap(report.keptCopy)
        XCTAssertEqual(try kit.read(kept), "---\ntitle: A\n---\nunsynced\n")
        let restored = try kit.read("a.md")
        XCTAssertTrue(restored.hasSuffix("---\nfirst\n"))
        XCTAssertTrue(restored.contains("updatedAt: 2027-01-15T08:00:00+00:00"), restored)
        XCTAssertThrowsError(try NoteRestore.run(.init(path: "a.md", source: .revision("nope"), now: now), vault: kit.vault)) {
            XCTAssertEqual($0 as? KitError, .unknownRevision("nope"))
        }
    }

    func testHistoryListsChangesAndDeletedNotesAndOldVersions() throws {
        try kit.write("one\n", to: "a.md")
        let first = try kit.commitAll("first")
        try kit.write("two\n", to: "a.md")
        try kit.commitAll("second")
        try FileManager.default.removeItem(at: kit.root.appendingPathComponent("a.md"))
        try kit.commitAll("gone")
        let history = try VaultHistory(vault: kit.vault)
        XCTAssertEqual(try history.changes(of: "a.md").map(\.summary), ["gone", "second", "first"])
        XCTAssertEqual(try history.changes(of: "a.md", limit: 1).count, 1)
        let deleted = try history.deletedNotes()
        XCTAssertEqual(deleted.map(\.path), ["a.md"])
        let old = try history.version(of: "a.md", at: first)
        XCTAssertEqual(String(decoding: old.data, as: UTF8.self), "one\n")
        XCTAssertEqual(old.commit.hex, first)
        XCTAssertThrowsError(try history.version(of: "b.md", at: first)) {
            XCTAssertEqual($0 as? KitError, .notInCommit(path: "b.md", revision: first))
        }
    }

    func testUndoWithoutAMergeIsRefused() throws {
        try kit.write("# a\n", to: "a.md")
        try kit.commitAll()
        XCTAssertThrowsError(try SyncUndo.run(kit.vault, environment: kit.environment)) {
            XCTAssertEqual($0 as? SyncError, .nothingToUndo)
        }
        XCTAssertEqual(try kit.read("a.md"), "# a\n")
    }

    func testRemoteIsSetShownRedactedAndCertificatesArePinnedOnce() throws {
        XCTAssertThrowsError(try VaultRemote.url(of: kit.vault)) { XCTAssertEqual($0 as? KitError, .noRemote) }
        XCTAssertEqual(try VaultRemote.set("https://me:secret@example.com/notes.git", in: kit.vault),
                       VaultRemote.redacted("https://me:secret@example.com/notes.git"))
        XCTAssertFalse(try VaultRemote.url(of: kit.vault).contains("secret"))
        XCTAssertEqual(try kit.git(["config", "remote.origin.url"]), "https://me:secret@example.com/notes.git")
        let pin = try XCTUnwrap(VaultRemote.normalizedFingerprint(String(repeating: "ab", count: 32)))
        XCTAssertNil(VaultRemote.normalizedFingerprint("SHA256:12"))
        try VaultRemote.pinCertificate(pin, in: kit.vault)
        try VaultRemote.pinCertificate(pin, in: kit.vault)
        let config = try VaultConfig(data: Data(try kit.read(".quire/local/config.yml").utf8), path: "config.yml")
        XCTAssertEqual(TransferSettings.pinnedCertificates(config), [pin])
    }

    func testCloneOfALocalRemoteAndItsRefusals() throws {
        try kit.write("# a\n", to: "a.md")
        try kit.commitAll()
        let bare = kit.root.deletingLastPathComponent().appendingPathComponent("remote.git")
        try kit.git(["clone", "-q", "--bare", kit.root.path, bare.path], in: kit.root.deletingLastPathComponent())
        let target = kit.root.deletingLastPathComponent().appendingPathComponent("copy")
        let steps = Steps()
        let report = try VaultClone.run(.init(url: bare.path, root: target, displayName: "copy", environment: kit.environment,
                                              now: now, driverProgram: "/q", progress: { steps.add($0) }))
        XCTAssertEqual(report.branch, "main")
        XCTAssertEqual(report.skipped, [])
        XCTAssertEqual(try String(contentsOf: target.appendingPathComponent("a.md"), encoding: .utf8), "# a\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: target.appendingPathComponent(".quire/config.yml").path))
        XCTAssertTrue(steps.all.allSatisfy { $0.done <= $0.total })
        XCTAssertThrowsError(try VaultClone.run(.init(url: bare.path, root: target, displayName: "copy",
                                                      environment: kit.environment, now: now))) {
            XCTAssertEqual($0 as? KitError, .folderNotEmpty("copy"))
        }
        let missing = kit.root.deletingLastPathComponent().appendingPathComponent("elsewhere")
        XCTAssertThrowsError(try VaultClone.run(.init(url: "/nonexistent/remote.git", root: missing, displayName: "elsewhere",
                                                      environment: kit.environment, now: now))) {
            XCTAssertEqual(GitFailure($0)?.kind, .repositoryNotFound(serverAdvice: nil))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing.path), "a failed clone leaves nothing behind")
    }
}

/// Progress reports collected from libgit2's thread.
private final class Steps: @unchecked Sendable {
    private let lock = NSLock()
    private var steps: [TransferActivity] = []
    func add(_ step: TransferActivity) { lock.withLock { steps.append(step) } }
    var all: [TransferActivity] { lock.withLock { steps } }
}
