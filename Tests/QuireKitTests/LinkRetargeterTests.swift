import Foundation
import QuireCore
import Testing
@testable import QuireKit

/// How a link's new target is spelt: its form and encoding kept, the first spelling that
/// resolves to the note chosen.
@Suite struct LinkRetargeterTests {
    @Test func markdownDestinationsAreSpeltAsTheOldOnesWere() {
        #expect(LinkPathText.destination("a b/c.md", angle: false, like: "x%20y.md") == "a%20b/c.md")
        #expect(LinkPathText.destination("a b/c.md", angle: true, like: "x y.md") == "a b/c.md")
        #expect(LinkPathText.destination("a<b>.md", angle: true, like: "x.md") == "a%3Cb%3E.md")
        #expect(LinkPathText.destination("plain.md", angle: false, like: "old.md") == "plain.md")
        // Raw would break the link: encoded after all.
        #expect(LinkPathText.destination("new (1).md", angle: false, like: "old.md") == "new%20%281%29.md")
        // Non-ASCII is encoded only when the old destination encoded it.
        #expect(LinkPathText.destination("café x.md", angle: false, like: "a%20b.md") == "café%20x.md")
        #expect(LinkPathText.destination("café x.md", angle: false, like: "caf%C3%A9.md") == "caf%C3%A9%20x.md")
        #expect(LinkPathText.escapes(in: "a%20b%zz%C3") == [0x20, 0xC3])
    }

    private func retargeter(before: [String], after: [String], titles: [String: String] = [:]) -> LinkRetargeter {
        let entry = { (path: String) in
            LinkTargetTable.Entry(path: path, title: titles[path] ?? LinkPathText.withoutExtension(LinkPathText.fileName(of: path)))
        }
        var names: [ExactPath: LinkRetargeter.NoteNames] = [:]
        for path in after { names[ExactPath(path)] = LinkRetargeter.NoteNames(title: entry(path).title, aliases: []) }
        return LinkRetargeter(before: LinkResolver(index: LinkTargetTable(notes: before.map(entry))),
                              after: LinkResolver(index: LinkTargetTable(notes: after.map(entry))), names: names)
    }

    private func outcome(_ text: String, in source: String = "s.md", _ retargeter: LinkRetargeter,
                         moved: [String: String]) -> LinkRetargeter.Outcome {
        guard let link = LinkExtractor.links(in: Data(text.utf8)).first else { return .unresolved }
        return retargeter.outcome(of: link, oldSource: source, newSource: moved[source] ?? source,
                                  moved: Dictionary(uniqueKeysWithValues: moved.map { (ExactPath($0.key), $0.value) }))
    }

    @Test func aBareNameStaysBareWhileUniqueElseTheShortestUniqueTail() {
        let moved = ["a/n.md": "b/m.md"]
        let unique = retargeter(before: ["s.md", "a/n.md"], after: ["s.md", "b/m.md"])
        #expect(outcome("[[n|label]]", unique, moved: moved) == .rewrite("m"))
        let shared = retargeter(before: ["s.md", "a/n.md", "c/m.md"], after: ["s.md", "b/m.md", "c/m.md"])
        #expect(outcome("[[n]]", shared, moved: moved) == .rewrite("b/m"))
        #expect(outcome("[[a/n.md]]", shared, moved: moved) == .rewrite("b/m.md"))
        #expect(outcome("[[/a/n]]", shared, moved: moved) == .rewrite("/b/m"))
    }

    @Test func relativeMarkdownLinksFollowBothEnds() {
        let moved = ["a/n.md": "b/c/n.md", "a/s.md": "d/s.md"]
        let table = retargeter(before: ["a/s.md", "a/n.md"], after: ["d/s.md", "b/c/n.md"])
        #expect(outcome("[x](n.md)", in: "a/s.md", table, moved: moved) == .rewrite("../b/c/n.md"))
        #expect(outcome("[x](./n.md)", in: "a/s.md", table, moved: moved) == .rewrite("../b/c/n.md"))
        // A wikilink by name stays a name.
        #expect(outcome("[[n]]", in: "a/s.md", table, moved: moved) == .unchanged)
    }

    @Test func titlesAmbiguityAndUnspellableNames() {
        let titled = retargeter(before: ["s.md", "n.md"], after: ["s.md", "m.md"], titles: ["n.md": "Old title", "m.md": "New title"])
        #expect(outcome("[[Old title#H]]", titled, moved: ["n.md": "m.md"]) == .rewrite("New title"))
        let twins = retargeter(before: ["s.md", "a/n.md", "b/n.md"], after: ["s.md", "c/n.md", "b/n.md"])
        #expect(outcome("[[n]]", twins, moved: ["a/n.md": "c/n.md"]) == .ambiguous(["a/n.md", "b/n.md"]))
        let hashed = retargeter(before: ["s.md", "n.md"], after: ["s.md", "C#/n#1.md"])
        #expect(outcome("[[n]]", hashed, moved: ["n.md": "C#/n#1.md"]) == .unspellable("C#/n#1.md"))
        #expect(outcome("[x](n.md)", hashed, moved: ["n.md": "C#/n#1.md"]) == .rewrite("C%23/n%231.md"))
    }
}
