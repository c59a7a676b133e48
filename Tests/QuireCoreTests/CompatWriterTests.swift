import Foundation
import Testing
@testable import QuireCore

@Suite struct CompatWriterTests {
    let when = TestSupport.date(2026, 7, 1, 12, 30, 45)

    @Test func dendronEpochMillisecondsStayMilliseconds() throws {
        var document = NoteDocument(data: try TestSupport.fixture("dendron.md"), timeZone: TestSupport.utc)
        try document.setUpdatedAt(when)
        #expect(TestSupport.text(document) == "---\nid: c378b702-7d49-4e91-be6e-b2078103c86e\ntitle: Careers\ndesc: ''\nupdated: 1782909045000\ncreated: 1616983302480\n---\n\nHelp us.\n")
        var seconds = TestSupport.document("---\nmtime: 1700000000\n---\n")
        try seconds.setUpdatedAt(when)
        #expect(TestSupport.text(seconds) == "---\nmtime: 1782909045\n---\n")
    }

    @Test func obsidianShapesAreKept() throws {
        var document = NoteDocument(data: try TestSupport.fixture("obsidian.md"), timeZone: TestSupport.berlin)
        try document.setUpdatedAt(when)
        try document.setCreatedAt(when)
        #expect(TestSupport.text(document) == "---\ncreated: 2026-07-01 14:30\nmodified: 2026-07-01 14:30:45 +0200\ntags: \"#project, #idea\"\naliases: [Other name]\n---\n# Heading\n")
        try document.setTags(["a", "b c"])
        #expect(document.value(forKey: "tags") == .string("#a, #b c"))
    }

    @Test func otherShapes() throws {
        var document = TestSupport.document("---\ndate: 2020-01-01\nlastmod: '2020-01-01T00:00:00Z'\n---\n",
                                            timeZone: TestSupport.berlin)
        try document.setCreatedAt(when)
        try document.setUpdatedAt(when)
        #expect(TestSupport.text(document) == "---\ndate: 2026-07-01\nlastmod: '2026-07-01T12:30:45Z'\n---\n")
    }

    @Test func missingKeysGetCanonicalOnes() throws {
        var document = TestSupport.document("---\ntitle: T\n---\nbody\n", timeZone: TestSupport.berlin)
        try document.setUpdatedAt(when)
        try document.setTags(["x", "y"])
        #expect(TestSupport.text(document) == "---\ntitle: T\nupdatedAt: 2026-07-01T14:30:45+02:00\ntags: [x, y]\n---\nbody\n")
        try document.setUpdatedAt(when.addingTimeInterval(60))
        #expect(TestSupport.text(document) == "---\ntitle: T\nupdatedAt: 2026-07-01T14:31:45+02:00\ntags: [x, y]\n---\nbody\n")
    }

    /// A `tags` value that holds more than tags is refused, never replaced by the tags read from it.
    @Test func tagsThatHoldMoreThanTagsAreNotRewritten() throws {
        for text in ["---\ntags: {work: 1, home: 2}\n---\n", "---\ntags: [a, [b, c]]\n---\n", "---\ntags:\n  - a\n  - k: v\n---\n"] {
            var document = TestSupport.document(text)
            #expect(throws: CoreError.self) { try document.setTags(["a", "x"]) }
            #expect(TestSupport.text(document) == text)
        }
    }

    /// Tags as a user gives them: `#` and spaces dropped, each once whatever its case (the first
    /// spelling kept), and the first holding white space or a comma named.
    @Test func givenTags() {
        let given = NoteFields.givenTags(["#Idea", " idea ", "work", "two words", "a,b"])
        #expect(given.tags == ["Idea", "work", "two words", "a,b"])
        #expect(given.invalid == "two words")
        #expect(NoteFields.givenTags(["x", "X"]) == (tags: ["x"], invalid: nil))
    }

    @Test func tagFormsAreKept() throws {
        var spaced = TestSupport.document("---\ntags: one two\n---\n")
        try spaced.setTags(["three", "four"])
        #expect(TestSupport.text(spaced) == "---\ntags: three four\n---\n")
        var block = TestSupport.document("---\ntags:\n  - '#one'\nnext: 1\n---\n")
        try block.setTags(["two", "three"])
        #expect(TestSupport.text(block) == "---\ntags:\n  - \"#two\"\n  - \"#three\"\nnext: 1\n---\n")
        var normalized = TestSupport.document("---\ntags: [a]\n---\n")
        try normalized.setTags(["#x", " y ", "X", ""])
        #expect(TestSupport.text(normalized) == "---\ntags: [x, y]\n---\n")
        var keywords = TestSupport.document("---\nkeywords: [k]\n---\n")
        #expect(keywords.tagsKey == "keywords")
        try keywords.setTags(["z"])
        #expect(TestSupport.text(keywords) == "---\nkeywords: [z]\n---\n")
        // Both Hugo keys: `keywords` holds the tags set (`changeTags` edits each in place).
        var both = TestSupport.document("---\nkeywords: [k]\ncategories: [c]\n---\n")
        #expect(both.tagsKey == "keywords")
        try both.setTags(["z"])
        #expect(TestSupport.text(both) == "---\nkeywords: [z]\ncategories: [c]\n---\n")
    }

    @Test func newNoteTemplate() {
        let template = NoteTemplate(id: "2f1e7a1c-0000-4000-8000-00000000abcd", title: "Woody's Last Ride!",
                                    createdAt: when, tags: ["toys", "western"], project: "Toy Story 5",
                                    draft: true, body: "\nText\n")
        let document = NoteDocument.newNote(template, timeZone: TestSupport.berlin)
        #expect(TestSupport.text(document) == """
        ---
        id: 2f1e7a1c-0000-4000-8000-00000000abcd
        title: Woody's Last Ride!
        createdAt: 2026-07-01T14:30:45+02:00
        updatedAt: 2026-07-01T14:30:45+02:00
        tags: [toys, western]
        project: Toy Story 5
        draft: true
        ---

        Text

        """)
        let plain = NoteTemplate(id: "i", title: "2024", createdAt: when, mood: 3).render(timeZone: TestSupport.utc)
        #expect(plain == "---\nid: i\ntitle: \"2024\"\ncreatedAt: 2026-07-01T12:30:45+00:00\nupdatedAt: 2026-07-01T12:30:45+00:00\ntags: []\nmood: 3\n---\n")
        let note = NoteParser.parse(Data(plain.utf8), path: "x.md")
        #expect(note.title == "2024")
        #expect(note.createdAt == when)
        #expect(!note.draft)
    }

    @Test func timestampShapes() {
        let tz = TestSupport.berlin
        for text in ["2026-07-01", "2026-07-01 14:30", "2026-07-01T14:30:45", "2026-07-01T12:30:45Z",
                     "2026-07-01T14:30:45+02:00", "2026-07-01 14:30:45 +0200", "2026-07-01T14:30:45.250+02:00",
                     "2026-07-01T14:30:45+02"] {
            guard let (date, shape) = Timestamp.parse(text, timeZone: tz) else {
                Issue.record("not parsed: \(text)")
                continue
            }
            #expect(shape.format(date, timeZone: tz) == text)
        }
        for text in ["2026-13-01", "2026-02-30", "2026-07-01T25:00", "2026-07-01 14:30 +", "20260701", "2026-07-01Z"] {
            #expect(Timestamp.parse(text, timeZone: tz) == nil, "\(text)")
        }
        #expect(Timestamp.parse("2026-07-01", timeZone: tz)?.date == TestSupport.date(2026, 6, 30, 22))
    }
}

@Suite struct FrontMatterValueTests {
    @Test func parsesCommandLineValues() {
        #expect(FrontMatterValue.parse(yaml: "42") == .int(42))
        #expect(FrontMatterValue.parse(yaml: "true") == .bool(true))
        #expect(FrontMatterValue.parse(yaml: "yes") == .string("yes"))
        #expect(FrontMatterValue.parse(yaml: "[a, b]") == .list([.string("a"), .string("b")]))
        #expect(FrontMatterValue.parse(yaml: "Toy Story 5") == .string("Toy Story 5"))
        #expect(FrontMatterValue.parse(yaml: "a: b") == .string("a: b"))
        #expect(FrontMatterValue.parse(yaml: "[unclosed") == .string("[unclosed"))
        #expect(FrontMatterValue.parse(yaml: "") == .null)
        #expect(FrontMatterValue.parse(yaml: "a #b") == .string("a #b"))
        #expect(FrontMatterValue.parse(yaml: "\"42\"") == .string("42"))
        #expect(FrontMatterValue.parse(yaml: "'it''s'") == .string("it's"))
        let date = FrontMatterValue.parse(yaml: "2026-01-02T03:04:05Z")
        #expect(date == .date(TestSupport.date(2026, 1, 2, 3, 4, 5), text: "2026-01-02T03:04:05Z"))
        #expect(FrontMatterValue.list([.string("a b"), .int(1)]).yamlText == "[a b, 1]")
        #expect(FrontMatterValue.string("#x").yamlText == "\"#x\"")
    }

    @Test func encodesAsJSON() throws {
        let value = FrontMatterValue.map([
            FrontMatterEntry(key: "a", value: .list([.int(1), .float(1.5), .bool(false), .null])),
            FrontMatterEntry(key: "d", value: .date(Date(timeIntervalSince1970: 0), text: "1970-01-01")),
            FrontMatterEntry(key: "s", value: .string("x\"y")),
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(value), as: UTF8.self)
        #expect(json == #"{"a":[1,1.5,false,null],"d":"1970-01-01","s":"x\"y"}"#)
    }

    @Test func setWritesDatesInTheDocumentZone() throws {
        var document = TestSupport.document("---\n---\n", timeZone: TestSupport.berlin)
        try document.set("when", .date(TestSupport.date(2026, 1, 2, 3, 4, 5), text: ""))
        #expect(TestSupport.text(document) == "---\nwhen: 2026-01-02T04:04:05+01:00\n---\n")
    }
}
