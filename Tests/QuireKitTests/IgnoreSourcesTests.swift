import Foundation
import QuireCore
import QuireGit
import QuireKit
import QuireSearch
import XCTest

/// A vault with no ignore rules but quire's own never asks libgit2; any rule that may hide a
/// note hands the question to libgit2, wherever it is found.
final class IgnoreSourcesTests: XCTestCase {
    private var kit: KitVault!

    override func setUpWithError() throws { kit = try KitVault() }
    override func tearDown() { kit.remove() }

    private var sources: IgnoreRuleSources { IgnoreRuleSources(workTree: kit.root, environment: kit.environment)! }

    func testOnlyLinesForHiddenNamesCannotHide() {
        XCTAssertFalse(IgnoreRuleSources.mayHide(""))
        XCTAssertFalse(IgnoreRuleSources.mayHide("# a comment\n\n.quire/local/\n.quire/cache/\r\n.obsidian/workspace*.json\n.trash/\n/.cache  \n!keep.md\n"))
        XCTAssertTrue(IgnoreRuleSources.mayHide(".quire/local/\n*.md\n"))
        XCTAssertTrue(IgnoreRuleSources.mayHide("Drafts/"))
        XCTAssertTrue(IgnoreRuleSources.mayHide("\\#secret.md"))
        XCTAssertTrue(IgnoreRuleSources.mayHide("**/.hidden\nx"))
    }

    func testANewVaultHasNoRulesThatMayHide() throws {
        XCTAssertFalse(sources.outsideRulesMayHide())
        XCTAssertFalse(sources.folderRulesMayHide(""))
        XCTAssertEqual(sources.ruleFiles()?.count, 5)
        try kit.write("*.md\n", to: "Sub/.gitignore")
        XCTAssertTrue(sources.folderRulesMayHide("Sub"))
        try kit.write("excluded.md\n", to: ".git/info/exclude")
        XCTAssertTrue(sources.outsideRulesMayHide())
    }

    func testAConfiguredExcludesFileIsLeftToLibgit2() throws {
        try kit.git(["config", "core.excludesFile", "/somewhere/excludes"])
        XCTAssertNil(sources.defaultExcludesFile())
        XCTAssertNil(sources.ruleFiles())
        XCTAssertTrue(sources.outsideRulesMayHide())
    }

    func testANestedGitignoreFoundDuringTheWalkHidesWhatGitHides() throws {
        try kit.write("# a\n", to: "a.md")
        try kit.write("# b\n", to: "Sub/b.md")
        try kit.write("# c\n", to: "Sub/c.tmp.md")
        try kit.write("*.tmp.md\n", to: "Sub/.gitignore")
        let rules = try XCTUnwrap(GitIgnoreRules.of(kit.vault, environment: kit.environment))
        let listing = try FreshCatalogListing.notes(kit.vault, rules)
        XCTAssertEqual(listing, ["Sub/b.md", "a.md"])
        XCTAssertTrue(try rules.isIgnoredFile("Sub/c.tmp.md"))
        XCTAssertFalse(try rules.isIgnoredFile("a.md"))
    }

    func testWithoutRulesNothingIsHiddenAndTheRuleFilesAreKnown() throws {
        try kit.write("# a\n", to: "a.md")
        try kit.write("# b\n", to: "Sub/b.tmp.md")
        let rules = try XCTUnwrap(GitIgnoreRules.of(kit.vault, environment: kit.environment))
        XCTAssertEqual(try FreshCatalogListing.notes(kit.vault, rules), ["Sub/b.tmp.md", "a.md"])
        XCTAssertFalse(try rules.isIgnoredFile("Sub/b.tmp.md"))
        let files = try rules.ignoreRuleFiles(environment: kit.environment)
        XCTAssertEqual(files.first.map { URL(fileURLWithPath: $0).lastPathComponent }, "exclude")
        XCTAssertEqual(files.last, kit.home.path + "/.config/git/ignore")
    }
}

/// The note paths a walk with `rules` lists.
enum FreshCatalogListing {
    static func notes(_ vault: Vault, _ rules: any IgnoreRules) throws -> [String] {
        try vault.listing(stamps: false, ignore: try rules.ignoreMatcher()).notes
    }
}
