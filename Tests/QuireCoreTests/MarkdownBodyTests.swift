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
        #expect(MarkdownBody.inlineTags(in: "See <iframe style=\"border: 1px solid #ccc;\"></iframe> #real a < #b") == ["real", "b"])
        #expect(MarkdownBody.inlineTags(in: "`unclosed #tag") == ["tag"])
        #expect(MarkdownBody.inlineTags(in: "See <iframe\n  style=\"border:1px solid #bfcbda88;\"\n  src=x>\n#after\n") == ["after"])
        // A raw HTML block holds no tags, as in Obsidian; its blank line ends it.
        #expect(MarkdownBody.inlineTags(in: "<iframe style=\"x\"></iframe> #inside\n<td>#fff</td>\n\n#after\n") == ["after"])
        #expect(MarkdownBody.inlineTags(in: "I <promise #one\n\n#two and #three\n") == ["two", "three"])
    }

    /// CSS colours in code blocks inside list items and quotes are no tags (a Dendron vault
    /// showed fifteen of them).
    @Test func noTagsInCodeInsideListsAndQuotes() {
        let body = "- install:\n\n    ```css\n    a { color: #002b5c; }\n    ```\n\n> ```\n> #quoted\n> ```\n> #real\n"
        #expect(MarkdownBody.inlineTags(in: body) == ["real"])
        #expect(MarkdownBody.firstHeading(in: "> ```\n> # Not a title\n> ```\n# Title\n") == "Title")
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

/// Inline tags of the real-world notes in Tests/Corpora.
@Suite(.enabled(if: TestSupport.hasCorpora, TestSupport.corporaMissing)) struct CorpusInlineTagTests {
    private func tags(_ path: String) throws -> [String] {
        let url = TestSupport.corpora.appendingPathComponent(path)
        return NoteParser.parse(try Data(contentsOf: url), path: path, timeZone: TestSupport.utc).tags
    }

    @Test func tagsOfRealNotes() throws {
        // A colour inside an HTML tag that spans lines is no tag.
        #expect(!(try tags("dendron-site/vault/community.events.office-hours.md")).contains("bfcbda88"))
        // Hugo's documentation: `#ffffff` in a code span, `{{< … >}}` shortcodes, fenced Go templates.
        #expect(try tags("hugo-docs/content/en/functions/images/Text.md").isEmpty)
        #expect(try tags("hugo-docs/content/en/configuration/markup.md").allSatisfy { !$0.hasPrefix("include") })
        // No tag of any note is a number alone, holds a space, or starts with `#`.
        for file in TestSupport.markdownFiles(under: TestSupport.corpora) {
            let note = NoteParser.parse(try Data(contentsOf: file), path: file.lastPathComponent, timeZone: TestSupport.utc)
            for tag in MarkdownBody.inlineTags(in: note.body) {
                #expect(!tag.allSatisfy(\.isNumber) && !tag.contains(" ") && !tag.hasPrefix("#"), "\(file.path): \(tag)")
            }
        }
    }
}
