import Foundation
import Testing

/// `quire` hides exactly the notes git ignores: libgit2's own evaluation of every rule source
/// (negations, nested `.gitignore`, `core.excludesFile`, `.git/info/exclude`), and tracked files
/// are never ignored. git's CLI is the reference.
@Suite("git ignore rules: quire agrees with git")
struct IgnoreParityTests {
    @Test func listedNotesAreTheNotesGitDoesNotIgnore() throws {
        let vault = try TestVault()
        let outside = try Harness.temporaryDirectory("quire-excludes").appendingPathComponent("excludes")
        try Harness.write("global.md\n", to: outside)
        for path in ["a.md", "x.secret.md", "Drafts/d.md", "Drafts/keep.md", "Private/p.md", "Private/deep/q.md",
                     "Sub/local.md", "Sub/Deep/local.md", "Sub/s.md", "excluded.md", "Sub/global.md",
                     "Tracked/t.md", "Tracked/u.md"] {
            try vault.write("# \(path) common\n", to: path)
        }
        try vault.commitAll()  // Tracked/t.md stays tracked although its folder becomes ignored
        try vault.write("# new\n", to: "Tracked/new.md")
        try vault.remove("Tracked/u.md")
        try #require(try vault.git(["rm", "-q", "--cached", "--ignore-unmatch", "Tracked/u.md", "a.md", "x.secret.md",
                                    "Drafts/d.md", "Drafts/keep.md", "Private/p.md", "Private/deep/q.md", "Sub/local.md",
                                    "Sub/Deep/local.md", "Sub/s.md", "excluded.md", "Sub/global.md"]) == 0)
        try vault.write(try vault.read(".gitignore") + "*.secret.md\nDrafts/*.md\n!Drafts/keep.md\nPrivate/\nTracked/\n",
                        to: ".gitignore")
        try vault.write("local.md\n", to: "Sub/.gitignore")
        try vault.write("excluded.md\n", to: ".git/info/exclude")
        try #require(try vault.git(["config", "core.excludesFile", outside.path]) == 0)

        let git = try gitCLI(["ls-files", "--cached", "--others", "--exclude-standard", "--", "*.md"], in: vault.root)
        try #require(git.code == 0)
        let expected = git.stdout.split(separator: "\n").map(String.init).filter { !$0.hasPrefix(".") }.sorted()
        #expect(expected == ["Drafts/keep.md", "Sub/s.md", "Tracked/t.md", "a.md"])
        let run = try vault.run(["list", "--paths"])
        #expect(run.code == 0)
        #expect(run.stdout.split(separator: "\n").map(String.init).sorted() == expected)
        let search = try vault.run(["search", "common", "--paths"])
        #expect(search.stdout.split(separator: "\n").map(String.init).sorted() == expected)
    }
}

private extension TestVault {
    func remove(_ path: String) throws { try FileManager.default.removeItem(at: url(path)) }
}
