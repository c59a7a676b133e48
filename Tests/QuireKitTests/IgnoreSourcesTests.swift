import Foundation
import QuireCore
import QuireGit
import QuireKit
import QuireSearch
import Testing

/// A vault with no ignore rules but quire's own never asks libgit2; any rule that may hide a
/// note hands the question to libgit2, wherever it is found.
@Suite final class IgnoreSourcesTests {
    private let kit: KitVault

    init() throws { kit = try KitVault() }
    deinit { kit.remove() }

    private var sources: IgnoreRuleSources { IgnoreRuleSources(workTree: kit.root, environment: kit.environment)! }

    @Test func onlyLinesForHiddenNamesCannotHide() {
        #expect(!IgnoreRuleSources.mayHide(""))
        #expect(!IgnoreRuleSources.mayHide("# a comment\n\n.quire/local/\n.quire/cache/\r\n.obsidian/workspace*.json\n.trash/\n/.cache  \n!keep.md\n"))
        #expect(IgnoreRuleSources.mayHide(".quire/local/\n*.md\n"))
        #expect(IgnoreRuleSources.mayHide("Drafts/"))
        #expect(IgnoreRuleSources.mayHide("\\#secret.md"))
        #expect(IgnoreRuleSources.mayHide("**/.hidden\nx"))
    }

    @Test func aNewVaultHasNoRulesThatMayHide() throws {
        #expect(!sources.outsideRulesMayHide())
        #expect(!sources.folderRulesMayHide(""))
        #expect(sources.ruleFiles()?.count == 5)
        try kit.write("*.md\n", to: "Sub/.gitignore")
        #expect(sources.folderRulesMayHide("Sub"))
        try kit.write("excluded.md\n", to: ".git/info/exclude")
        #expect(sources.outsideRulesMayHide())
    }

    @Test func aConfiguredExcludesFileIsLeftToLibgit2() throws {
        try kit.git(["config", "core.excludesFile", "/somewhere/excludes"])
        #expect(sources.defaultExcludesFile() == nil)
        #expect(sources.ruleFiles() == nil)
        #expect(sources.outsideRulesMayHide())
    }

    @Test func aNestedGitignoreFoundDuringTheWalkHidesWhatGitHides() throws {
        try kit.write("# a\n", to: "a.md")
        try kit.write("# b\n", to: "Sub/b.md")
        try kit.write("# c\n", to: "Sub/c.tmp.md")
        try kit.write("*.tmp.md\n", to: "Sub/.gitignore")
        let rules = try #require(GitIgnoreRules.of(kit.vault, environment: kit.environment))
        let listing = try FreshCatalogListing.notes(kit.vault, rules)
        #expect(listing == ["Sub/b.md", "a.md"])
        #expect(try rules.isIgnoredFile("Sub/c.tmp.md"))
        #expect(try !rules.isIgnoredFile("a.md"))
    }

    @Test func withoutRulesNothingIsHiddenAndTheRuleFilesAreKnown() throws {
        try kit.write("# a\n", to: "a.md")
        try kit.write("# b\n", to: "Sub/b.tmp.md")
        let rules = try #require(GitIgnoreRules.of(kit.vault, environment: kit.environment))
        #expect(try FreshCatalogListing.notes(kit.vault, rules) == ["Sub/b.tmp.md", "a.md"])
        #expect(try !rules.isIgnoredFile("Sub/b.tmp.md"))
        let files = try rules.ignoreRuleFiles(environment: kit.environment)
        #expect(files.first.map { URL(fileURLWithPath: $0).lastPathComponent } == "exclude")
        #expect(files.last == (kit.home.path + "/.config/git/ignore"))
    }
}

/// The note paths a walk with `rules` lists.
enum FreshCatalogListing {
    static func notes(_ vault: Vault, _ rules: any IgnoreRules) throws -> [String] {
        try vault.listing(stamps: false, ignore: try rules.ignoreMatcher()).notes
    }
}
