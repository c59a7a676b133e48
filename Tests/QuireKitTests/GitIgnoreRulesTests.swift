import Foundation
import QuireCore
import QuireGit
import QuireKit
import Testing

@Suite final class GitIgnoreRulesTests {
    private let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("quirekit-ignore-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    @Test func aVaultWithoutRepositoryHasNoRules() throws {
        #expect(GitIgnoreRules.of(try Vault.create(at: root)) == nil)
    }

    @Test func aRepositoryAnswersWithItsGitignore() throws {
        let vault = try Vault.create(at: root)
        _ = try Repository.create(at: vault.root)
        let ignore = vault.root.appendingPathComponent(".gitignore")
        let kept = (try? String(contentsOf: ignore, encoding: .utf8)) ?? ""
        try Data((kept + "drafts/\n*.tmp.md\n").utf8).write(to: ignore)
        let rules = try #require(GitIgnoreRules.of(vault))
        #expect(try rules.isIgnoredFile("notes/a.tmp.md"))
        #expect(try !rules.isIgnoredFile("notes/a.md"))
        let matcher = try rules.ignoreMatcher()
        #expect(matcher("drafts", true))
        #expect(!matcher("notes", true))
    }
}
