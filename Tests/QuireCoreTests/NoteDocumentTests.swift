import Foundation
import Testing
@testable import QuireCore

@Suite struct NoteDocumentTests {
    @Test func untouchedRoundTripOverFixtures() throws {
        let files = TestSupport.markdownFiles(under: TestSupport.fixtures)
        #expect(files.count >= 15)
        for file in files {
            let data = try Data(contentsOf: file)
            #expect(NoteDocument(data: data).serialized() == data, "\(file.lastPathComponent)")
        }
    }

    @Test(.enabled(if: TestSupport.hasCorpora, TestSupport.corporaMissing))
    func untouchedRoundTripOverCorpora() throws {
        let files = TestSupport.markdownFiles(under: TestSupport.corpora)
        #expect(files.count > 1_900)
        var unreadable: [String] = []
        for file in files {
            let data = try Data(contentsOf: file)
            let document = NoteDocument(data: data)
            #expect(document.serialized() == data, "\(file.path)")
            if !document.problems.isEmpty { unreadable.append(file.lastPathComponent) }
        }
        #expect(unreadable.isEmpty, "\(unreadable)")
    }

    @Test func setScalarKeepsEverythingElse() throws {
        var document = NoteDocument(data: try TestSupport.fixture("comments.md"))
        try document.set("title", .string("New: title"))
        try document.set("draft", .bool(false))
        try document.set("weight", .int(40))
        #expect(TestSupport.text(document) == """
        ---
        # leading comment
        title: "New: title"   # trailing comment

        # between keys
        draft: false
        weight: 40 # hugo weight
        ---

        Body.

        """)
    }

    @Test func quotingStyleOfTheKeyIsKept() throws {
        var document = TestSupport.document("---\na: 'single'\nb: \"double\"\nc: plain\n---\n")
        try document.set("a", .string("it's"))
        try document.set("b", .string("x"))
        try document.set("c", .string("maybe"))
        #expect(TestSupport.text(document) == "---\na: 'it''s'\nb: \"x\"\nc: maybe\n---\n")
        // A word a YAML 1.1 reader takes for a boolean is quoted, plain as the key was.
        try document.set("c", .string("yes"))
        #expect(TestSupport.text(document) == "---\na: 'it''s'\nb: \"x\"\nc: \"yes\"\n---\n")
        #expect(document.value(forKey: "c") == .string("yes"))
        try document.set("c", .string("true"))
        #expect(TestSupport.text(document) == "---\na: 'it''s'\nb: \"x\"\nc: \"true\"\n---\n")
        #expect(document.value(forKey: "c") == .string("true"))
    }

    @Test func newKeyIsAppendedAtTheEnd() throws {
        var document = NoteDocument(data: try TestSupport.fixture("crlf.md"))
        try document.set("project", .string("Toy Story 5"))
        #expect(TestSupport.text(document) ==
            "---\r\ntitle: Windows note\r\ntags: [a, b]\r\ncreated: 2024-03-01\r\nproject: Toy Story 5\r\n---\r\nBody line one.\r\nBody line two.\r\n")
    }

    @Test func noFrontMatterGetsOne() throws {
        var document = TestSupport.document("# Plain\n\nText.\n")
        try document.set("title", .string("Plain"))
        #expect(TestSupport.text(document) == "---\ntitle: Plain\n---\n# Plain\n\nText.\n")
        var crlf = TestSupport.document("\u{FEFF}Line\r\n")
        try crlf.set("tags", .list([.string("a")]))
        #expect(TestSupport.text(crlf) == "\u{FEFF}---\r\ntags: [a]\r\n---\r\nLine\r\n")
        var empty = TestSupport.document("")
        try empty.set("id", .string("x"))
        #expect(TestSupport.text(empty) == "---\nid: x\n---\n")
        var emptyFrontMatter = TestSupport.document("---\n---\nBody\n")
        try emptyFrontMatter.set("a", .int(1))
        #expect(TestSupport.text(emptyFrontMatter) == "---\na: 1\n---\nBody\n")
    }

    @Test func blockValuesAreReplacedWholeLines() throws {
        var document = NoteDocument(data: try TestSupport.fixture("lists.md"))
        try document.set("block", .list([.string("z")]))
        try document.set("indentless", .string("scalar now"))
        try document.set("multiline_flow", .list([.string("c")]))
        try document.set("flow", .list([.string("x, y"), .int(2)]))
        #expect(TestSupport.text(document) == """
        ---
        title: Lists
        flow: ["x, y", 2]
        block:
          - z
        indentless: scalar now
        multiline_flow: [c]
        ---
        Text

        """)
    }

    @Test func blockScalarsAndNestedMaps() throws {
        var document = NoteDocument(data: try TestSupport.fixture("strings.md"))
        try document.set("literal", .string("one line"))
        try document.set("folded", .int(3))
        try document.set("empty", .string("filled"))
        var nested = NoteDocument(data: try TestSupport.fixture("nested.md"))
        try nested.set("params", .map([FrontMatterEntry(key: "author", value: .string("Bo"))]))
        #expect(TestSupport.text(nested) == "---\ntitle: Nested\nparams:\n  author: Bo\nafter: value\n---\nBody\n")
        #expect(TestSupport.text(document) == """
        ---
        title: 'It''s quoted'
        double: "line\\nbreak"
        literal: one line
        folded: 3
        plain_multi: this plain
          continues here
        yes_is_string: yes
        null_tilde: ~
        empty: filled
        hex: 0x1F
        octal: 0o17
        float: 1.5e3
        ---
        Body

        """)
    }

    @Test func removeTakesOnlyThatKeysLines() throws {
        var document = NoteDocument(data: try TestSupport.fixture("lists.md"))
        try document.remove("block")
        try document.remove("title")
        try document.remove("missing")
        #expect(TestSupport.text(document) == """
        ---
        flow: [one, two, 'three, four']
        indentless:
        - p
        - q
        multiline_flow: [
          'a',
          'b',
        ]
        ---
        Text

        """)
        var comments = NoteDocument(data: try TestSupport.fixture("comments.md"))
        try comments.remove("draft")
        #expect(TestSupport.text(comments) == "---\n# leading comment\ntitle: Comments   # trailing comment\n\n# between keys\nweight: 30 # hugo weight\n---\n\nBody.\n")
    }

    @Test func positionsMapCharactersToBytes() throws {
        var document = NoteDocument(data: try TestSupport.fixture("bom-crlf-unicode.md"))
        try document.set("summary", .string("ok"))
        try document.set("mood", .int(5))
        try document.set("title", .string("Größe"))
        let expected = "\u{FEFF}---\r\ntitle: \"Größe\"\r\nmood: 5 # very good\r\nsummary: 'ok'\r\n---\r\n日本語のテキスト and words\r\n"
        #expect(TestSupport.text(document) == expected)
        try document.remove("mood")
        #expect(TestSupport.text(document) == "\u{FEFF}---\r\ntitle: \"Größe\"\r\nsummary: 'ok'\r\n---\r\n日本語のテキスト and words\r\n")
    }

    @Test func bodyReplacementKeepsFrontMatter() throws {
        var document = NoteDocument(data: try TestSupport.fixture("bom.md"))
        #expect(document.body == "Déjà vu.\n")
        document.body = "New body\n"
        #expect(TestSupport.text(document) == "\u{FEFF}---\ntitle: Café crème\ntags:\n  - boisson\n  - café\n---\nNew body\n")
        var plain = TestSupport.document("\u{FEFF}old")
        plain.body = "new"
        #expect(TestSupport.text(plain) == "\u{FEFF}new")
    }

    @Test func unreadableFrontMatterIsNeverRewritten() throws {
        var invalid = TestSupport.document("---\ntitle: [unclosed\n---\nBody\n")
        #expect(invalid.format == .yaml)
        #expect(invalid.problems.first?.kind == .invalidYAML)
        #expect(throws: CoreError.unreadableFrontMatter(line: 3, reason: "invalid yaml: did not find expected ',' or ']' while parsing a flow sequence")) {
            try invalid.set("title", .string("x"))
        }
        #expect(TestSupport.text(invalid) == "---\ntitle: [unclosed\n---\nBody\n")
        var toml = NoteDocument(data: try TestSupport.fixture("toml.md"))
        #expect(throws: CoreError.readOnlyFrontMatter(format: .toml)) { try toml.set("title", .string("x")) }
        var scalar = TestSupport.document("---\njust a string\n---\n")
        #expect(scalar.problems.first?.kind == .notAMapping)
        #expect(throws: CoreError.self) { try scalar.remove("x") }
        var flow = TestSupport.document("---\n{a: 1, b: 2}\n---\n")
        #expect(throws: CoreError.self) { try flow.set("a", .int(3)) }
        var document = TestSupport.document("---\na: 1\n---\n")
        #expect(throws: CoreError.invalidKey(key: "")) { try document.set("", .int(1)) }
    }

    @Test func renderedValuesReadBack() throws {
        let values: [FrontMatterValue] = [
            .string(""), .string("- dash"), .string("a: b"), .string("#hash"), .string("null"), .string("0x10"),
            .string("2024-01-01"), .string("multi\nline"), .string("tab\there"), .string(" padded "),
            .string("日本語"), .string("quote\"s"), .string("[x]"), .string("ends:"), .string("@at"),
            .int(-5), .float(2.5), .float(3), .bool(true), .null,
            .list([.string("a,b"), .string("c"), .int(1)]), .list([]),
            .map([FrontMatterEntry(key: "k", value: .list([.string("v")]))]),
        ]
        for value in values {
            var document = TestSupport.document("---\nother: 1\n---\n")
            try document.set("key", value)
            #expect(document.value(forKey: "key") == value, "\(value)")
            #expect(document.value(forKey: "other") == .int(1))
        }
    }

    @Test func keysMatchCaseInsensitivelyWhenNotExact() throws {
        var document = TestSupport.document("---\nTitle: Old\ntitle2: x\n---\n")
        try document.set("title", .string("New"))
        #expect(TestSupport.text(document) == "---\nTitle: New\ntitle2: x\n---\n")
        #expect(document.note(path: "a.md").title == "New")
        try document.remove("TITLE")
        #expect(TestSupport.text(document) == "---\ntitle2: x\n---\n")
    }

    @Test func exposesKeysAndLines() throws {
        let document = NoteDocument(data: try TestSupport.fixture("lists.md"))
        #expect(document.keys == ["title", "flow", "block", "indentless", "multiline_flow"])
        #expect(document.lines(forKey: "block") == "block:\n  - x\n  - y\n")
        #expect(document.lines(forKey: "multiline_flow") == "multiline_flow: [\n  'a',\n  'b',\n]\n")
        #expect(document.lines(forKey: "missing") == nil)
        #expect(document.frontMatterText.hasPrefix("title: Lists\nflow:"))
        #expect(TestSupport.document("no front matter").frontMatterText == "")
    }

    @Test func duplicateKeysStayEditable() throws {
        var document = TestSupport.document("---\na: 1\nb: 2\na: 3\n---\n")
        try document.set("b", .int(5))
        try document.set("a", .int(9))
        #expect(TestSupport.text(document) == "---\na: 9\nb: 5\na: 3\n---\n")
        try document.remove("a")
        #expect(TestSupport.text(document) == "---\nb: 5\n---\n")
    }
}
