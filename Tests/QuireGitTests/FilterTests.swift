import Foundation
import QuireGit
import Testing

/// Issue 13 item 9: content compared and written as git does, through the repository's filters.
@Suite struct FilterTests {
    @Test func autocrlfHashesACRLFFileAsItsLFBlobAndChecksItOutWithCRLF() throws {
        let temp = try TemporaryDirectory()
        let repo = try Repository.create(at: temp.url)
        try repo.setConfigString("core.autocrlf", "true")
        let blob = try repo.writeBlob(Data("---\ntitle: One\n---\nBody\n".utf8))
        #expect(try repo.workTreeData(blob, path: "one.md") == Data("---\r\ntitle: One\r\n---\r\nBody\r\n".utf8))
        try Fixture.write("---\r\ntitle: One\r\n---\r\nBody\r\n", to: "one.md", in: temp.url)
        #expect(try repo.hashWorkTreeFile("one.md") == blob)
        try Fixture.write("---\r\ntitle: Two\r\n---\r\nBody\r\n", to: "one.md", in: temp.url)
        #expect(try repo.hashWorkTreeFile("one.md") != blob)
    }

    @Test func withoutFiltersTheBytesAreRaw() throws {
        let temp = try TemporaryDirectory()
        let repo = try Repository.create(at: temp.url)
        let blob = try repo.writeBlob(Data("a\nb\n".utf8))
        #expect(try repo.workTreeData(blob, path: "a.md") == Data("a\nb\n".utf8))
        try Fixture.write("a\r\nb\r\n", to: "a.md", in: temp.url)
        #expect(try repo.hashWorkTreeFile("a.md") != blob)
    }

    @Test func anEolRuleInInfoAttributesApplies() throws {
        let temp = try TemporaryDirectory()
        let repo = try Repository.create(at: temp.url)
        try Fixture.write("*.md text eol=crlf\n", to: ".git/info/attributes", in: temp.url)
        let blob = try repo.writeBlob(Data("a\nb\n".utf8))
        #expect(try repo.workTreeData(blob, path: "a.md") == Data("a\r\nb\r\n".utf8))
        #expect(try repo.workTreeData(blob, path: "a.png") == Data("a\nb\n".utf8))
        try Fixture.write("a\r\nb\r\n", to: "a.md", in: temp.url)
        #expect(try repo.hashWorkTreeFile("a.md") == blob)
    }

    /// A blob holding a nul byte (an image, a PDF, a binary `.md`) is written as its bytes, with
    /// or without filters: the default options of `git_blob_filter` gave back nothing for it.
    @Test(arguments: [false, true])
    func binaryContentIsWrittenAsItsBytes(autocrlf: Bool) throws {
        let temp = try TemporaryDirectory()
        let repo = try Repository.create(at: temp.url)
        if autocrlf { try repo.setConfigString("core.autocrlf", "true") }
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x0A])
        let blob = try repo.writeBlob(png)
        #expect(try repo.workTreeData(blob, path: "photo.png") == png)
        let note = Data("text\u{0}with a nul\nand lines\n".utf8)
        #expect(try repo.workTreeData(try repo.writeBlob(note), path: "data.md") == note)
    }
}
