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
