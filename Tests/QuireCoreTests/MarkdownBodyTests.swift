import Foundation
import Testing
@testable import QuireCore

@Suite("Markdown body: headings and inline tags")
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

    @Test func inlineTagsAsObsidianReadsThem() {
        let body = """
            # Heading is no tag
            ## Neither #is this? yes it is
            Plan #idea and #Area/work/ then #idea again, #1984 #y1984 #2024-q1.
            A [link](https://example.com/#anchor) and page#fragment and &#123; and \\#escaped.
            Inline `#code` and ``a `#b` c`` stay code; #after-code counts.
            ```
            #fenced
            ```
            #café #日本語 #🚀rocket, (#paren) #_under
            """
        #expect(MarkdownBody.inlineTags(in: body) == ["is", "idea", "Area/work", "y1984", "2024-q1", "after-code",
                                                     "café", "日本語", "🚀rocket", "_under"])
        #expect(MarkdownBody.inlineTags(in: "no hash at all") == [])
        #expect(MarkdownBody.inlineTags(in: "#") == [])
        #expect(MarkdownBody.inlineTags(in: "<iframe style=\"border: 1px solid #ccc;\"></iframe> #real a < #b") == ["real", "b"])
        #expect(MarkdownBody.inlineTags(in: "`unclosed #tag") == ["tag"])
    }

    @Test func noteTagsJoinFrontMatterAndBody() {
        let note = NoteParser.parse(Data("---\ntags: a, Idea\n---\nSee #idea and #b.\n".utf8), path: "n.md")
        #expect(note.tags == ["a", "Idea", "b"])
        let single = NoteParser.parse(Data("---\ntag: x y\n---\n".utf8), path: "s.md")
        #expect(single.tags == ["x", "y"])
        let fields = NoteParser.parseFrontMatter(Data("---\ntags: [a]\n---\n#b\n".utf8), path: "f.md")
        #expect(fields.tags == ["a"])
    }
}
