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
}
