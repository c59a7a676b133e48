import Foundation
import Testing
@testable import QuireCore

/// Obsidian's `%%` comments and raw HTML blocks: one reader (`MarkdownBlocks`) sets them aside,
/// and links, tags, headings, block ids and words all skip the same bytes.
@Suite("Comments and raw HTML blocks")
struct CommentsAndHTMLTests {
    /// The kind of each line, as a short word.
    func kinds(_ text: String) -> [String] {
        var text = text
        return text.withUTF8 { bytes in
            var kinds: [String] = []
            MarkdownBlocks.forEachLine(of: bytes) { line in
                switch line.kind {
                case .text: kinds.append(line.hidden.isEmpty ? "text" : "text+comment")
                case .comment: kinds.append("comment")
                case .html: kinds.append("html")
                case .code: kinds.append("code")
                case .blank: kinds.append("blank")
                case .setextUnderline: kinds.append("setext")
                }
                return true
            }
            return kinds
        }
    }

    @Test func commentBlocksInlineCommentsAndCode() {
        #expect(kinds("a\n%%\n[[x]]\n```\n%%\nb %%c%% d\n") == ["text", "comment", "comment", "comment", "comment", "text+comment"])
        #expect(kinds("```\n%%\n```\nafter\n") == ["code", "code", "code", "text"])
        #expect(kinds("`%%` is code\ntext %% open\nstill\nclosed %% after\n")
                == ["text", "text+comment", "comment", "text+comment"])
        #expect(kinds("> [!note]\n> %% hidden %%\n> seen\n") == ["text", "comment", "text"])
    }

    @Test func htmlBlocksOfEveryKind() {
        #expect(kinds("<table>\n<tr><td>#fff</td></tr>\n</table>\n\ntext\n") == ["html", "html", "html", "blank", "text"])
        #expect(kinds("<!-- a\n[[x]]\n-->\ntext\n") == ["html", "html", "html", "text"])
        #expect(kinds("<pre>\n\n[[x]]\n</pre>\ntext\n") == ["html", "html", "html", "html", "text"])
        #expect(kinds("<span>alone</span>\n[[y]]\n\ntext\n") == ["text", "text", "blank", "text"])
        #expect(kinds("<my-widget data-x=\"1\">\n[[y]]\n\ntext\n") == ["html", "html", "blank", "text"])
        #expect(kinds("para\n<my-widget>\n") == ["text", "text"])
        #expect(kinds("para\n<div>\n") == ["text", "html"])
    }

    @Test func commentsHoldNoLinksTagsHeadingsOrBlocks() {
        let body = """
            # Real
            See [[Seen]] %% not [[Hidden]] #hidden %% and #seen.
            %%
            ## Commented heading
            ![[Embed]] ^hidden-block
            #hidden2
            %%
            <table><tr><td>#fff</td><td>[[InTable]]</td></tr></table>

            Last line ^kept %% ^not-this %%
            `%% code [[Code]] %%` [[After]]

            """
        let scan = LinkExtractor.scan(text: body)
        #expect(scan.links.map(\.target) == ["Seen", "After"])
        #expect(scan.anchors.headings == ["Real"])
        #expect(scan.anchors.blockIDs == ["kept"])
        #expect(MarkdownBody.inlineTags(in: body) == ["seen"])
        var words = "one %% two three %% four\n"
        #expect(words.withUTF8 { WordCounter.countReadable(utf8: $0) } == 2)
    }

    @Test func commentRangesAndTheTextWithoutThem() {
        let body = "a %%b%% c\n%%\nhidden\n%%\nd\n"
        #expect(MarkdownBody.withoutComments(body) == "a  c\nd\n")
        #expect(MarkdownBody.commentRanges(in: "no comments\n").isEmpty)
    }
}
