import Foundation
import QuireCore
import QuireKit
import QuireSearch
import XCTest

/// `VaultCheck` over a fresh catalog: every kind of finding, sorted, and a clean vault.
final class VaultCheckTests: XCTestCase {
    private var kit: KitVault!

    override func setUpWithError() throws { kit = try KitVault() }
    override func tearDown() { kit.remove() }

    private func check() throws -> VaultCheck.Report {
        let fresh = try FreshCatalog.open(vault: kit.vault, rules: GitIgnoreRules.of(kit.vault, environment: kit.environment),
                                          environment: kit.environment, walk: true)
        return try VaultCheck.run(vault: kit.vault, catalog: fresh.store.catalog, skipped: fresh.skipped)
    }

    func testACleanVault() throws {
        try kit.write("---\ntitle: One\n---\nbody\n", to: "one.md")
        let report = try check()
        XCTAssertTrue(report.isClean)
        XCTAssertEqual(report.noteCount, 1)
    }

    func testEveryKindOfProblemIsFoundAndSorted() throws {
        let id = "0b7d2f0e-8f5c-4c55-9d6b-1b7f1c3f4a10"
        try kit.write("---\nid: \(id)\ntitle: Same\n---\n", to: "a.md")
        try kit.write("---\nid: \(id.uppercased())\ntitle: same\n---\n", to: "b.md")
        try kit.write("---\ntitle: [unclosed\n---\nbody\n", to: "bad.md")
        try kit.write("version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n", to: "lfs.md")
        try kit.write("[submodule \"lib\"]\n\tpath = lib\n\turl = ../lib.git\n", to: ".gitmodules")
        try FileManager.default.createSymbolicLink(atPath: kit.root.appendingPathComponent("broken.md").path,
                                                   withDestinationPath: "/nonexistent/x.md")
        let report = try check()
        XCTAssertEqual(report.problems.map(\.path), ["a.md", "a.md", "b.md", "b.md", "bad.md", "broken.md", "lfs.md", "lib"])
        XCTAssertEqual(report.problems.map(\.kind), [.duplicateId, .duplicateTitle, .duplicateId, .duplicateTitle,
                                                     .note(.invalidYAML), .skipped(.brokenSymlink), .lfsPointer, .submodule])
        XCTAssertEqual(report.problems[0].message, "id \(id) is also used by b.md")
        XCTAssertEqual(report.skipped.map(\.path), ["broken.md"])
        XCTAssertEqual(report.fileProblems.count, 7)
        XCTAssertEqual(report.noteCount, 4)
        XCTAssertEqual(VaultCheck.Kind.skipped(.notAFile).rawValue, "notAFile")
    }
}
