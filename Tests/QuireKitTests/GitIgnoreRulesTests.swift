import Foundation
import QuireCore
import QuireGit
import QuireKit
import XCTest

final class GitIgnoreRulesTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("quirekit-ignore-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    func testAVaultWithoutRepositoryHasNoRules() throws {
        XCTAssertNil(GitIgnoreRules.of(try Vault.create(at: root)))
    }

    func testARepositoryAnswersWithItsGitignore() throws {
        let vault = try Vault.create(at: root)
        _ = try Repository.create(at: vault.root)
        let ignore = vault.root.appendingPathComponent(".gitignore")
        let kept = (try? String(contentsOf: ignore, encoding: .utf8)) ?? ""
        try Data((kept + "drafts/\n*.tmp.md\n").utf8).write(to: ignore)
        let rules = try XCTUnwrap(GitIgnoreRules.of(vault))
        XCTAssertTrue(try rules.isIgnoredFile("notes/a.tmp.md"))
        XCTAssertFalse(try rules.isIgnoredFile("notes/a.md"))
        let matcher = try rules.ignoreMatcher()
        XCTAssertTrue(matcher("drafts", true))
        XCTAssertFalse(matcher("notes", true))
    }
}
