import Foundation
import Testing

/// Files a sync brings in are written as git writes them, and nothing the user did not change is
/// ever committed: an ignored file where a note arrives, a file or a link turned into a folder.
/// Two devices through a bare repository (found by a QA pass, 2026-12-03).
/// (Binary files and CRLF notes, in process: QuireKitTests' SyncFileShapeScenarioTests.)
@Suite struct SyncFileShapesTests {
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
