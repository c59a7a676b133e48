import Foundation
import Testing
@testable import QuireCore

@Suite("Markdown body: headings")
struct MarkdownBodyTests {
    @Test func firstLevelOneHeadingOutsideCode() {
        #expect(MarkdownBody.firstHeading(in: "intro\n## Second\n# First one #\n# Later\n") == "First one")
        #expect(MarkdownBody.firstHeading(in: "```\n# not a heading\n```\n   # Indented  \n") == "Indented")
        #expect(MarkdownBody.firstHeading(in: "~~~~\n# in code\n~~~\nstill code\n~~~~\n# After\n") == "After")
        #expect(MarkdownBody.firstHeading(in: "#tag line\n    # four spaces is code\n#\n") == nil)
        #expect(MarkdownBody.firstHeading(in: "# Crlf title\r\nbody\r\n") == "Crlf title")
        #expect(MarkdownBody.firstHeading(in: "# C# tips\n") == "C# tips")
        #expect(MarkdownBody.firstHeading(in: "") == nil)
    }

    @Test func onlyAnUntitledNoteHasAHeadingTitle() {
        let untitled = NoteParser.parse(Data("# Summer plans\nbody\n".utf8), path: "Trips/road trip.md")
        #expect(untitled.title == "road trip")
        #expect(!untitled.hasTitle)
        #expect(untitled.headingTitle == "Summer plans")
        let titled = NoteParser.parse(Data("---\ntitle: Own\n---\n# Summer plans\n".utf8), path: "own.md")
        #expect(titled.headingTitle == nil)
    }
}
