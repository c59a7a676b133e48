import Foundation
import Testing

/// A synced symbolic link into `.git/` (issue 32, class 1): another device commits
/// `cfg.md -> .git/config` and `att/c.txt -> ../.git/config` and links them from a note; no
/// reader on this device follows them (`Vault.mayFollowLink`), so nothing of `.git/config`
/// reaches a page, an attachment or the search index of `quire export --html`.
@Suite(.serialized) struct SyncLinkIntoGitTests {
    static let canary = "canary-7d1f0e-remote-token"

    @Test func aLinkIntoGitIsNeverExportedReadOrWrittenThrough() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["n.md": note("n", title: "N", updated: "2026-11-29T10:00:00Z")])
        try #require(try b.git(["config", "quire.canary", Self.canary]).code == 0)
        try FileManager.default.createDirectory(at: a.vault.url("att"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: a.vault.url("cfg.md").path, withDestinationPath: ".git/config")
        try FileManager.default.createSymbolicLink(atPath: a.vault.url("att/c.txt").path, withDestinationPath: "../.git/config")
        try FileManager.default.createSymbolicLink(atPath: a.vault.url("dot").path, withDestinationPath: ".git")
        try a.write(note("n", title: "N", updated: "2026-11-29T11:00:00Z",
                         body: "See [[cfg]], [the file](att/c.txt), ![c](att/c.txt) and [[dot/config]].\n"), to: "n.md")
        try a.sync()
        try b.sync()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: b.vault.url("cfg.md").path) == ".git/config")

        let exported = try b.run(["export", "--html", "../site"])
        #expect(exported.code == 0, "\(exported.stderr)")
        #expect(exported.stdout.hasPrefix("exported 1 page and 0 attachments to ../site\n"), "\(exported.stdout)")
        let site = world.folder("site")
        let grep = try gitCLI(["grep", "--no-index", "-l", "-r", Self.canary, "."], in: site)
        #expect(grep.stdout.isEmpty, "published: \(grep.stdout)")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("files/att/c.txt").path))

        let checked = try b.run(["check"])
        #expect(checked.stdout.contains("cfg.md: skipped: symlink leads into a hidden folder (not followed)"), "\(checked.stdout)")
        #expect(checked.stdout.contains("att/c.txt: skipped: symlink leads into a hidden folder (not followed)"))
        #expect(checked.stdout.contains("dot: skipped: symlink leads into a hidden folder (not followed)"))
        #expect(!(try b.run(["search", Self.canary]).stdout.contains("cfg")))
        // Never written through either: .git/config stays as it was.
        let before = try b.vault.read(".git/config")
        let set = try b.run(["set", "cfg.md", "title=x"])
        #expect(set.code != 0)
        #expect(try b.vault.read(".git/config") == before)
    }
}
