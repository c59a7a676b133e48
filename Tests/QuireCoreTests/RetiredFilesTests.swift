import Foundation
import Testing
@testable import QuireCore

/// `Vault.writeAll(_:retiring:)`: replaced versions are kept, linked in the retired folder,
/// until a purge deletes them; the written files are exactly as without it.
@Suite struct RetiredFilesTests {
    private func contents(_ url: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    @Test func replacedVersionsWaitForThePurge() throws {
        let temp = try TemporaryDirectory()
        try temp.write("v/a.md", "old a\n")
        try temp.write("v/Folder/b.md", "old b\n")
        let vault = try Vault.create(at: temp.url.appendingPathComponent("v"))
        let retiredURL = temp.url.appendingPathComponent("retired")
        let retired = RetiredFiles(directory: retiredURL.path)
        let skipped = try vault.writeAll([("a.md", Data("new a\n".utf8)), ("Folder/b.md", Data("new b\n".utf8)),
                                          ("Folder/c.md", Data("new c\n".utf8))], retiring: retired)
        #expect(skipped.isEmpty)
        for (path, text) in [("a.md", "new a\n"), ("Folder/b.md", "new b\n"), ("Folder/c.md", "new c\n")] {
            #expect(try String(decoding: Data(contentsOf: vault.url(for: path)), as: UTF8.self) == text)
        }
        // The two replaced files (c.md was new) are still there, by their links.
        let kept = try contents(retiredURL).map { name in
            String(decoding: try Data(contentsOf: retiredURL.appendingPathComponent(name)), as: UTF8.self)
        }
        #expect(kept.sorted() == ["old a\n", "old b\n"])
        retired.startPurge()
        retired.waitForPurge()
        #expect(try contents(retiredURL).isEmpty)
        // No temporary file is left beside the notes.
        #expect(try contents(vault.root).filter { $0.hasPrefix(".quire-tmp") }.isEmpty)
    }

    @Test func purgeDeletesWhatACrashLeft() throws {
        let temp = try TemporaryDirectory()
        try temp.write("retired/123-1", "left by a crash\n")
        try temp.write("retired/123-2", "and another\n")
        let retired = RetiredFiles(directory: temp.url.appendingPathComponent("retired").path)
        retired.startPurge()
        retired.waitForPurge()
        #expect(try contents(temp.url.appendingPathComponent("retired")).isEmpty)
    }

    @Test func aRefusedFileIsNeitherReplacedNorRetired() throws {
        let temp = try TemporaryDirectory()
        try temp.write("v/a.md", "the user's save\n")
        let vault = try Vault.create(at: temp.url.appendingPathComponent("v"))
        let retiredURL = temp.url.appendingPathComponent("retired")
        let skipped = try vault.writeAll([("a.md", Data("merged\n".utf8))], replaceIf: { _ in false },
                                         retiring: RetiredFiles(directory: retiredURL.path))
        #expect(skipped == ["a.md"])
        #expect(try String(decoding: Data(contentsOf: vault.url(for: "a.md")), as: UTF8.self) == "the user's save\n")
        #expect(!FileManager.default.fileExists(atPath: retiredURL.path))
    }
}
