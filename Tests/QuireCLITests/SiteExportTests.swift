import Foundation
import QuireTestSupport
import Testing

/// `quire export --html DIR` end to end: the site's pages, links, attachments and index, checked
/// by `Tests/Tools/check-site.py` (a strict tag balance, every href/src resolving to a file).
@Suite("quire export --html")
struct SiteExportTests {
    /// Runs the site checker; returns its exit code and JSON summary.
    static func check(_ site: URL, strictFragments: Bool) throws -> (code: Int32, summary: [String: Any]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Harness.packageRoot.appendingPathComponent("Tests/Tools/check-site.py").path, site.path]
            + (strictFragments ? ["--strict-fragments"] : [])
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let summary = (try JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (process.terminationStatus, summary)
    }

    static let hasPython = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The DOM of `page` after its scripts ran in headless Chromium.
    static func dom(_ page: URL, query: String) throws -> String {
        var components = URLComponents(url: page, resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "q", value: query)]
        return try ProgramOutput.run(chromium ?? "/usr/bin/chromium", [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--virtual-time-budget=5000",
            "--user-data-dir=" + page.deletingLastPathComponent().appendingPathComponent(".chromium").path,
            "--dump-dom", components?.url?.absoluteString ?? page.absoluteString,
        ]).text
    }

    @Test(.enabled(if: hasPython, "python3 runs the site checker (Makefile TEST_PACKAGES)"))
    func sampleVaultSiteIsWellFormedAndEveryLinkResolves() throws {
        let root = try Harness.copySampleVault()
        #expect(try Harness.run(["init"], in: root).code == 0)
        let vault = TestVault(existing: root)
        let run = try vault.run(["export", "--html", "../site"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("exported 32 pages and 0 attachments to ../site\n"))
        let site = root.deletingLastPathComponent().appendingPathComponent("site")
        let checked = try Self.check(site, strictFragments: true)
        #expect(checked.code == 0, "\(checked.summary)")
        #expect(checked.summary["pages"] as? Int == 35)

        let welcome = try Harness.read(site.appendingPathComponent("notes/welcome-to-quire.html"))
        #expect(welcome.contains("<a class=\"wikilink\" href=\"Drafts/woodys-last-ride.html\">Woody's last ride</a>"))
        #expect(welcome.contains("<title>Welcome to Quire · vault</title>"))
        #expect(!welcome.contains("<h1 class=\"title\">"), "the body's own first heading is the title")
        let woody = try Harness.read(site.appendingPathComponent("notes/Drafts/woodys-last-ride.html"))
        #expect(woody.contains("<aside class=\"backlinks\">"))
        #expect(woody.contains("<a href=\"../welcome-to-quire.html\">Welcome to Quire</a> <span class=\"context\">Start with Woody&#39;s last ride, then read the Toy Story 5 one-pager it grew out of.</span>"))
        #expect(woody.contains("<a class=\"tag\" href=\"../../tags.html#tag-"))
        let index = try Harness.read(site.appendingPathComponent("index.html"))
        for folder in ["Top level", "Dialogue", "Drafts", "Journal", "Pitches"] { #expect(index.contains(">\(folder)</h2>")) }
        let tags = try Harness.read(site.appendingPathComponent("tags.html"))
        #expect(tags.contains(">#character/woody</h2>"))

        let json = try Data(contentsOf: site.appendingPathComponent("_quire/search-index.json"))
        let entries = try #require(try JSONSerialization.jsonObject(with: json) as? [[String: Any]])
        #expect(entries.count == 32)
        let tokyo = entries.first { ($0["url"] as? String) == "notes/Journal/2026-05-21-tokyo-screening.html" }
        #expect((tokyo?["text"] as? String)?.contains("上映") == true)
        let script = try Harness.read(site.appendingPathComponent("_quire/search-index.js"))
        #expect(script.hasPrefix("window.quireSearchIndex = ["))
    }

    @Test(.enabled(if: hasPython, "python3 runs the site checker (Makefile TEST_PACKAGES)"))
    func linksEmbedsAttachmentsAndBrokenLinks() throws {
        let vault = try TestVault()
        try vault.write("""
            # A

            See [[B]], [[B|the label]], [[B#Second part]] and [[#Tasks]].
            ![[B]]
            ![[pic.png]] and [[doc.pdf|the paper]]; [rel](sub/c.md), [deep](sub/c.md#Heading%20One), [web](https://example.org).
            [[Missing]] and [gone](nowhere.md).

            ## Tasks

            - [x] done
            - [ ] open

            | left | right |
            |:-----|------:|
            | 1 | ~~2~~ |

            Claim[^1].

            ```
            [[B]] stays code
            ```

            [^1]: A footnote.

            """, to: "a.md")
        try vault.write("# B\n\n## Second part\n\nText.\n", to: "b.md")
        try vault.write("# Heading One\n\n[up](../a.md) and ![poster](../pic.png)\n", to: "sub/c.md")
        try Harness.write("png", to: vault.url("pic.png"))
        try Harness.write("pdf", to: vault.url("doc.pdf"))
        try Harness.write("secret", to: vault.url("secret.png"))
        let run = try vault.run(["export", "--html", "out"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("exported 3 pages and 2 attachments to out\n"))
        #expect(run.stderr == """
            quire: warning: a.md:6: [[Missing]] leads nowhere (unresolved)
            quire: warning: a.md:6: [gone](nowhere.md) leads nowhere (unresolved)

            """)
        let site = vault.url("out")
        let a = try Harness.read(site.appendingPathComponent("notes/a.html"))
        #expect(a.contains("<a class=\"wikilink\" href=\"b.html\">B</a>, <a class=\"wikilink\" href=\"b.html\">the label</a>, <a class=\"wikilink\" href=\"b.html#second-part\">B › Second part</a> and <a class=\"wikilink\" href=\"a.html#tasks\">Tasks</a>"))
        #expect(a.contains("<div class=\"embed\" data-embed=\"![[B]]\"><h1>B</h1>\n<h2>Second part</h2>\n<p>Text.</p>\n</div>"), "\(a)")
        #expect(a.contains("<img src=\"../files/pic.png\" alt=\"pic.png\" /> and <a class=\"attachment\" href=\"../files/doc.pdf\">the paper</a>"))
        #expect(a.contains("<a href=\"sub/c.html\">rel</a>, <a href=\"sub/c.html#heading-one\">deep</a>, <a href=\"https://example.org\">web</a>"))
        #expect(a.contains("<span class=\"broken-link\" title=\"no note or file named “Missing”\">Missing</span>"))
        #expect(a.contains("<span class=\"broken-link\" title=\"no note or file named “nowhere.md”\">gone</span>"))
        #expect(a.contains("<input type=\"checkbox\" checked=\"\" disabled=\"\" /> done"))
        #expect(a.contains("<th align=\"left\">left</th>"))
        #expect(a.contains("<section class=\"footnotes\" data-footnotes>"))
        #expect(a.contains("<pre><code>[[B]] stays code\n</code></pre>"))
        let c = try Harness.read(site.appendingPathComponent("notes/sub/c.html"))
        #expect(c.contains("<a href=\"../a.html\">up</a> and <img src=\"../../files/pic.png\" alt=\"poster\" />"))
        let b = try Harness.read(site.appendingPathComponent("notes/b.html"))
        #expect(b.contains("<li><a href=\"a.html\">a</a> <span class=\"context\">See B, the label, B › Second part and Tasks.</span></li>"))
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("files/pic.png").path))
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("files/secret.png").path), "only linked attachments are published")
        let checked = try Self.check(site, strictFragments: true)
        #expect(checked.code == 0, "\(checked.summary)")
    }

    @Test func destinationsAreCheckedAndASiteIsReplacedWhole() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: Public"), to: "public.md")
        try vault.write(noteText("title: Secret plan\ndraft: true", body: "Links to [[Public]].\n"), to: "draft.md")
        try vault.write(noteText("title: Index", body: "[[Secret plan]] and [[Public]]\n"), to: "index.md")
        try Harness.write("mine", to: vault.url("../foreign/keep.txt"))
        let foreign = try vault.run(["export", "--html", "../foreign"])
        #expect(foreign.code == 1)
        #expect(foreign.stderr.hasPrefix("quire: error: the destination folder is not empty and holds no site quire wrote ("))
        #expect(try vault.read("../foreign/keep.txt") == "mine")
        let itself = try vault.run(["export", "--html", "."])
        #expect(itself.code == 1)
        #expect(itself.stderr.hasPrefix("quire: error: the destination would replace the vault ("))
        #expect(try vault.run(["export"]).code == 2)

        #expect(try vault.run(["export", "--html", "../site", "--title", "Room"]).code == 0)
        #expect(FileManager.default.fileExists(atPath: vault.url("../site/notes/draft.html").path))
        try Harness.write("stale", to: vault.url("../site/notes/stale.html"))
        let again = try vault.run(["export", "--html", "../site", "--no-drafts"])
        #expect(again.code == 0, "\(again.stderr)")
        #expect(again.stdout.hasPrefix("exported 2 pages and 0 attachments to ../site (1 draft left out)\n"))
        #expect(again.stderr.contains("index.md:4: [[Secret plan]] leads nowhere (not published)"))
        #expect(again.stdout.contains("kept 1 file in ../site that quire did not write\n"))
        #expect(try vault.read("../site/notes/stale.html") == "stale", "a file no export wrote is kept")
        #expect(!FileManager.default.fileExists(atPath: vault.url("../site/notes/draft.html").path), "the page of a left-out note is gone")
        let index = try vault.read("../site/notes/index.html")
        #expect(index.contains("<span class=\"unpublished-link\" title=\"not published\">Secret plan</span>"))
        #expect(try vault.read("../site/index.html").contains("<p class=\"summary\">2 notes in 1 folder.</p>"), "a note called index keeps its own page")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: vault.root.deletingLastPathComponent().path)
        #expect(!leftovers.contains { $0.contains("quire-export") || $0.contains("quire-old") })
    }

    /// An export removes exactly the files the previous export wrote (its `_quire/manifest.json`):
    /// notes of the vault written in a site inside it (`docs/`) and files added to the site
    /// (`CNAME`, `.nojekyll`, `.well-known/`) are kept, pages of deleted notes go.
    @Test func aSiteKeepsFilesNoExportWrote() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: Hello"), to: "hello.md")
        try vault.write(noteText("title: Gone"), to: "gone.md")
        #expect(try vault.run(["export", "--html", "docs"]).code == 0)
        let about = noteText("title: About", body: "only copy of this text\n")
        try vault.write(about, to: "docs/about.md")
        try vault.write("notes.example.com\n", to: "docs/CNAME")
        try vault.write("", to: "docs/.nojekyll")
        try vault.write("k\n", to: "docs/.well-known/security.txt")
        try vault.write("mine\n", to: "docs/notes/mine.txt")
        try FileManager.default.removeItem(at: vault.url("gone.md"))
        let again = try vault.run(["export", "--html", "docs"])
        #expect(again.code == 0, "\(again.stderr)")
        #expect(again.stdout.contains("kept 5 files in docs that quire did not write\n"), "\(again.stdout)")
        #expect(try vault.read("docs/about.md") == about)
        #expect(try vault.read("docs/CNAME") == "notes.example.com\n")
        #expect(vault.exists("docs/.nojekyll"))
        #expect(try vault.read("docs/.well-known/security.txt") == "k\n")
        #expect(try vault.read("docs/notes/mine.txt") == "mine\n")
        #expect(vault.exists("docs/notes/docs/about.html"), "a note kept in the site folder is a note of the vault")
        #expect(!vault.exists("docs/notes/gone.html"))
        let manifest = try vault.read("docs/_quire/manifest.json")
        #expect(manifest.contains("\"notes/hello.html\"") && !manifest.contains("CNAME") && !manifest.contains("about.md"))
        let third = try vault.run(["export", "--html", "docs"])
        #expect(third.code == 0, "\(third.stderr)")
        #expect(try vault.read("docs/about.md") == about)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: vault.root.path)
        #expect(!leftovers.contains { $0.contains("quire-export") || $0.contains("quire-old") })
    }

    /// A site written by a quire without a manifest loses only the files of the layout quire
    /// writes (its pages, `_quire/`, `notes/*.html`, `files/`), never a hidden or a Markdown file
    /// or anything elsewhere.
    @Test func aSiteWithoutManifestKeepsFilesOutsideTheLayout() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: Hello"), to: "hello.md")
        #expect(try vault.run(["export", "--html", "../site"]).code == 0)
        try FileManager.default.removeItem(at: vault.url("../site/_quire/manifest.json"))
        let mine = ["CNAME", ".nojekyll", ".well-known/security.txt", "extra/page.html", "notes/draft.md", "files/.hidden", "404.html"]
        for path in mine { try vault.write("mine\n", to: "../site/" + path) }
        try vault.write("old\n", to: "../site/notes/stale.html")
        try vault.write("old\n", to: "../site/files/old.png")
        try vault.write("old\n", to: "../site/_quire/old.css")
        let run = try vault.run(["export", "--html", "../site"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.contains("kept 7 files in ../site that quire did not write\n"), "\(run.stdout)")
        for path in mine { #expect(try vault.read("../site/" + path) == "mine\n", "\(path)") }
        for path in ["notes/stale.html", "files/old.png", "_quire/old.css"] { #expect(!vault.exists("../site/" + path), "\(path)") }
        #expect(vault.exists("../site/_quire/manifest.json") && vault.exists("../site/notes/hello.html"))
    }

    /// Two names equal under Unicode normalization are two notes in a site too: each page has
    /// its own backlinks, and a draft's twin being published does not publish the draft.
    @Test func namesEqualUnderNormalizationAreTwoPages() throws {
        let vault = try TestVault()
        let (composed, decomposed) = ("caf\u{E9}", "cafe\u{301}")
        try vault.write(noteText("title: Composed"), to: composed + ".md")
        try vault.write(noteText("title: Decomposed\ndraft: true"), to: decomposed + ".md")
        try vault.write(noteText("title: Linker", body: "See [[Composed]].\n\nAnd [[Decomposed]].\n"), to: "linker.md")
        let run = try vault.run(["export", "--html", "../site", "--no-drafts"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stderr.contains("[[Decomposed]] leads nowhere (not published)"), "\(run.stderr)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: vault.url("../site/notes").path)
        #expect(Set(pages.map { Array($0.utf8) }) == [Array((composed + ".html").utf8), Array("linker.html".utf8)])
        let linker = try vault.read("../site/notes/linker.html")
        #expect(linker.contains("<span class=\"unpublished-link\" title=\"not published\">Decomposed</span>"), "\(linker)")
        #expect(try vault.read("../site/notes/" + composed + ".html").contains("<aside class=\"backlinks\">"))

        // Both published: the backlinks of each page are its own.
        try vault.write(noteText("title: Decomposed"), to: decomposed + ".md")
        try vault.write(noteText("title: Linker", body: "See [[Composed]].\n"), to: "linker.md")
        #expect(try vault.run(["export", "--html", "../site"]).code == 0)
        #expect(try vault.read("../site/notes/" + composed + ".html").contains("<aside class=\"backlinks\">"))
        #expect(!(try vault.read("../site/notes/" + decomposed + ".html").contains("<aside class=\"backlinks\">")))
    }

    @Test(.enabled(if: hasPython, "python3 runs the site checker (Makefile TEST_PACKAGES)"))
    func notesNamedNearTheLimitGetPagesThatFitAndLinksThatResolve() throws {
        let vault = try TestVault()
        // Stems of 250 bytes (the page name just fits), 251 and 252 (in two-byte characters,
        // so the cut falls inside one), and two that differ only past the cut.
        let stems = [String(repeating: "a", count: 250), String(repeating: "é", count: 125) + "a", String(repeating: "é", count: 126),
                     String(repeating: "b", count: 252), String(repeating: "b", count: 251) + "c"]
        for (index, stem) in stems.enumerated() {
            try vault.write(noteText("title: Long \(index)"), to: "deep/" + stem + ".md")
        }
        try vault.write(noteText("title: Linker", body: stems.indices.map { "[[Long \($0)]]" }.joined(separator: "\n") + "\n"), to: "linker.md")
        let run = try vault.run(["export", "--html", "../site"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("exported 6 pages"), "\(run.stdout)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: vault.url("../site/notes/deep").path)
        #expect(pages.count == 5, "two names sharing a prefix past the limit stay two pages: \(pages)")
        #expect(pages.allSatisfy { $0.utf8.count <= 255 && $0.hasSuffix(".html") })
        let checked = try Self.check(vault.root.deletingLastPathComponent().appendingPathComponent("site"), strictFragments: true)
        #expect(checked.code == 0, "every link to a long-named page resolves: \(checked.summary)")
    }

    @Test(.enabled(if: hasPython, "python3 runs the site checker (Makefile TEST_PACKAGES)"))
    func oddNamesAndHostileContentStayWellFormed() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: \"<script>alert('t')</script> & \\\"quotes\\\"\"\ntags: [\"a<b\", café]",
                                 body: "Links to [[日記 1]], [[100% sure?]] and [[Spaced name|with <b>label</b>]].\n\n<script>alert(1)</script>\n"),
                        to: "hostile.md")
        try vault.write("# 日記\n\n## 上映会\n\nSee [[hostile]] and [back](hostile.md).\n", to: "日記 1.md")
        try vault.write("Sure. See [[日記 1#上映会]].\n", to: "folder with space/100% sure?.md")
        try vault.write("Text.\n", to: "Spaced name.md")
        try Data([0x2D, 0x2D, 0x2D, 0x0A, 0xFF, 0xFE, 0x0A, 0x2D, 0x2D, 0x2D, 0x0A, 0x80, 0x5B, 0x5B, 0x61, 0x5D, 0x5D, 0x0A]).write(to: vault.url("bad-utf8.md"))
        try Data([0x00, 0x01, 0x02, 0x5B, 0x5B, 0x00]).write(to: vault.url("binary.md"))
        let run = try vault.run(["export", "--html", "../site"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("exported 6 pages"))
        let site = vault.root.deletingLastPathComponent().appendingPathComponent("site")
        let checked = try Self.check(site, strictFragments: true)
        #expect(checked.code == 0, "\(checked.summary)")
        let hostile = try Harness.read(site.appendingPathComponent("notes/hostile.html"))
        #expect(!hostile.contains("<script>alert"), "no markup from a note's title, tags or body")
        #expect(hostile.contains("<title>&lt;script&gt;alert(&#39;t&#39;)&lt;/script&gt; &amp; &quot;quotes&quot; · "))
        #expect(hostile.contains("<a class=\"wikilink\" href=\"%E6%97%A5%E8%A8%98%201.html\">日記 1</a>"))
        #expect(hostile.contains("href=\"folder%20with%20space/100%25%20sure%3F.html\">100% sure?</a>"))
        #expect(hostile.contains(">with &lt;b&gt;label&lt;/b&gt;</a>"))
        let deep = try Harness.read(site.appendingPathComponent("notes/folder with space/100% sure?.html"))
        #expect(deep.contains("href=\"../%E6%97%A5%E8%A8%98%201.html#%E4%B8%8A%E6%98%A0%E4%BC%9A\">日記 1 › 上映会</a>"))
    }

    static let corpora = Harness.packageRoot.appendingPathComponent("Tests/Corpora")

    @Test(.enabled(if: hasPython, "python3 runs the site checker (Makefile TEST_PACKAGES)"),
          .enabled(if: FileManager.default.fileExists(atPath: corpora.appendingPathComponent("hugo-docs").path), "Tests/Corpora is absent"),
          arguments: ["dendron-site", "hugo-docs"])
    func corpusSitesAreWellFormedAndTheirLinksResolve(corpus: String) throws {
        let source = Self.corpora.appendingPathComponent(corpus)
        let root = try Harness.temporaryDirectory("quire-site-corpus").appendingPathComponent("vault")
        try FileManager.default.copyItem(at: source, to: root)
        #expect(try Harness.run(["init"], in: root).code == 0)
        let run = try Harness.run(["export", "--html", "../site"], in: root)
        #expect(run.code == 0, "\(run.stderr.prefix(2_000))")
        let checked = try Self.check(root.deletingLastPathComponent().appendingPathComponent("site"), strictFragments: false)
        #expect(checked.code == 0, "\(checked.summary)")
        #expect((checked.summary["pages"] as? Int ?? 0) > 900)
    }

    @Test(.enabled(if: chromium != nil, "Chromium (Debian chromium, Makefile TEST_PACKAGES) runs the search script"))
    func searchRunsInABrowser() throws {
        let root = try Harness.copySampleVault()
        #expect(try Harness.run(["init"], in: root).code == 0)
        #expect(try Harness.run(["export", "--html", "../site"], in: root).code == 0)
        let site = root.deletingLastPathComponent().appendingPathComponent("site")
        let woody = try Self.dom(site.appendingPathComponent("search.html"), query: "woody")
        #expect(woody.contains("<p class=\"summary\" id=\"search-page-status\">6 notes match “woody”.</p>"), "\(woody.suffix(3_000))")
        #expect(woody.contains("<ol class=\"results\" id=\"search-page-results\"><li><a href=\"notes/Dialogue/woody-and-bonnie-at-the-bus-stop.html\">Woody and Bonnie at the bus stop</a>"))
        let cafe = try Self.dom(site.appendingPathComponent("search.html"), query: "cafe gusteau")
        #expect(cafe.contains("<a href=\"notes/Drafts/opening-night-at-cafe-gusteau.html\">Opening night at Café Gusteau</a>"), "accents are ignored")
        let none = try Self.dom(site.appendingPathComponent("search.html"), query: "<img src=x onerror=alert(1)>")
        #expect(none.contains("No note matches “&lt;img src=x onerror=alert(1)&gt;”."), "the query is shown as text")
    }

    @Test func showRenderFormatsTheBodyToTheWidth() throws {
        let root = try Harness.copySampleVault()
        #expect(try Harness.run(["init"], in: root).code == 0)
        let vault = TestVault(existing: root)
        let run = try vault.run(["show", "Toy Story 5 one-pager", "--render"], environment: ["COLUMNS": "50"])
        #expect(run.code == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "Toy Story 5 one-pager")
        #expect(lines.contains("## Characters"))
        #expect(lines.contains("• Woody — a mentor now, which he is bad at"))
        #expect(lines.contains("1. The box. Bonnie's room becomes a teenager's"))
        #expect(!run.stdout.contains("\u{1B}"))
        #expect(!run.stdout.contains("---\n"), "front matter is not shown as Markdown")
        let body = lines.drop { !$0.hasPrefix("# Toy Story 5") }
        for line in body { #expect(line.unicodeScalars.count <= 50 || line.contains("…"), "\(line)") }
        #expect(lines.contains("2. The road. Woody and Bo's carnival crew cross"))
        #expect(run.stdout.contains("(See The attic sale.)"), "wikilinks show their text")
        #expect(try vault.run(["show", "Toy Story 5 one-pager", "--render", "--json"]).code == 2)
        let tokyo = try vault.run(["show", "Journal/2026-05-21-tokyo-screening.md", "--render"], environment: ["COLUMNS": "30"])
        #expect(tokyo.code == 0)
        for line in tokyo.stdout.split(separator: "\n").dropFirst(4) {
            #expect(line.unicodeScalars.reduce(0) { $0 + ($1.value >= 0x3000 && $1.value <= 0x9FFF ? 2 : 1) } <= 30, "\(line)")
        }
    }
}
