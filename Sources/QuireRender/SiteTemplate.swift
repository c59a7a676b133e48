/// A link in a generated page: its text and where it goes (already relative to the page).
public struct SiteLink: Sendable, Equatable {
    /// What is shown.
    public var text: String
    /// The relative URL.
    public var href: String
    /// A line of context shown under it (a backlink's sentence), or empty.
    public var context: String

    /// Creates a link.
    public init(text: String, href: String, context: String = "") {
        self.text = text
        self.href = href
        self.context = context
    }
}

/// One note's page, ready to be written: the values the page shows.
public struct SiteNotePage: Sendable, Equatable {
    /// The site path of the page (`notes/Drafts/woody.html`).
    public var path: String
    /// The note's title.
    public var title: String
    /// The folder link (to the index), nil for the root folder.
    public var folder: SiteLink?
    /// One line of facts (dates, project, draft), already formatted.
    public var facts: [String]
    /// The tags, each linking to its place on the tags page.
    public var tags: [SiteLink]
    /// The rendered body (`HTMLRenderer`).
    public var body: RenderedHTML
    /// Notes that link here.
    public var backlinks: [SiteLink]

    /// Creates a page.
    public init(path: String, title: String, folder: SiteLink?, facts: [String], tags: [SiteLink], body: RenderedHTML, backlinks: [SiteLink]) {
        self.path = path
        self.title = title
        self.folder = folder
        self.facts = facts
        self.tags = tags
        self.body = body
        self.backlinks = backlinks
    }
}

/// A titled list of links on an index page (a folder, a tag).
public struct SiteSection: Sendable, Equatable {
    /// The heading.
    public var title: String
    /// The heading's `id`.
    public var anchor: String
    /// The entries.
    public var links: [SiteLink]

    /// Creates a section.
    public init(title: String, anchor: String, links: [SiteLink]) {
        self.title = title
        self.anchor = anchor
        self.links = links
    }
}

/// The HTML of a generated site's pages: every page is a complete, well-formed HTML5 document
/// with only relative links, the stylesheet and the search script of `SiteAssets`, and nothing
/// loaded from elsewhere.
public struct SiteTemplate: Sendable {
    /// The site's name, in every header.
    public var siteTitle: String

    /// Creates the templates of a site.
    public init(siteTitle: String) { self.siteTitle = siteTitle }

    /// A note's page.
    public func notePage(_ page: SiteNotePage) -> String {
        var main = "<article class=\"note\">\n"
        if let folder = page.folder {
            main += "<nav class=\"crumbs\"><a href=\"\(HTMLText.escape(folder.href))\">\(HTMLText.escape(folder.text))</a></nav>\n"
        }
        // The body's own first heading stands for the title when it says the same.
        if page.body.headings.first.map({ $0.level == 1 && $0.text == page.title && page.body.html.hasPrefix("<h1") }) != true {
            main += "<h1 class=\"title\">\(HTMLText.escape(page.title))</h1>\n"
        }
        if !page.facts.isEmpty || !page.tags.isEmpty {
            main += "<p class=\"meta\">"
            main += page.facts.map { "<span>\(HTMLText.escape($0))</span>" }.joined(separator: " ")
            main += page.tags.map { " <a class=\"tag\" href=\"\(HTMLText.escape($0.href))\">#\(HTMLText.escape($0.text))</a>" }.joined()
            main += "</p>\n"
        }
        main += "<div class=\"body\">\n\(page.body.html)</div>\n</article>\n"
        if !page.backlinks.isEmpty {
            main += "<aside class=\"backlinks\">\n<h2>Linked from</h2>\n" + list(page.backlinks) + "</aside>\n"
        }
        return document(title: page.title, path: page.path, main: main)
    }

    /// An index page (`index.html`, `tags.html`): a heading, a line of text and sections.
    public func indexPage(path: String, heading: String, summary: String, sections: [SiteSection]) -> String {
        var main = "<h1>\(HTMLText.escape(heading))</h1>\n<p class=\"summary\">\(HTMLText.escape(summary))</p>\n"
        if sections.count > 1 {
            main += "<nav class=\"toc\">" + sections.map {
                "<a href=\"#\(HTMLText.escape(HTMLText.urlPath($0.anchor)))\">\(HTMLText.escape($0.title))</a>"
            }.joined(separator: " ") + "</nav>\n"
        }
        for section in sections {
            main += "<section>\n<h2 id=\"\(HTMLText.escape(section.anchor))\">\(HTMLText.escape(section.title))</h2>\n" + list(section.links) + "</section>\n"
        }
        return document(title: heading, path: path, main: main)
    }

    /// The search page: results for `?q=` are filled in by the script.
    public func searchPage(path: String) -> String {
        let main = """
            <h1>Search</h1>
            <form class="search-page" role="search" action="search.html"><input type="search" name="q" id="search-page-input" placeholder="Words, tags, titles" autocomplete="off" /></form>
            <p class="summary" id="search-page-status">Type to search every note.</p>
            <ol class="results" id="search-page-results"></ol>
            <noscript><p>Search needs JavaScript; the <a href="index.html">index</a> lists every note.</p></noscript>

            """
        return document(title: "Search", path: path, main: main)
    }

    private func list(_ links: [SiteLink]) -> String {
        guard !links.isEmpty else { return "<p class=\"empty\">None.</p>\n" }
        return "<ul>\n" + links.map { link in
            let context = link.context.isEmpty ? "" : " <span class=\"context\">\(HTMLText.escape(link.context))</span>"
            return "<li><a href=\"\(HTMLText.escape(link.href))\">\(HTMLText.escape(link.text))</a>\(context)</li>\n"
        }.joined() + "</ul>\n"
    }

    private func document(title: String, path: String, main: String) -> String {
        let root = SiteLayout.root(from: path)
        let pageTitle = title == siteTitle ? title : "\(title) · \(siteTitle)"
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8" />
            <meta name="viewport" content="width=device-width, initial-scale=1" />
            <meta name="generator" content="quire" />
            <title>\(HTMLText.escape(pageTitle))</title>
            <link rel="stylesheet" href="\(root)\(SiteLayout.assetFolder)/style.css" />
            </head>
            <body data-root="\(root)">
            <header class="site">
            <a class="home" href="\(root)index.html">\(HTMLText.escape(siteTitle))</a>
            <a href="\(root)tags.html">Tags</a>
            <form class="search" role="search" action="\(root)search.html"><input type="search" name="q" id="search-input" placeholder="Search" aria-label="Search notes" autocomplete="off" /></form>
            </header>
            <div id="search-results" class="search-results" hidden=""></div>
            <main>
            \(main)</main>
            <script src="\(root)\(SiteLayout.assetFolder)/search.js"></script>
            </body>
            </html>

            """
    }
}
