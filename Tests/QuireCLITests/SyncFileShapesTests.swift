import Foundation
import Testing

/// Files a sync brings in are written as git writes them, and nothing the user did not change is
/// ever committed: binary files, CRLF notes on a `core.autocrlf` device, a file turned into a
/// folder. Two devices through a bare repository (found by a QA pass, 2026-12-03).
@Suite struct SyncFileShapesTests {
    /// A file holding a nul byte (an image, a PDF, a binary `.md`) was written empty by the
    /// work-tree update, and the next sync committed and pushed the empty file everywhere.
    @Test(arguments: [false, true])
    func binaryFilesArriveWhole(autocrlf: Bool) throws {
        let (a, b) = try SyncWorld().pair(["keep.md": SyncPairingTests.keep])
        if autocrlf { try b.git(["config", "core.autocrlf", "true"]) }
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52])
        let binaryNote = Data("text\u{0}with a nul\n".utf8)
        try png.write(to: a.vault.url("photo.png"))
        try binaryNote.write(to: a.vault.url("data.md"))
        try a.sync()
        try b.sync(now: "2026-11-29T12:01:00Z")
        #expect(try Data(contentsOf: b.vault.url("photo.png")) == png)
        #expect(try Data(contentsOf: b.vault.url("data.md")) == binaryNote)
        #expect(try b.git(["status", "--porcelain"]).stdout == "")
        let again = try b.sync(now: "2026-11-29T12:02:00Z")
        #expect(!again.stdout.contains("photo.png"), "\(again.stdout)")
        #expect(try a.git(["rev-parse", "HEAD"]).stdout == b.git(["rev-parse", "HEAD"]).stdout)
    }

    /// A file this device ignores (`.git/info/exclude`) where the other device adds a note of the
    /// same path: the incoming note is written beside it, and the index records it there, so the
    /// next sync commits that move — never the ignored file over the other device's note.
    @Test func anIgnoredFileWhereANoteArrivesStaysOutOfGit() throws {
        let (a, b) = try SyncWorld().pair(["keep.md": SyncPairingTests.keep])
        try "private.md\n".write(to: a.vault.url(".git/info/exclude"), atomically: true, encoding: .utf8)
        let diary = "---\ntitle: Diary\n---\nA's private diary, never to be pushed.\n"
        try a.write(diary, to: "private.md")
        let shared = "---\ntitle: Shared\nupdatedAt: 2026-11-29T11:00:00Z\n---\nB's shared note.\n"
        try b.write(shared, to: "private.md")
        try b.sync()
        let pulled = try a.sync(now: "2026-11-29T12:01:00Z")
        #expect(pulled.code == 0, "\(pulled.stderr)")
        #expect((pulled.stdout + pulled.stderr).contains(
            "private.md: this device ignores the file there; the incoming one is written as private-2.md"), "\(pulled.stdout)")
        #expect(try a.read("private.md") == diary)
        #expect(try a.read("private-2.md") == shared)
        try a.sync(now: "2026-11-29T12:02:00Z")
        try b.sync(now: "2026-11-29T12:03:00Z")
        #expect(try b.read("private-2.md") == shared)
        #expect(!b.exists("private.md"))
        #expect(try a.git(["log", "--all", "-p"]).stdout.contains("private diary") == false)
        #expect(try a.read("private.md") == diary)
    }

    /// A note committed with CRLF line breaks, brought in by the sync of a `core.autocrlf=true`
    /// device: staged through the clean filter as a new file, its blob became LF, and the next
    /// sync committed and pushed the rewrite (git keeps CRLF a blob already holds).
    @Test func aCRLFNoteStaysAsWrittenOnAnAutocrlfDevice() throws {
        let (a, b) = try SyncWorld().pair(["keep.md": SyncPairingTests.keep])
        try b.git(["config", "core.autocrlf", "true"])
        let windows = Data("---\r\ntitle: Windows note\r\n---\r\nline one\r\n".utf8)
        try windows.write(to: a.vault.url("win.md"))
        try a.sync()
        try b.sync(now: "2026-11-29T12:01:00Z")
        #expect(try Data(contentsOf: b.vault.url("win.md")) == windows)
        #expect(try b.git(["status", "--porcelain"]).stdout == "")
        try b.sync(now: "2026-11-29T12:02:00Z")
        try a.sync(now: "2026-11-29T12:03:00Z")
        #expect(try a.git(["rev-parse", "HEAD"]).stdout == b.git(["rev-parse", "HEAD"]).stdout)
        #expect(try Data(contentsOf: a.vault.url("win.md")) == windows)
        #expect(try a.git(["log", "--format=%s", "--", "win.md"]).stdout.split(separator: "\n").count == 1)
    }

    /// A tracked file (or a link) replaced by a folder of its name: staging the name failed ("it is
    /// a directory") and every sync stopped there until the user ran `git add -A`. The file's
    /// deletion and the folder's notes are committed, and the other device gets both.
    @Test(arguments: [false, true])
    func aFileReplacedByAFolderOfItsNameIsCommitted(link: Bool) throws {
        let (a, b) = try SyncWorld().pair(["keep.md": SyncPairingTests.keep])
        if link {
            try FileManager.default.createSymbolicLink(atPath: a.vault.url("Projects").path, withDestinationPath: "keep.md")
        } else {
            try a.write("todo list\n", to: "Projects")
        }
        try a.sync()
        try a.remove("Projects")
        try a.write("---\ntitle: P\n---\nnote in folder\n", to: "Projects/p.md")
        try a.sync(now: "2026-11-29T12:01:00Z")
        #expect(try a.git(["status", "--porcelain"]).stdout == "")
        #expect(try a.git(["ls-files"]).stdout.split(separator: "\n").contains("Projects/p.md"))
        try b.sync(now: "2026-11-29T12:02:00Z")
        #expect(try b.read("Projects/p.md") == "---\ntitle: P\n---\nnote in folder\n")
    }
}
