import Foundation
import QuireTestSupport
import Testing
@testable import QuireCore

@Suite("Link extraction: every syntax, code excluded, exact byte ranges")
struct LinkExtractorTests {
    private func links(_ text: String) -> [NoteLink] {
        LinkExtractor.scan(text: text).links
    }

    /// The bytes of `range` in `text`.
    private func slice(_ text: String, _ range: Range<Int>) -> String {
        String(decoding: Array(text.utf8)[range], as: UTF8.self)
    }

    @Test func wikilinkForms() {
        let text = "See [[Alpha]], [[Beta|the beta]], [[Gamma#Part two]], [[Delta#^blk-1]] and ![[Pic.png]].\n"
        let found = links(text)
        #expect(found.map(\.target) == ["Alpha", "Beta", "Gamma", "Delta", "Pic.png"])
        #expect(found.map(\.style) == Array(repeating: .wiki, count: 5))
        #expect(found[1].label == "the beta")
        #expect(found[2].heading == "Part two")
        #expect(found[3].blockID == "blk-1")
        #expect(found[4].isEmbed)
        #expect(found[4].pointsAtAttachment)
        #expect(!found[0].pointsAtAttachment)
        for link in found {
            #expect(slice(text, link.targetRange) == link.rawTarget)
            #expect(link.line == 1)
        }
        #expect(slice(text, found[4].range) == "![[Pic.png]]")
        #expect(slice(text, found[2].fragmentRange ?? 0..<0) == "#Part two")
        #expect(slice(text, found[1].labelRange ?? 0..<0) == "the beta")
        #expect(found[0].column == 5)
    }

    /// A wikilink ends at the first `]]` after it and is none when a `[[` comes first (the
    /// brackets are looked for eight bytes at a time): at every offset of a chunk.
    @Test func wikilinksEndAtTheirFirstDoubleBracket() {
        for padding in 0..<17 {
            let text = String(repeating: "a", count: padding) + " [[a [[b]] c]] [[x]y]] [[]] [[z] [[w]\n"
            #expect(links(text).map(\.target) == ["b", "x]y"], "\(padding)")
            #expect(links(String(repeating: "q", count: padding) + "[[n]]").map(\.target) == ["n"], "\(padding)")
        }
    }

    @Test func selfLinksAndTableEscapes() {
        let text = "| a | [[Note\\|label]] |\n[[#Heading]] [[]] [[ spaced ]]\n"
        let found = links(text)
        #expect(found.count == 3)
        #expect(found[0].target == "Note")
        #expect(found[0].label == "label")
        #expect(slice(text, found[0].targetRange) == "Note")
        #expect(found[1].isSelfLink)
        #expect(found[1].heading == "Heading")
        #expect(found[1].line == 2)
        #expect(found[2].target == "spaced")
        #expect(slice(text, found[2].targetRange) == "spaced")
    }

    @Test func markdownLinkForms() {
        let text = """
            [one](a/One%20Two.md) [two](<b/Two Three.md> "Title") ![img](img/x.png)
            [three](../c.md#Some%20Heading 'quoted') [web](https://example.com/x.md) [mail](mailto:a@b.c)
            [anchor](#local) [paren](d/(x).md) [empty]() [proto](//host/x.md) [t](e.md (paren title))
            """
        let found = links(text)
        #expect(found.map(\.target) == ["a/One Two.md", "b/Two Three.md", "img/x.png", "../c.md", "", "d/(x).md", "e.md"])
        #expect(found.map(\.rawTarget) == ["a/One%20Two.md", "b/Two Three.md", "img/x.png", "../c.md", "", "d/(x).md", "e.md"])
        #expect(found[0].label == "one")
        #expect(found[1].isAngleBracketed)
        #expect(found[1].title == "Title")
        #expect(found[2].isEmbed)
        #expect(found[3].heading == "Some Heading")
        #expect(found[3].title == "quoted")
        #expect(found[3].line == 2)
        #expect(found[4].isSelfLink && found[4].heading == "local")
        #expect(found[6].title == "paren title")
        for link in found { #expect(slice(text, link.targetRange) == link.rawTarget) }
        #expect(found.allSatisfy { $0.style == .markdown })
    }

    @Test func nothingInCode() {
        let text = """
            Real [[A]] and `[[Not in span]]` and ``x [[Nor]] `` then [[B]].
            ```
            [[Fenced]] [x](fenced.md)
            ```
            ~~~~md
            [[Tilde]]
            ~~~~

                [[Indented code]]
                [y](indented.md)

            - item
                [[Nested list content]]

            \\[[Escaped]] and \\[not](escaped.md) [[C]]
            """
        #expect(links(text).map(\.target) == ["A", "B", "Nested list content", "C"])
    }

    /// Code blocks inside list items and block quotes are code too (a rename rewrote a link in
    /// them, `check` reported it broken).
    @Test func nothingInCodeInsideListsAndQuotes() {
        let text = """
            - install:

                ```css
                a { color: #002b5c; }  /* see [[ghost]] */
                ```
            - [[Item]]

            > ```
            > [[quoted ghost]]
            > ```
            > [[Quoted]]

            1. step
               > ~~~
               > [x](deep.md)
               > ~~~
            [[After]]
            """
        #expect(links(text).map(\.target) == ["Item", "Quoted", "After"])
    }

    /// Front matter without `[[` is skipped (`skipsWithoutLinks`): the links of random front
    /// matter made of brackets, quotes, colons and words are those the line-by-line reading finds.
    @Test func frontMatterWithoutDoubleBracketsIsSkippedAlike() {
        var random = SeededGenerator(seed: 35)
        let pieces = ["[", "[[", "]", "]]", "\"", "'", ": ", "key", " ", "\n", "\n  - ", "#", " #", "|", "x", "é", ","]
        for _ in 0..<3000 {
            var content = "k: "
            for _ in 0..<random.next(0...14) { content += pieces[random.next(0...(pieces.count - 1))] }
            var bytes = Array(content.utf8)
            let found = bytes.withUnsafeMutableBufferPointer { buffer in
                let all = UnsafeBufferPointer(buffer)
                return [true, false].map { skips in
                    var scanner = LinkExtractor.Scanner(bytes: all)
                    scanner.scanFrontMatter(0..<all.count, skipsWithoutLinks: skips)
                    return scanner.links
                }
            }
            #expect(found[0] == found[1], "\(content)")
        }
    }

    @Test func frontMatterLinksOnlyInStrings() {
        let text = """
            ---
            title: "Has [[T]] inside"
            related: "[[X]]"
            up: '[[Folder/Y|why]]'
            see:
              - "[[Z#h]]"
              - plain
            flow: ["[[P]]", "[[Q]]"]
            nested: [[NotALink]]
            note: a plain [[R]] scalar  # and [[Comment]]
            ---
            Body [[S]]
            """
        let found = links(text)
        #expect(found.map(\.target) == ["T", "X", "Folder/Y", "Z", "P", "Q", "R", "S"])
        #expect(found[1].location == .frontMatter(key: "related"))
        #expect(found[2].label == "why")
        #expect(found[3].location == .frontMatter(key: "see"))
        #expect(found[3].heading == "h")
        #expect(found[7].location == .body)
        #expect(found[7].line == 12)
        #expect(found[1].line == 3)
        for link in found { #expect(slice(text, link.targetRange) == link.rawTarget) }
    }

    @Test func rangesAreBytesWithBOMCRLFAndNonASCII() {
        let text = "\u{FEFF}---\r\ntitle: Café\r\nrel: \"[[Ünïcode]]\"\r\n---\r\nÉté [[Naïve|ça]] et [x](d%C3%A9j%C3%A0.md)\r\n"
        let found = links(text)
        #expect(found.map(\.target) == ["Ünïcode", "Naïve", "déjà.md"])
        for link in found { #expect(slice(text, link.targetRange) == link.rawTarget) }
        #expect(found[1].line == 5)
        #expect(found[0].line == 3)
    }

    @Test func anchorsOfABody() {
        let scan = LinkExtractor.scan(text: "# Top\ntext ^para-1\n## Sub heading ##\n```\n# not\n```\n- item\n^list-id\n#tag\n")
        #expect(scan.anchors.headings == ["Top", "Sub heading"])
        #expect(scan.anchors.blockIDs == ["para-1", "list-id"])
        #expect(scan.anchors.hasHeading("sub-heading"))
        #expect(scan.anchors.hasHeading("Top#Sub Heading"))
        #expect(!scan.anchors.hasHeading("Missing"))
        #expect(scan.anchors.hasBlock("PARA-1"))
    }

    /// A paragraph underlined with `===` or `---` is a heading ("has no heading" before); `---`
    /// after a blank line is a thematic break, and front matter's `---` no heading.
    @Test func setextHeadingsAreAnchors() {
        let text = "---\ntitle: T\n---\nintro\n\nFirst Big\n=========\n\nSecond\nSmall  \n------------\ntext\n\n---\n"
            + "# ATX\n- item\n---\n```\ncode\n---\n```\n"
        let anchors = LinkExtractor.scan(text: text).anchors
        #expect(anchors.headings == ["First Big", "Second Small", "ATX"])
        #expect(anchors.hasHeading("first-big"))
        #expect(MarkdownBody.firstHeading(in: "Title line\n===\n# Later\n") == "Title line")
    }

    /// Anchors written the GitHub and Hugo way: punctuation and backticks dropped, spaces made
    /// `-` without collapsing them, `-1` after a repeated heading ("has no heading" before).
    @Test func githubAnchorsNameHeadings() {
        let anchors = LinkExtractor.scan(text: "## What's new? (v2)\n## Smileys & Emotion\n## The `:counter` placeholder\n"
                                               + "## Notes\n## Notes\n## Notes-1\n## Notes\n").anchors
        for anchor in ["whats-new-v2", "smileys--emotion", "the-counter-placeholder", "notes", "notes-1", "notes-1-1",
                       "notes-2", "What's new? (v2)", "smileys-&-emotion"] {
            #expect(anchors.hasHeading(anchor), "\(anchor)")
        }
        for anchor in ["whats-new-v3", "smileys-emotion-x", "notes-3", "the-counter"] {
            #expect(!anchors.hasHeading(anchor), "\(anchor)")
        }
    }

    /// Heading links as Obsidian writes them: `:` `?` `#` `|` `^` `[` `]` `%%` made spaces, and
    /// backticks or `&` left out; a block id right after an embed ("3 false findings" in
    /// Obsidian's help vault before).
    @Test func obsidianHeadingLinksAndBlockIDs() {
        let body = "## Part 1: Basics\n## How large can each remote vault be?\n## Use `quire check` & fix\n"
            + "## See [[Other]] | more\n## 100% sure\n![[x.png]]^block-id\n[x](y.png)^fig-2\nword^not-one\n"
        let anchors = LinkExtractor.scan(text: body).anchors
        #expect(anchors.blockIDs == ["block-id", "fig-2"])
        let named = ["Part 1 Basics": 0, "part 1: basics": 0, "How large can each remote vault be": 1,
                     "How large can each remote vault be?": 1, "Use quire check fix": 2, "Use `quire check` & fix": 2,
                     "Use quire check & fix": 2, "See Other more": 3, "100% sure": 4]
        for (link, index) in named { #expect(anchors.headingIndex(of: link) == index, "\(link)") }
        #expect(anchors.headingIndex(of: "Part 2 Basics") == nil)
        #expect(NoteAnchors.linkText("Part 1: Basics") == "Part 1 Basics")
        #expect(NoteAnchors.linkText("How large? [draft] a|b ^x %%c%%") == "How large draft a b x c")
    }

    @Test func parsedNotesCarryLinks() {
        let note = NoteParser.parse(Data("---\nrelated: \"[[X]]\"\n---\n[[Y]]\n".utf8), path: "n.md")
        #expect(note.links.map(\.target) == ["X", "Y"])
        #expect(NoteParser.parse(Data("a\0b [[Z]]".utf8), path: "bin.md").links.isEmpty)
    }

    /// Long lines of openers that nothing closes: each `[` or `(` searched to the end of the
    /// line made `check` and `search` quadratic (a 400 KB line took over a minute). The limit
    /// only catches that; the lines read in well under a second.
    @Test(.timeLimit(.minutes(1))) func longLinesOfUnclosedOpenersAreReadOnce() {
        let end = " [end](end.md) `[[no]]`"
        let ticks = (2...600).map { String(repeating: "`", count: $0) + " [a](" }.joined()
        for line in [String(repeating: "[a](", count: 50_000), String(repeating: "[a", count: 100_000),
                     String(repeating: "[a](b (", count: 30_000), String(repeating: "[a](b '", count: 30_000),
                     String(repeating: "[a](x()", count: 30_000), String(repeating: "[[a|", count: 50_000), ticks] {
            #expect(links(line + end).map(\.target) == ["end.md"], "\(line.prefix(12))…")
        }
        #expect(links("[a](b (c) [x](y.md)").map(\.target) == ["y.md"])
        #expect(links("[a](b.md (c))").map(\.title) == ["c"])
        #expect(links(String(repeating: "[ ", count: 33) + "a" + String(repeating: " ]", count: 33) + "(deep.md)").isEmpty)
        #expect(links(String(repeating: "[ ", count: 32) + "a" + String(repeating: " ]", count: 32) + "(deep.md)").count == 1)
    }

    @Test func hostileInputNeverCrashes() {
        for text in ["[[", "]]", "[[|]]", "[[#]]", "![[", "[](", "[x](<", "[x](<a>", "[x](a \"t", "[[a]", "[`]`](x.md)",
                     String(repeating: "[", count: 5000), String(repeating: "[[a|", count: 1000) + "]]"] {
            _ = links(text)
        }
        #expect(links("[[#]]").isEmpty)
        #expect(links("[`]`](x.md)").map(\.target) == ["x.md"])
    }
}
