import Foundation
import Testing

/// What Obsidian users write, exported as they see it: callouts, image sizes, transcluded
/// embeds (a note, a heading's section, a block; a cycle and a missing heading stay links),
/// comments left out — checked by the site checker and in headless Chromium.
@Suite("quire export --html: Obsidian's syntax")
struct SiteExportObsidianTests {
    static func vault() throws -> TestVault {
        let vault = try TestVault()
        try vault.write("""
            # Guide
            > [!tip]- Read me first
            > Folded **tip**.
            > > [!warning]
            > > Nested warning.

            > [!info]+
            > Open by default.

            ![[cat.png|300]] ![[dog.png|120x80]]

            ![[Setup]]

            ![[Reference#Part 1: Basics]]

            ![[Reference#^key-fact]]

            ![[Reference#Nowhere]]

            Before %%a secret%% after.

            """, to: "Guide.md")
        try vault.write("Setup says hello and embeds back: ![[Guide]]\n", to: "Setup.md")
        try vault.write("""
            # Reference
            ## Part 1: Basics
            Basics text.
            ### Detail
            Detail text.
            ## Part 2
            Not in the section.

            The key fact is here. ^key-fact

            """, to: "Reference.md")
        try vault.write("png", to: "cat.png")
        try vault.write("png", to: "dog.png")
        return vault
    }

    @Test(.enabled(if: SiteExportTests.hasPython, "python3 runs the site checker (Makefile TEST_PACKAGES)"))
    func calloutsSizesAndEmbedsAreWellFormed() throws {
        let vault = try Self.vault()
        #expect(try vault.run(["export", "--html", "../site"]).code == 0)
        let site = vault.root.deletingLastPathComponent().appendingPathComponent("site")
        let checked = try SiteExportTests.check(site, strictFragments: false)
        #expect(checked.code == 0, "\(checked.summary)")
        let guide = try Harness.read(site.appendingPathComponent("notes/Guide.html"))
        #expect(!guide.contains("[!tip]") && !guide.contains("[!info]") && !guide.contains("a secret"), "\(guide)")
        #expect(guide.contains("<div class=\"callout\" data-callout=\"tip\" data-callout-fold=\"-\"><details>"))
        #expect(guide.contains("<img src=\"../files/cat.png\" alt=\"cat.png\" width=\"300\" />"), "\(guide)")
        #expect(guide.contains("<img src=\"../files/dog.png\" alt=\"dog.png\" width=\"120\" height=\"80\" />"))
        #expect(guide.contains("Setup says hello"))
        #expect(guide.contains("Basics text.") && guide.contains("Detail text.") && !guide.contains("Not in the section."))
        #expect(guide.contains("The key fact is here.") && !guide.contains("here. ^key-fact"))
        // The cycle (Guide → Setup → Guide) and a missing heading are links, not transclusions.
        #expect(guide.contains("<a class=\"embed\" href=\"Guide.html\">Guide</a>"), "\(guide)")
        #expect(guide.contains("<a class=\"embed\" href=\"Reference.html#nowhere\">Reference › Nowhere</a>"), "\(guide)")
    }

    @Test(.enabled(if: SiteExportTests.chromium != nil, "Chromium (Debian chromium, Makefile TEST_PACKAGES) renders the page"))
    func calloutsSizesAndEmbedsInABrowser() throws {
        let vault = try Self.vault()
        #expect(try vault.run(["export", "--html", "../site"]).code == 0)
        let site = vault.root.deletingLastPathComponent().appendingPathComponent("site")
        let dom = try SiteExportTests.dom(site.appendingPathComponent("notes/Guide.html"), query: "")
        #expect(dom.contains("<div class=\"callout\" data-callout=\"tip\" data-callout-fold=\"-\"><details>"), "\(dom)")
        #expect(dom.contains("<details open=\"\">"))
        #expect(dom.contains("<div class=\"callout\" data-callout=\"warning\">"))
        #expect(dom.contains("width=\"120\" height=\"80\""))
        #expect(dom.contains("<div class=\"embed\" data-embed=\"![[Reference#^key-fact]]\">"))
        #expect(!dom.contains("[!tip]") && !dom.contains("a secret"))
        // The embed's block stands in no paragraph (the browser would have split one).
        #expect(!dom.contains("<p><div class=\"embed\""))
    }
}
