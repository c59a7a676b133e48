import QuireCore
import QuireRender
import Testing

@Suite struct HTMLRendererTests {
    private func html(_ markdown: String) -> String { HTMLRenderer().render(markdown).html }

    private func range(of part: String, in text: String) -> Range<Int> {
        guard let found = text.range(of: part) else { return 0..<0 }
        let start = text.utf8.distance(from: text.startIndex, to: found.lowerBound)
        return start..<(start + part.utf8.count)
    }

    @Test func gitHubExtensions() {
        let table = html("| a | b |\n|:--|--:|\n| 1 | ~~2~~ |\n")
        #expect(table.contains("<th align=\"left\">a</th>"), "\(table)")
        #expect(table.contains("<td align=\"right\"><del>2</del></td>"), "\(table)")
        let tasks = html("- [ ] open\n- [x] done\n")
        #expect(tasks.contains("<li><input type=\"checkbox\" disabled=\"\" /> open</li>"), "\(tasks)")
        #expect(tasks.contains("<input type=\"checkbox\" checked=\"\" disabled=\"\" /> done"), "\(tasks)")
        #expect(html("visit www.pixar.com\n").contains("<a href=\"http://www.pixar.com\">www.pixar.com</a>"))
        let code = html("```swift\nlet a = \"<b>\"\n```\n")
        #expect(code.contains("<pre><code class=\"language-swift\">let a = &quot;&lt;b&gt;&quot;\n</code></pre>"), "\(code)")
    }

    @Test func footnotes() {
        let page = html("Claim[^src].\n\n[^src]: The source.\n")
        #expect(page.contains("<a href=\"#fn-src\" id=\"fnref-src\" data-footnote-ref>1</a>"), "\(page)")
        #expect(page.contains("<li id=\"fn-src\">"), "\(page)")
        #expect(page.contains("href=\"#fnref-src\""), "\(page)")
    }

    @Test func headingsGetUniqueAnchors() {
        let rendered = HTMLRenderer().render("# Act *Two*: the Fall\n\n## Notes\n\n## Notes\n\n## 上映会\n")
        #expect(rendered.html.contains("<h1 id=\"act-two-the-fall\">\nAct <em>Two</em>: the Fall\n</h1>"), "\(rendered.html)")
        #expect(rendered.html.contains("<h2 id=\"notes\">\nNotes\n</h2>\n<h2 id=\"notes-1\">\nNotes\n</h2>"), "\(rendered.html)")
        #expect(rendered.headings.map(\.anchor) == ["act-two-the-fall", "notes", "notes-1", "上映会"])
        #expect(rendered.headings.map(\.level) == [1, 2, 2, 2])
        #expect(rendered.headings.first?.text == "Act Two: the Fall")
    }

    @Test func replacementsBecomeLinksImagesAndSpans() {
        let source = "See [[Woody]] and ![[poster.png]] and [[Gone|gone <b>]].\n"
        let renderer = HTMLRenderer(replacements: [
            HTMLReplacement(range: range(of: "[[Woody]]", in: source), content: .link(href: "Drafts/woody.html", text: "Woody", cssClass: "wikilink")),
            HTMLReplacement(range: range(of: "![[poster.png]]", in: source), content: .image(source: "poster.png", alt: "poster")),
            HTMLReplacement(range: range(of: "[[Gone|gone <b>]]", in: source), content: .text("gone <b>", cssClass: "broken-link", title: "no note \"Gone\"")),
        ])
        let rendered = renderer.render(source)
        #expect(rendered.html == "<p>See <a class=\"wikilink\" href=\"Drafts/woody.html\">Woody</a> and <img src=\"poster.png\" alt=\"poster\" /> and <span class=\"broken-link\" title=\"no note &quot;Gone&quot;\">gone &lt;b&gt;</span>.</p>\n")
        #expect(rendered.text == "See Woody and  and gone <b>.")
    }

    /// `%%` comments are left out of the page, with a wikilink inside them; a wikilink after
    /// one still lands where it was written.
    @Test func commentsAreLeftOut() {
        let source = "Before %%secret [[Hidden]]%% [[Woody]].\n\n%%\n# Not a heading\n[[Also]]\n%%\nAfter `%%code%%`.\n"
        let renderer = HTMLRenderer(replacements: [
            HTMLReplacement(range: range(of: "[[Hidden]]", in: source), content: .text("Hidden", cssClass: "broken-link", title: "x")),
            HTMLReplacement(range: range(of: "[[Woody]]", in: source), content: .link(href: "woody.html", text: "Woody", cssClass: "wikilink")),
        ])
        let html = renderer.render(source).html
        #expect(html == "<p>Before  <a class=\"wikilink\" href=\"woody.html\">Woody</a>.</p>\n<p>After <code>%%code%%</code>.</p>\n")
    }

    /// Callouts: type, title (the type's label when none), fold state, nesting; no `[!tip]` left.
    @Test func calloutsBecomeCallouts() {
        let folded = html("> [!tip]- Read *me*\n> Body text.\n>\n> > [!note]\n> > Inner.\n")
        #expect(folded == ("<div class=\"callout\" data-callout=\"tip\" data-callout-fold=\"-\"><details>\n"
                       + "<summary class=\"callout-title\">\nRead <em>me</em>\n</summary>\n<div class=\"callout-content\">\n<p>Body text.</p>\n"
                       + "<div class=\"callout\" data-callout=\"note\">\n<div class=\"callout-title\">\nNote\n</div>\n"
                       + "<div class=\"callout-content\">\n<p>Inner.</p>\n</div>\n</div>\n</div>\n</details></div>\n"))
        #expect(html("> [!my-type]+\n> open\n") == ("<div class=\"callout\" data-callout=\"my-type\" data-callout-fold=\"+\"><details open>\n"
                       + "<summary class=\"callout-title\">\nMy type\n</summary>\n<div class=\"callout-content\">\n<p>open</p>\n</div>\n</details></div>\n"))
        #expect(html("> [!x]y\n> plain quote\n") == "<blockquote>\n<p>[!x]y\nplain quote</p>\n</blockquote>\n")
    }

    /// An image embed's size (`|300`, `|300x200`) and a transcluded embed alone in its paragraph.
    @Test func imageSizesAndEmbeds() {
        let source = "![[a.png|300x200]]\n\n![[Other]]\n"
        let html = HTMLRenderer(replacements: [
            HTMLReplacement(range: range(of: "![[a.png|300x200]]", in: source), content: .image(source: "a.png", alt: "a.png", width: 300, height: 200)),
            HTMLReplacement(range: range(of: "![[Other]]", in: source), content: .embed(html: "<p>Other's text</p>\n", source: "![[Other]]")),
        ]).render(source).html
        #expect(html == ("<p><img src=\"a.png\" alt=\"a.png\" width=\"300\" height=\"200\" /></p>\n"
                       + "<div class=\"embed\" data-embed=\"![[Other]]\"><p>Other's text</p>\n</div>\n"))
    }

    /// Block ids are anchors, not text (Obsidian's reading view shows none); `x^2` stays.
    @Test func blockIDsAreNotShown() {
        #expect(html("Some text ^para-1\n\n- item ^item\n\nx^2 and a^b c\n\nBlock\n\n^alone\n") == "<p>Some text</p>\n<ul>\n<li>item</li>\n</ul>\n<p>x^2 and a^b c</p>\n<p>Block</p>\n")
        let source = "![[x.png]]^figure\n"
        let rendered = HTMLRenderer(replacements: [HTMLReplacement(range: range(of: "![[x.png]]", in: source),
                                                                   content: .image(source: "x.png", alt: "x"))]).render(source).html
        #expect(rendered == "<p><img src=\"x.png\" alt=\"x\" /></p>\n")
    }

    @Test func aReplacementInsideALinkLabelIsText() {
        let source = "[see [[X]]](https://x.org)\n"
        let renderer = HTMLRenderer(replacements: [
            HTMLReplacement(range: range(of: "[[X]]", in: source), content: .link(href: "x.html", text: "X", cssClass: "wikilink")),
        ])
        #expect(renderer.render(source).html == "<p><a href=\"https://x.org\">see X</a></p>\n")
    }

    @Test func aReplacementThatLandsInCodeIsPutBack() {
        let source = "`[[X]]`\n"
        let renderer = HTMLRenderer(replacements: [
            HTMLReplacement(range: range(of: "[[X]]", in: source), content: .link(href: "x.html", text: "X", cssClass: "wikilink")),
        ])
        #expect(renderer.render(source).html == "<p><code>[[X]]</code></p>\n")
    }

    @Test func destinationsAreRewritten() {
        let renderer = HTMLRenderer { destination, isImage in
            if destination.hasPrefix("gone") { return .broken(title: "no such note") }
            return isImage ? .url("media/" + destination) : destination.hasSuffix(".md") ? .url(String(destination.dropLast(3)) + ".html") : nil
        }
        let page = renderer.render("[next](other%20note.md) [web](https://x.org) ![p](p.png) [*old*](gone.md) ![alt](gone.png)\n").html
        #expect(page == ("<p><a href=\"other%20note.html\">next</a> <a href=\"https://x.org\">web</a> <img src=\"media/p.png\" alt=\"p\" /> "
                       + "<span class=\"broken-link\" title=\"no such note\"><em>old</em></span> <span class=\"broken-link\" title=\"no such note\">alt</span></p>\n"))
    }

    @Test func rawHTMLIsLeftOutUnlessAsked() {
        let source = "a <kbd>b</kbd>\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1))\n"
        let safe = html(source)
        #expect(!safe.contains("<kbd>"))
        #expect(!safe.contains("<script>"))
        #expect(!safe.contains("javascript:"))
        let raw = HTMLRenderer(rawHTML: true).render(source).html
        #expect(raw.contains("<kbd>b</kbd>"), "\(raw)")
        #expect(!raw.contains("<script>"), "\(raw)")
    }

    /// With raw HTML kept, Markdown links and images that run code are dropped as without it, and
    /// raw tags lose their event attributes and their URLs that run code; the rest is kept.
    @Test func rawHTMLKeepsNoScript() {
        let source = """
        [click](javascript:alert(1)) [v](VBScript:x) [d](data:text/html,x) <javascript:alert(2)> ![i](data:image/png;base64,AA==)
        [ok](https://pixar.com) ![img](jAvAsCrIpT:alert(3))

        <a href="javascript:alert(4)" title="t" onclick="alert(5)">a</a> <img src=x onerror=alert(6)> <a href="&#106;avascript&colon;x">e</a>

        <div onmouseover='alert(7)' class="box"><a href=" java	script:x" data-x="1">b</a><form action="vbscript:x"></form>
        <svg/onload=alert(8)><a xlink:href="data:text/html,x">s</a></svg> <a href="https://pixar.com/?q=javascript:">fine</a>
        </div>

        """
        for rawHTML in [false, true] {
            let page = HTMLRenderer(rawHTML: rawHTML).render(source).html
            for needle in ["href=\"javascript", "href=\"vbscript", "href=\"data:text", "src=\"javascript", "action=", "xlink:href",
                           "&#106;", "onclick", "onerror", "onmouseover", "onload"] {
                #expect(!page.lowercased().contains(needle), "\(rawHTML): \(needle) in \(page)")
            }
            #expect(page.contains("<a href=\"\">click</a> <a href=\"\">v</a> <a href=\"\">d</a>"), "\(page)")
            #expect(page.contains("<img src=\"data:image/png;base64,AA==\" alt=\"i\" />"), "\(page)")
            #expect(page.contains("<a href=\"https://pixar.com\">ok</a>"), "\(page)")
        }
        let raw = HTMLRenderer(rawHTML: true).render(source).html
        #expect(raw.contains("<a title=\"t\">a</a> <img src=x> <a>e</a>"), "\(raw)")
        #expect(raw.contains("<div class=\"box\"><a data-x=\"1\">b</a><form></form>"), "\(raw)")
        #expect(raw.contains("<svg><a>s</a></svg> <a href=\"https://pixar.com/?q=javascript:\">fine</a>"), "\(raw)")
        #expect(HTMLRenderer(rawHTML: true).render("<a href=\"x\" onclick=\"y\n").html.contains("&lt;a href"))
    }

    @Test func slugsAndURLPaths() {
        #expect(HeadingAnchor.slug("Hello, World! 2") == "hello-world-2")
        #expect(HeadingAnchor.slug("???") == "section")
        #expect(HTMLText.urlPath("Drafts/Woody's ride #2.html") == "Drafts/Woody%27s%20ride%20%232.html")
        #expect(HTMLText.urlPath("日記/a.html") == "%E6%97%A5%E8%A8%98/a.html")
        #expect(HTMLText.escape("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    }

    @Test func parserBlocks() {
        #expect(MarkdownParser.blocks("# T\n\n- [x] a\n") == [
            .heading(level: 1, [.text("T")]),
            .list(ordered: false, start: 0, tight: true, items: [MarkdownListItem(task: true, blocks: [.paragraph([.text("a")])])]),
        ])
    }
}
