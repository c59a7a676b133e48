import Foundation
import Testing

/// Vaults shaped like Obsidian's: most notes have no front matter; the file name is the title.
@Suite("Obsidian-shaped vaults")
struct ObsidianVaultTests {
    /// Notes as an Obsidian user writes them.
    static func obsidianVault() throws -> TestVault {
        let vault = try TestVault()
        try vault.write("# Summer plans\n\nDrive along the coast.\n", to: "Trips/Road trip.md")
        try vault.write("```\n# Printed banner\n```\nNo heading here.\n", to: "Code sample.md")
        try vault.write("---\naliases: [Reading list]\n---\n# Books to read\n", to: "Books.md")
        try vault.write(noteText("title: Kept title", body: "# Heading of a titled note\n"), to: "titled.md")
        return vault
    }

    @Test func untitledNotesAreTitledByFileNameAndFoundByTheirFirstHeading() throws {
        let vault = try Self.obsidianVault()
        #expect(try vault.run(["list", "title:summer", "--paths"]).stdout == "Trips/Road trip.md\n")
        #expect(try vault.run(["list", "title:road", "--paths"]).stdout == "Trips/Road trip.md\n")
        #expect(try vault.run(["list", "title:books", "--paths"]).stdout == "Books.md\n")
        #expect(try vault.run(["list", "title:banner", "--paths"]).stdout == "")
        #expect(try vault.run(["list", "title:heading", "--paths"]).stdout == "")
        // The exact heading ranks its note first, above a body mention.
        try vault.write("We talked about summer plans today.\n", to: "Diary.md")
        #expect(try vault.run(["search", "summer plans", "--paths"]).stdout == "Trips/Road trip.md\nDiary.md\n")
        let show = try vault.run(["show", "Road trip", "--json"])
        #expect(show.code == 0)
        #expect(show.stdout.contains("\"title\": \"Road trip\""))
    }

    @Test func checkDoesNotReportNotesWithoutATitle() throws {
        let vault = try Self.obsidianVault()
        let run = try vault.run(["check"])
        #expect(run.stdout == "no problems in 4 notes\n")
        #expect(run.code == 0)
    }

    @Test func inlineAndStringTagsAreTagsAndEachShowsOnceInItsCommonSpelling() throws {
        let vault = try TestVault()
        try vault.write("Met Anna about #Project/launch and #idea.\n```\n#include <x>\n```\n", to: "Meeting.md")
        try vault.write("---\ntags: idea, reading\n---\nA `#code` span, issue #42, [x](https://a.b/#frag).\n", to: "Books.md")
        try vault.write("---\ntag: idea draft\n---\n# Heading\n", to: "Single key.md")
        try vault.write("Just #project/other here.\n", to: "Other.md")
        let tags = try vault.run(["tags"])
        #expect(tags.code == 0)
        #expect(tags.stdout == "1  #draft\n3  #idea\n1  #Project/launch\n1  #project/other\n1  #reading\n")
        #expect(try vault.run(["list", "tag:project", "--paths", "--sort", "path"]).stdout == "Meeting.md\nOther.md\n")
        #expect(try vault.run(["list", "#idea", "--paths", "--sort", "path"]).stdout == "Books.md\nMeeting.md\nSingle key.md\n")
        #expect(try vault.run(["list", "tag:include", "--paths"]).stdout == "")
        #expect(try vault.run(["list", "tag:code", "--paths"]).stdout == "")
        #expect(try vault.run(["list", "tag:42", "--paths"]).stdout == "")
        #expect(try vault.run(["list", "tag:frag", "--paths"]).stdout == "")
    }

    /// `%%` comments and raw HTML blocks hold no links, tags or headings: a commented-out embed
    /// is no backlink, a broken link in a comment no problem, `<td>#fff</td>` no tag; `show
    /// --render` leaves comments out.
    @Test func commentsAndHTMLBlocksHoldNoLinksOrTags() throws {
        let vault = try TestVault()
        try vault.write("# Target\n", to: "Target.md")
        try vault.write("See [[Target]].\n%%\n![[Target]]\n[[Gone]] #draft\n%%\nAlso %%[[Target]] #later%% done.\n"
                        + "<table>\n<tr><td>#fff</td><td>[[Nowhere]]</td></tr>\n</table>\n", to: "Source.md")
        let backlinks = try vault.run(["backlinks", "Target", "--json"])
        #expect(backlinks.stdout.components(separatedBy: "\"line\"").count - 1 == 1, "\(backlinks.stdout)")
        let check = try vault.run(["check"])
        #expect(check.stdout == "no problems in 2 notes\n", "\(check.stdout)")
        #expect(try vault.run(["tags"]).stdout == "")
        let shown = try vault.run(["show", "Source", "--render"]).stdout
        #expect(shown.contains("Also done.") && !shown.contains("Gone") && !shown.contains("later"), "\(shown)")
    }

    /// `[[Alias]]` is unresolved, as in Obsidian (whose suggester writes `[[File|Alias]]`):
    /// `check` names the note with that alias, and `check --fix` writes Obsidian's form.
    @Test func anAliasIsNoLinkTargetAndCheckFixWritesObsidiansForm() throws {
        let vault = try Self.obsidianVault()
        try vault.write("See [[Reading list]], ![[Reading list#Books to read]] and [[Reading list|my list]].\n", to: "Plan.md")
        try vault.commitAll()
        let check = try vault.run(["check"])
        #expect(check.code == 1)
        #expect(check.stdout.contains("Plan.md:1: broken link [[Reading list]]: no note or file 'Reading list', an alias of Books.md"
                                      + " (an alias is no link target, as in Obsidian); 'quire check --fix' writes [[Books|Reading list]]"),
                "\(check.stdout)")
        #expect(try vault.run(["backlinks", "Books", "--json"]).stdout == "[]\n")
        let fixed = try vault.run(["check", "--fix"])
        #expect(fixed.stdout.contains("fixed Plan.md:1: [[Reading list]] → [[Books|Reading list]]"), "\(fixed.stdout)")
        #expect(try vault.read("Plan.md")
                == "See [[Books|Reading list]], ![[Books#Books to read|Reading list]] and [[Books|my list]].\n")
        #expect(try vault.run(["check"]).code == 0)
    }

    @Test func theMostCommonSpellingNamesATag() throws {
        let vault = try TestVault()
        try vault.write("#Idea\n", to: "a.md")
        try vault.write("#idea\n", to: "b.md")
        try vault.write("---\ntags: [idea]\n---\n", to: "c.md")
        #expect(try vault.run(["tags"]).stdout == "3  #idea\n")
    }

    @Test func taggingWritesOnlyTheFrontMatterTags() throws {
        let vault = try TestVault()
        try vault.write("---\ntags: a, b\n---\nText with #inline.\n", to: "note.md")
        let run = try vault.run(["tag", "note", "c", "-inline"])
        #expect(run.code == 0)
        #expect(run.stdout == "#a #b #c #inline\n")
        #expect(run.stderr.contains("#inline is written in the note's text"))
        #expect(try vault.read("note.md").hasPrefix("---\ntags: a, b, c\nupdatedAt: "))
    }

    /// `tags` holding a mapping is not a list of tags: `tag` refuses rather than replace it with
    /// the tags it could read (none), and the note stays byte for byte.
    @Test func taggingRefusesTagsThatHoldMoreThanTags() throws {
        let vault = try TestVault()
        let text = "---\ntitle: T\ntags: {work: 1, home: 2}\n---\nbody\n"
        try vault.write(text, to: "t.md")
        let run = try vault.run(["tag", "t.md", "+x"])
        #expect(run.code == 1)
        #expect(run.stderr.hasPrefix("quire: error: cannot change 'tags': it holds a mapping, not a list or text of tags"), "\(run.stderr)")
        #expect(try vault.read("t.md") == text)
    }

    /// A pasted screenshot (a data URL) and a code block no longer read as hours of text.
    @Test func readingTimeCountsOnlyWhatAPersonReads() throws {
        let vault = try TestVault()
        let image = String(repeating: "iVBORw0KGgoAAAANSUhEUgAAB4AAAAQ4CAYAAADo08FDAAAAAXNSR0IArs4c6QAAIABJREFU+/", count: 20_000)
        let code = String(repeating: "let value = compute(alpha, beta, gamma)\n", count: 2_000)
        try vault.write("Screenshot of the bug:\n![shot](data:image/png;base64,\(image))\n"
                        + "See [the report](https://example.com/issues/42) and:\n```swift\n\(code)```\n", to: "Bug.md")
        let run = try vault.run(["stats", "Bug"])
        #expect(run.code == 0)
        #expect(run.stdout.hasPrefix("Bug: 9 words, 1 min read, "))
        #expect(try vault.run(["stats"]).stdout.hasPrefix("1 note, 9 words, 1 min read\n"))
    }
}
