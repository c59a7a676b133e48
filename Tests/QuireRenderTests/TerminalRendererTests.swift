import QuireRender
import Testing

@Suite struct TerminalRendererTests {
    private func plain(_ markdown: String, width: Int = 60) -> String {
        TerminalRenderer(width: width, color: false).render(markdown)
    }

    private func colored(_ markdown: String, width: Int = 60) -> String {
        TerminalRenderer(width: width, color: true).render(markdown)
    }

    private func stripped(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    @Test func headingsAndParagraphs() {
        #expect(plain("# Title\n\nSome text.\n\n### Third level\n") == "# Title\n\nSome text.\n\n### Third level\n")
        #expect(colored("# Title\n") == "\u{1B}[2;35m# \u{1B}[0m\u{1B}[1;4;35mTitle\u{1B}[0m\n")
    }

    @Test func commentsAreLeftOut() {
        #expect(plain("Seen %%not this%% too.\n\n%%\nhidden block\n%%\nLast.\n") == "Seen too.\n\nLast.\n")
    }

    @Test func emphasisIsStyledOnATerminalAndPlainElsewhere() {
        let source = "a *b* **c** ~~d~~ `e`\n"
        #expect(plain(source) == "a b c d e\n")
        let styled = colored(source)
        #expect(styled.contains("\u{1B}[3mb\u{1B}[0m"), "\(styled)")
        #expect(styled.contains("\u{1B}[1mc\u{1B}[0m"), "\(styled)")
        #expect(styled.contains("\u{1B}[9md\u{1B}[0m"), "\(styled)")
        #expect(styled.contains("\u{1B}[36me\u{1B}[0m"), "\(styled)")
    }

    @Test func listsNestAndNumber() {
        #expect(plain("- one\n- two\n  - inner\n") == "• one\n• two\n  ◦ inner\n")
        #expect(plain("9. nine\n10. ten\n") == " 9. nine\n10. ten\n")
        #expect(plain("- loose\n\n- items\n") == "• loose\n\n• items\n")
    }

    @Test func taskLists() {
        #expect(plain("- [ ] open\n- [x] done\n") == "[ ] open\n[x] done\n")
        #expect(colored("- [x] done\n").contains("\u{1B}[1;32m[x]\u{1B}[0m"))
        #expect(plain("1. [x] first\n") == "1. [x] first\n")
    }

    @Test func codeBlocksAreIndentedAndNeverWrapped() {
        let long = String(repeating: "x", count: 50)
        #expect(plain("```swift\nlet a = 1\n\tb\n\(long)\n```\n", width: 20) == "    let a = 1\n        b\n    \(long)\n")
    }

    @Test func quotes() {
        #expect(plain("> quoted\n>\n> more\n") == "│ quoted\n│\n│ more\n")
        #expect(plain("> > nested\n") == "│ │ nested\n")
    }

    @Test func tablesAlignTheirColumns() {
        let table = "| Name | Age |\n|:-----|----:|\n| Woody | 25 |\n| Jessie | 9 |\n"
        #expect(plain(table) == "Name   │ Age\n───────┼────\nWoody  │  25\nJessie │   9\n")
        #expect(plain("| a | b |\n|:-:|---|\n| x | y |\n") == "a │ b\n──┼──\nx │ y\n")
    }

    @Test func aNarrowTableWrapsItsCells() {
        let table = "| Word | Meaning |\n|---|---|\n| toy | something a child plays with every single day |\n"
        let lines = plain(table, width: 24).split(separator: "\n")
        #expect(lines.count > 3)
        for line in lines { #expect(DisplayWidth.of(String(line)) <= 24, "\(String(line))") }
        #expect(lines[2].hasPrefix("toy  │ something"), "\(String(lines[2]))")
    }

    @Test func linksAreNumberedAndListedAtTheEnd() {
        let source = "See [Pixar](https://pixar.com) and [again](https://pixar.com), [docs](https://example.org/docs), <https://auto.example> and [top](#top).\n"
        #expect(plain(source, width: 80) == """
            See Pixar[1] and again[1], docs[2], https://auto.example and top.

            [1] https://pixar.com
            [2] https://example.org/docs

            """)
    }

    @Test func imagesAndFootnotes() {
        #expect(plain("![a poster](poster.png)\n") == "[image: a poster][1]\n\n[1] poster.png\n")
        #expect(plain("Claim[^src].\n\n[^src]: The *source*.\n") == "Claim[^1].\n\n[^1] The source.\n")
    }

    @Test func thematicBreakAndHardBreak() {
        #expect(plain("a\n\n---\n\nb  \nc\n", width: 20) == ("a\n\n" + String(repeating: "─", count: 20) + "\n\nb\nc\n"))
    }

    @Test func wrapsAtTheWidth() {
        let words = (1...40).map { "word\($0)" }.joined(separator: " ")
        let lines = plain(words, width: 30).split(separator: "\n").map(String.init)
        #expect(lines.count > 5)
        for line in lines { #expect(DisplayWidth.of(line) <= 30) }
        #expect(lines.joined(separator: " ") == words)
        let item = plain("- " + words, width: 30).split(separator: "\n").map(String.init)
        #expect(item.dropFirst().allSatisfy { $0.hasPrefix("  word") }, "continuation lines hang under the text")
    }

    @Test func wideCharactersCountTwoColumnsAndBreakAnywhere() {
        let text = String(repeating: "上映会の夜", count: 6)
        let lines = plain(text, width: 20).split(separator: "\n").map(String.init)
        #expect(lines.first.map { DisplayWidth.of($0) } == 20)
        #expect(lines.joined() == text)
        #expect(lines.count == 3)
        let punctuated = plain(String(repeating: "あ", count: 10) + "。続き", width: 20).split(separator: "\n").map(String.init)
        #expect(!(punctuated.contains { $0.hasPrefix("。") }), "closing punctuation never starts a line")
    }

    @Test func aLongWordIsCut() {
        let word = String(repeating: "a", count: 50)
        #expect(plain(word, width: 20) == (String(repeating: "a", count: 20) + "\n" + String(repeating: "a", count: 20) + "\n" + String(repeating: "a", count: 10) + "\n"))
    }

    @Test func controlCharactersNeverReachTheTerminal() {
        let output = colored("evil \u{1B}[2J text and `\u{07}code`\n\n```\n\u{1B}]0;title\u{07}\n```\n")
        #expect(!stripped(output).contains("\u{1B}"))
        #expect(!output.contains("\u{07}"))
        #expect(plain("evil \u{1B}[2J\n").contains("evil \u{FFFD}[2J"))
    }

    @Test func styledOutputHasThePlainLayout() {
        let document = """
            # Heading *one*

            Text with **bold**, a [link](https://x.org) and `code` in a paragraph long enough to wrap twice over.

            - [ ] task
            - [x] done
              1. nested *emphasis*

            > quoted **strong**

            | a | b |
            |---|--:|
            | 1 | ~~2~~ |

            ```
            code
            ```

            Footnote[^1].

            [^1]: Here.
            """
        #expect(stripped(colored(document, width: 40)) == plain(document, width: 40))
    }

    @Test func wikilinksShowTheirTextAsLinks() {
        let source = "See [[Woody|the cowboy]] and `[[Code]]`.\n"
        func range(_ part: String) -> Range<Int> {
            let start = source.utf8.distance(from: source.startIndex, to: source.range(of: part)?.lowerBound ?? source.startIndex)
            return start..<(start + part.utf8.count)
        }
        let links = [(range: range("[[Woody|the cowboy]]"), text: "the cowboy"), (range: range("[[Code]]"), text: "Code")]
        #expect(TerminalRenderer(width: 60, color: false).render(source, noteLinks: links) == "See the cowboy and [[Code]].\n")
        #expect(TerminalRenderer(width: 60, color: true).render(source, noteLinks: links).contains("\u{1B}[4;34mthe cowboy\u{1B}[0m"))
    }

    @Test func hostileNestingDoesNotCrash() {
        let deep = String(repeating: ">", count: 5_000) + " deep\n" + String(repeating: "- ", count: 2_000) + "x\n" + String(repeating: "*", count: 5_000) + "a"
        #expect(!plain(deep).isEmpty)
        #expect(plain("") == "")
    }
}
