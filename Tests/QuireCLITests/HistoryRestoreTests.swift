import Foundation
import Testing

/// `quire history`, `show --at`, `restore --at`, and restoring deleted notes, end to end.
@Suite("quire history, show --at, restore")
struct HistoryRestoreTests {
    static let first = noteText("id: 0f0e0d0c-1111-4222-8333-444455556666\ntitle: Idea\nupdatedAt: 2026-11-01T10:00:00Z", body: "First version.\n")

    /// A vault with three commits: the note added, then edited, then renamed.
    static func threeCommits() throws -> TestVault {
        let vault = try TestVault()
        try vault.write(Self.first, to: "idea.md")
        try vault.commitAll()
        try vault.write(Self.first.replacingOccurrences(of: "First version.", with: "Second version."), to: "idea.md")
        try vault.commitAll()
        #expect(try vault.run(["rename", "idea.md", "Big idea"]).code == 0)
        try vault.commitAll()
        return vault
    }

    /// `restore --at` where another note (another id) now has the path: that note stays, and the
    /// older one comes back beside it.
    @Test func restoreAtOverAnotherNoteOfThePathWritesBesideIt() throws {
        let vault = try TestVault()
        try vault.write(Self.first, to: "idea.md")
        try vault.commitAll()
        let other = noteText("id: 99999999-1111-4222-8333-444455556666\ntitle: Idea\nupdatedAt: 2026-11-02T10:00:00Z",
                             body: "A different note of the same name.\n")
        try vault.write(other, to: "idea.md")
        try vault.commitAll()
        let run = try vault.run(["restore", "idea.md", "--at", "HEAD~1"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.contains("idea.md is another note now (its id differs): the restored version is idea-2.md"))
        #expect(try vault.read("idea.md") == other)
        #expect(try vault.read("idea-2.md").contains("First version."))
    }

    /// A note whose id another note has now (it was copied, then deleted; git sees a rename):
    /// restored from an older commit, it would be a second note of one id — refused, naming it.
    @Test func restoringANoteWhoseIdIsInUseIsRefused() throws {
        let vault = try TestVault()
        try vault.write(Self.first, to: "idea.md")
        try vault.commitAll()
        try vault.write(Self.first, to: "copy.md")
        try FileManager.default.removeItem(at: vault.url("idea.md"))
        try vault.commitAll()
        let run = try vault.run(["restore", "idea.md", "--at", "HEAD~1"])
        #expect(run.code == 1)
        #expect(run.stderr.contains("the version to restore at idea.md is the note copy.md (same id)"), "\(run.stderr)")
        #expect(!vault.exists("idea.md"))
    }

    /// A note restored into a folder a `.gitignore` now hides is back on this device only: the
    /// restore says so, since no sync will carry it.
    @Test func restoringIntoAnIgnoredFolderWarns() throws {
        let vault = try TestVault()
        try vault.write(Self.first, to: "drafts/idea.md")
        try vault.commitAll()
        try vault.write("drafts/\n", to: ".gitignore")
        try FileManager.default.removeItem(at: vault.url("drafts/idea.md"))
        try vault.commitAll()
        let run = try vault.run(["restore", "drafts/idea.md"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stderr.contains("quire: warning: git ignores drafts/idea.md"), "\(run.stderr)")
        #expect(try vault.read("drafts/idea.md").contains("First version."))
    }

    @Test func historyFollowsRenames() throws {
        let vault = try Self.threeCommits()
        let run = try vault.run(["history", "Big idea", "--json"])
        #expect(run.code == 0, "\(run.stderr)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(entries.map { $0["change"] as? String } == ["renamed", "modified", "added"])
        #expect(entries.map { $0["path"] as? String } == ["big-idea.md", "idea.md", "idea.md"])
        #expect(entries.allSatisfy { ($0["commit"] as? String)?.count == 40 })
    }

    @Test func showAtAndRestoreAtBringBackAnOlderVersion() throws {
        let vault = try Self.threeCommits()
        let old = try vault.run(["show", "Big idea", "--at", "HEAD~2", "--raw"])
        #expect(old.code == 0, "\(old.stderr)")
        #expect(old.stdout == Self.first)
        let restored = try vault.run(["restore", "Big idea", "--at", "HEAD~2"])
        #expect(restored.code == 0, "\(restored.stderr)")
        #expect(restored.stdout.hasPrefix("restored big-idea.md from commit "))
        let text = try vault.read("big-idea.md")
        #expect(text.contains("First version."))
        #expect(text.contains("updatedAt: 2026-11-29T12:00:00Z"), "a restore is a change: updatedAt is stamped")
        let bad = try vault.run(["show", "big-idea.md", "--at", "no-such-rev"])
        #expect(bad.code == 1)
        #expect(bad.stderr == "quire: error: no commit 'no-such-rev' in this vault's history\nhint: 'quire history NOTE' lists the commits\n")
    }

    @Test func deletedNotesAreListedAndRestored() throws {
        let vault = try Self.threeCommits()
        #expect(try vault.run(["rm", "Big idea"]).code == 0)
        try vault.commitAll()
        let listed = try vault.run(["history", "--deleted", "--json"])
        let deleted = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(deleted.map { $0["path"] as? String } == ["big-idea.md"])
        let restored = try vault.run(["restore", "big-idea.md"])
        #expect(restored.code == 0, "\(restored.stderr)")
        #expect(try vault.read("big-idea.md").contains("Second version."))
        let again = try vault.run(["restore", "big-idea.md"])
        #expect(again.code == 1)
        #expect(again.stderr.hasPrefix("quire: error: big-idea.md exists; nothing to restore"))
        let unknown = try vault.run(["restore", "never.md"])
        #expect(unknown.code == 1)
        #expect(unknown.stderr.hasPrefix("quire: error: never.md is not a deleted note in history or in the trash"))
    }

    @Test func historyNeedsANoteOrDeleted() throws {
        let vault = try TestVault()
        let run = try vault.run(["history"])
        #expect(run.code == 2)
        #expect(run.stderr.hasPrefix("quire: error: give either NOTE or --deleted"))
    }
}
