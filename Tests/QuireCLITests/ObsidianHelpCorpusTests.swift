import Foundation
import Testing

/// `Tests/Corpora/obsidian-help/en`, a vault of our own modelled on Obsidian's help vault:
/// headings with `:` `?` `&` and backticks linked as Obsidian writes them, block ids right after
/// embeds, callouts, `%%` comments holding links and tags, an HTML table holding `#fff`, embeds
/// of notes, sections and blocks. quire reads it as Obsidian does: no finding at all.
@Suite("Obsidian's help vault, as a corpus")
struct ObsidianHelpCorpusTests {
    static let corpus = Harness.packageRoot.appendingPathComponent("Tests/Corpora/obsidian-help/en")

    static func vault() throws -> TestVault {
        let root = try Harness.temporaryDirectory("quire-obsidian-help").appendingPathComponent("vault")
        try FileManager.default.copyItem(at: corpus, to: root)
        #expect(try Harness.run(["init"], in: root).code == 0)
        return TestVault(existing: root)
    }

    @Test func noFalseHeadingBlockOrLinkFinding() throws {
        let vault = try Self.vault()
        let check = try vault.run(["check"])
        #expect(check.stdout == "no problems in 9 notes\n", "\(check.stdout)")
        #expect(check.code == 0)
        #expect(try vault.run(["check", "--json"]).stdout == "[]\n")
        // Tags in comments, code and an HTML table are none.
        #expect(try vault.run(["tags"]).stdout == "")
        #expect(try vault.read(".quire/config.yml").contains("fileNames: title\n"))
        // A commented-out link is no backlink.
        let links = try vault.run(["links", "Internal links"]).stdout
        #expect(!links.contains("Removed page") && !links.contains("Missing image"), "\(links)")
    }

    @Test(.enabled(if: SiteExportTests.hasPython, "python3 runs the site checker (Makefile TEST_PACKAGES)"))
    func itsSiteIsWellFormedWithEveryHeadingFragmentFound() throws {
        let vault = try Self.vault()
        let run = try vault.run(["export", "--html", "../site"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stderr == "", "no link leads nowhere")
        let site = vault.root.deletingLastPathComponent().appendingPathComponent("site")
        let checked = try SiteExportTests.check(site, strictFragments: true)
        #expect(checked.code == 0, "\(checked.summary)")
        let callouts = try Harness.read(site.appendingPathComponent("notes/Editing and formatting/Callouts.html"))
        #expect(!callouts.contains("[!") && callouts.contains("data-callout=\"faq\" data-callout-fold=\"-\""))
        #expect(!callouts.contains("Not linked in HTML</a>"))
        let embeds = try Harness.read(site.appendingPathComponent("notes/Linking notes and files/Embed files.html"))
        #expect(embeds.contains("width=\"300\" height=\"200\""))
        #expect(embeds.contains("data-embed=\"![[Create a vault#^name-step]]\"><ol start=\"2\">\n<li>Type a name.</li>"),
                "the block is transcluded")
        #expect(!embeds.contains("^name-step<") && !embeds.contains("^diagram<") && !embeds.contains("^sized-diagram"),
                "block ids are not shown")
    }
}
