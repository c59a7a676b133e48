import Foundation
import Testing
@testable import QuireCore

@Suite("Link resolution: Obsidian's order, ambiguity, case")
struct LinkResolverTests {
    private let table = LinkTargetTable(notes: [
        .init(path: "Home.md", title: "Home"),
        .init(path: "a/Note.md", title: "Note"),
        .init(path: "b/Note.md", title: "Note"),
        .init(path: "a/b/Deep.md", title: "Deep thoughts", aliases: ["Abyss"]),
        .init(path: "c/Unique.md", title: "Project Plan", aliases: ["plan"]),
        .init(path: "d/Other.md", title: "Plan"),
        .init(path: "e/Case.md", title: "Case"),
        .init(path: "e/case.md", title: "case"),
        .init(path: "x/Twin.md", title: "Shared title"),
        .init(path: "y/Twin2.md", title: "Shared Title"),
        .init(path: "dendron.ref.cli.md", title: "CLI"),
    ], attachments: ["img/pic.png", "a/pic.png", "docs/paper.pdf"])

    private func resolve(_ target: String, from source: String = "Home.md") -> LinkResolution {
        LinkResolver(index: table).resolve(target: target, from: source)
    }

    @Test func pathsFirstRelativeThenVault() {
        #expect(resolve("Note", from: "a/x.md") == .note("a/Note.md"))
        #expect(resolve("Note.md", from: "b/y.md") == .note("b/Note.md"))
        #expect(resolve("../b/Note.md", from: "a/x.md") == .note("b/Note.md"))
        #expect(resolve("a/Note", from: "z/q.md") == .note("a/Note.md"))
        #expect(resolve("/b/Note", from: "a/x.md") == .note("b/Note.md"))
        #expect(resolve("b/Deep", from: "a/x.md") == .note("a/b/Deep.md"))
    }

    @Test func fileNamesThenShortestUniquePath() {
        #expect(resolve("Deep") == .note("a/b/Deep.md"))
        #expect(resolve("deep") == .note("a/b/Deep.md"))
        #expect(resolve("Note") == .ambiguous(["a/Note.md", "b/Note.md"]))
        #expect(resolve("a/note") == .note("a/Note.md"))
        #expect(resolve("b/Deep") == .note("a/b/Deep.md"))
    }

    /// Titles after names; an alias is no link target, as in Obsidian (its suggester writes
    /// `[[File|Alias]]`), but its holders are known for `check` and `check --fix`.
    @Test func titlesAfterNamesAndAliasesNamedOnly() {
        #expect(resolve("Deep thoughts") == .note("a/b/Deep.md"))
        #expect(resolve("ABYSS") == .unresolved)
        #expect(LinkResolver(index: table).aliasHolders(of: "ABYSS") == ["a/b/Deep.md"])
        #expect(LinkResolver(index: table).aliasHolders(of: "x/ABYSS").isEmpty)
        #expect(resolve("Project plan") == .note("c/Unique.md"))
        // `plan` is an alias of one note and the title of another: the title.
        #expect(resolve("Plan") == .note("d/Other.md"))
        #expect(resolve("shared title") == .ambiguous(["x/Twin.md", "y/Twin2.md"]))
        // A file name beats a title: `Unique` is a file name here.
        #expect(resolve("unique") == .note("c/Unique.md"))
        #expect(resolve("Nowhere") == .unresolved)
        #expect(resolve("a/Deep thoughts") == .unresolved)
    }

    @Test func caseVariantsPreferTheExactSpelling() {
        #expect(resolve("Case") == .note("e/Case.md"))
        #expect(resolve("case") == .note("e/case.md"))
        #expect(resolve("CASE") == .ambiguous(["e/Case.md", "e/case.md"]))
    }

    @Test func attachments() {
        #expect(resolve("pic.png", from: "a/x.md") == .attachment("a/pic.png"))
        #expect(resolve("pic.png") == .ambiguous(["a/pic.png", "img/pic.png"]))
        #expect(resolve("img/pic.png", from: "a/x.md") == .attachment("img/pic.png"))
        #expect(resolve("paper.pdf") == .attachment("docs/paper.pdf"))
        #expect(resolve("missing.png") == .unresolved)
        // An attachment name never matches a note's title.
        #expect(resolve("Home.png") == .unresolved)
        // Dots in a note's name are no extension once no file fits: Dendron's hierarchy.
        #expect(resolve("dendron.ref.cli", from: "a/x.md") == .note("dendron.ref.cli.md"))
        #expect(resolve("Dendron.Ref.CLI.md") == .note("dendron.ref.cli.md"))
    }

    @Test func selfLinksAndEscapes() {
        #expect(resolve("", from: "a/Note.md") == .note("a/Note.md"))
        #expect(resolve("../../outside") == .unresolved)
        #expect(LinkTarget.attachmentExtension(of: "v1.2 notes") == nil)
        #expect(LinkTarget.attachmentExtension(of: "Mr. Smith") == nil)
        #expect(LinkTarget.attachmentExtension(of: "a.tar.gz") == "gz")
        #expect(LinkTarget.relativePath(to: "b/c/d.md", from: "b/x") == "../c/d.md")
        #expect(LinkTarget.relativePath(to: "d.md", from: "") == "d.md")
        #expect(LinkTarget.relativePath(to: "a/d.md", from: "a") == "d.md")
    }

    @Test func anchorStatus() {
        let anchors = NoteAnchors(headings: ["Intro", "Next Steps"], blockIDs: ["b1"])
        let heading = LinkExtractor.scan(text: "[[x#next steps]] [[x#^B1]] [[x#gone]] [[x]]").links
        #expect(heading.map { LinkResolver.anchorStatus(of: $0, in: anchors) } == [.found, .found, .missing, .none])
        #expect(LinkResolver.anchorStatus(of: heading[0], in: nil) == .unchecked)
    }

    @Test func pathsAreNormalizedByPartsWhetherOrNotTheyNeedIt() {
        let cases: [(String, String?)] = [
            ("a/b.md", "a/b.md"), ("a/./b", "a/b"), ("a//b", "a/b"), ("/a", "a"), ("a/", "a"), ("./a", "a"),
            ("a/../b", "b"), ("..", nil), ("a/../..", nil), ("", nil), ("/", nil), (".", nil), ("...", "..."),
            (".hidden/x", ".hidden/x"), ("a/.b", "a/.b"), ("a/b..", "a/b.."), ("a/..b/c", "a/..b/c"), ("é/ü", "é/ü"),
        ]
        #expect(["a/b.md", ".hidden/x", "a/..b/c", "é/ü"].allSatisfy(LinkTarget.isNormal))
        for (path, expected) in cases {
            #expect(LinkTarget.normalized(path) == expected, "\(path)")
            // The bytes' check never passes a path that normalizing would change.
            #expect(!LinkTarget.isNormal(path) || expected == path, "\(path)")
        }
    }
}
