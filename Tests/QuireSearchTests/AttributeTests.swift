import QuireCore
import QuireTestSupport
import Testing
@testable import QuireSearch

/// A note's attribute terms: each tag key once, in first-appearance order, few tags or many.
struct AttributeTests {
    static func tagTerms(_ tags: [String]) -> [String] {
        var record = NoteRecord(path: "a.md")
        record.tags = tags
        return Attribute.terms(of: record).filter { $0.hasPrefix(Attribute.tag) }
    }

    @Test func tagsOfOneKeyCountOnce() {
        let tags = ["Work", "work", "WORK", "other", "Café", "cafe\u{301}", "CAFÉ", "日本", "日本"]
        #expect(Self.tagTerms(tags) == ["work", "other", "café", "日本"].map { Attribute.tag + $0 })
        // Past sixteen tags the same answer (hashed instead of compared).
        let many = (0..<40).map { "Tag\($0 % 25)" } + tags
        let expected = (0..<25).map { Attribute.tag + "tag\($0)" } + ["work", "other", "café", "日本"].map { Attribute.tag + $0 }
        #expect(Self.tagTerms(many) == expected)
        var record = NoteRecord(path: "x/a.md")
        record.folder = "X"
        record.tags = ["a"]
        // The last term is the file name's, for link resolution (`Attribute.stem`).
        #expect(Attribute.terms(of: record) == [Attribute.tag + "a", Attribute.folder + "x", Attribute.stem + "a"])
    }
}

/// The attribute terms made as bytes (`AttributeTerms`, what a rebuild indexes) are those of
/// `Attribute.terms`, byte for byte and in order, for random notes: ASCII and other tags,
/// folders, titles and link targets in any case, repeated, composed and not, empty and long.
struct AttributeTermsTests {
    static let pieces = ["Work", "work", "a", "B", "Café", "cafe\u{301}", "CAFÉ", "日本", "x/y", "Über", "ǅ", " ", "-",
                         "C++", ".NET", "🙂", "ß", "İ", "ﬁ", "e\u{301}\u{327}", "e\u{327}\u{301}", "#t", "note.md",
                         "Notes/Sub.MD", "", "\u{0}", "ไทย", "..", "/"]

    static func text(_ random: inout SeededGenerator, most: Int = 4) -> String {
        (0..<random.next(0...most)).map { _ in pieces[random.next(0...(pieces.count - 1))] }.joined()
    }

    static func expectSame(_ record: NoteRecord, headingTitle: String?) {
        let made = AttributeTerms(of: record, headingTitle: headingTitle).strings.map { Array($0.utf8) }
        let general = Attribute.terms(of: record, headingTitle: headingTitle).map { Array($0.utf8) }
        #expect(made == general, "\(record.tags) \(record.title) \(record.aliases) \(record.links.map(\.target))")
    }

    @Test func madeAsBytesTheyAreTheTermsOfAttribute() {
        var random = SeededGenerator(seed: 35)
        for round in 0..<1500 {
            var record = NoteRecord(path: Self.text(&random) + ".md")
            record.folder = Self.text(&random, most: 2)
            record.tags = (0..<random.next(0...(round % 3 == 0 ? 24 : 5))).map { _ in Self.text(&random, most: 2) }
            record.project = random.next(0...1) == 0 ? nil : Self.text(&random)
            record.color = random.next(0...1) == 0 ? nil : Self.text(&random, most: 1)
            record.mood = random.next(0...1) == 0 ? nil : random.next(-3...9)
            record.draft = random.next(0...1) == 0
            record.pinned = random.next(0...1) == 0
            record.title = round % 50 == 0 ? String(repeating: "word ", count: 60) : Self.text(&random, most: 6)
            record.aliases = (0..<random.next(0...3)).map { _ in Self.text(&random) }
            record.links = (0..<random.next(0...6)).map { _ in
                let target = Self.text(&random, most: 3)
                return NoteLink(style: .wiki, rawTarget: target, target: target, range: 0..<1, targetRange: 0..<1, line: 1)
            }
            Self.expectSame(record, headingTitle: random.next(0...2) == 0 ? Self.text(&random) : nil)
        }
    }
}
