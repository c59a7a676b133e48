import Foundation
import Testing
@testable import QuireSearch

/// Snippets read as prose: whole words, no Markdown syntax, the hit marked.
@Suite struct SnippetTests {
    static func snippet(_ body: String, _ query: String, words: Int = 30) throws -> Snippet {
        Snippet.make(body: body, query: try NoteQuery.parse(query, now: Date()), words: words)
    }

    @Test func linkSyntaxGivesItsText() throws {
        let body = "See [the guide](https://example.com/guide) and [[Trip notes|my trip]] or [[Budget]], [ref text][1].\n"
        #expect(try Self.snippet(body, "guide").text == "See the guide and my trip or Budget, ref text.")
        #expect(try Self.snippet(body, "example").text == "See the guide and my trip or Budget, ref text.")
    }

    /// A `%%` comment is no part of a snippet (its words are not shown around a hit).
    @Test func commentsAreSkipped() throws {
        let body = "Start %%private remark%% of the trip.\n%%\ndraft idea\n%%\nThe trip ends.\n"
        #expect(try Self.snippet(body, "trip").text == "Start of the trip. The trip ends.")
    }

    @Test func emphasisHTMLImagesAndDataURLsAreDropped() throws {
        let body = """
            Some **bold** and __strong__ <span class="x">words</span> here.
            ![diagram](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAUA) ![[photo.png]]
            <img src="data:image/png;base64,AAAA"> raw data:text/plain;base64,SGVsbG8= end
            """
        let snippet = try Self.snippet(body, "bold")
        #expect(snippet.text == "Some bold and strong words here. raw end")
        #expect(snippet.highlights.map { String(snippet.text[$0]) } == ["bold"])
    }

    @Test func theSnippetStartsAndEndsOnWholeWords() throws {
        let body = "w0 node.js a b c d e kappa f don't z"
        let snippet = try Self.snippet(body, "kappa", words: 9)
        // Six tokens before the hit begin inside `node.js`, the last one inside `don't`:
        // the whole words are shown.
        #expect(snippet.text == "… node.js a b c d e kappa f don't …")
        #expect(snippet.highlights.map { String(snippet.text[$0]) } == ["kappa"])
        let cut = try Self.snippet(body, "w0", words: 1)
        #expect(cut.text == "w0 …")
    }

    @Test func unclosedSyntaxIsKeptAsWritten() throws {
        let body = "a [half link and <b unclosed tag\n- [ ] task [x] box **open"
        #expect(try Self.snippet(body, "half").text == "a [half link and <b unclosed tag task [x] box open")
    }
}
