import Foundation
import Testing
@testable import QuireCore

@Suite struct NoteParserTests {
    @Test func readsCanonicalKeys() {
        let note = TestSupport.parse("""
        ---
        id: 0a1b2c3d-0000-4000-8000-000000000001
        title: Woody
        createdAt: 2026-01-02T03:04:05+02:00
        updatedAt: 2026-01-03T00:00:00Z
        tags: [toys, "#cowboy", Toys]
        project: Toy Story 5
        draft: true
        pinned: false
        color: red
        mood: 4
        priority: high
        aliases: [Sheriff]
        custom: 7
        ---
        Reach for the sky!
        """, path: "Drafts/woody.md")
        #expect(note.id == "0a1b2c3d-0000-4000-8000-000000000001")
        #expect(note.title == "Woody")
        #expect(note.hasTitle)
        #expect(note.folder == "Drafts")
        #expect(note.createdAt == TestSupport.date(2026, 1, 2, 1, 4, 5))
        #expect(note.updatedAt == TestSupport.date(2026, 1, 3))
        #expect(note.tags == ["toys", "cowboy"])
        #expect(note.project == "Toy Story 5")
        #expect(note.draft)
        #expect(!note.pinned)
        #expect(note.color == "red")
        #expect(note.mood == 4)
        #expect(note.priority == .string("high"))
        #expect(note.aliases == ["Sheriff"])
        #expect(note.value(forKey: "custom") == .int(7))
        #expect(note.words == 4)
        #expect(note.body == "Reach for the sky!")
        #expect(note.format == .yaml)
        #expect(note.problems.isEmpty)
    }

    @Test func coreSchemaScalars() throws {
        let note = NoteParser.parse(try TestSupport.fixture("strings.md"), path: "strings.md",
                                    timeZone: TestSupport.utc)
        #expect(note.title == "It's quoted")
        #expect(note.value(forKey: "double") == .string("line\nbreak"))
        #expect(note.value(forKey: "literal") == .string("first line\nsecond line\n"))
        #expect(note.value(forKey: "folded") == .string("folded text"))
        #expect(note.value(forKey: "plain_multi") == .string("this plain continues here"))
        #expect(note.value(forKey: "yes_is_string") == .string("yes"))
        #expect(note.value(forKey: "null_tilde") == .null)
        #expect(note.value(forKey: "empty") == .null)
        #expect(note.value(forKey: "hex") == .int(31))
        #expect(note.value(forKey: "octal") == .int(15))
        #expect(note.value(forKey: "float") == .float(1500))
        #expect(note.problems.isEmpty)
    }

    @Test func moreScalars() {
        let note = TestSupport.parse("---\na: True\nb: FALSE\nc: null\nd: -12\ne: .inf\nf: 1.\ng: '12'\nh: 1_000\ni: +3\n---\n")
        #expect(note.value(forKey: "a") == .bool(true))
        #expect(note.value(forKey: "b") == .bool(false))
        #expect(note.value(forKey: "c") == .null)
        #expect(note.value(forKey: "d") == .int(-12))
        #expect(note.value(forKey: "e") == .float(.infinity))
        #expect(note.value(forKey: "f") == .float(1))
        #expect(note.value(forKey: "g") == .string("12"))
        #expect(note.value(forKey: "h") == .string("1_000"))
        #expect(note.value(forKey: "i") == .int(3))
    }

    @Test func titleCoercesAndFallsBack() {
        #expect(TestSupport.parse("---\ntitle: 2024\n---\n").title == "2024")
        #expect(TestSupport.parse("---\ntitle: 1.10\n---\n").title == "1.10")
        #expect(TestSupport.parse("---\ntitle: true\n---\n").title == "true")
        let untitled = TestSupport.parse("---\ntags: []\n---\n", path: "a/My Note.md")
        #expect(untitled.title == "My Note")
        #expect(!untitled.hasTitle)
        #expect(TestSupport.parse("body", path: "dendron.hier.md").title == "dendron.hier")
    }

    @Test func dateCompatibility() {
        let tz = TestSupport.berlin
        let obsidian = TestSupport.parse("---\ncreated: 2024-01-15 09:30\nmodified: 2024-02-01 18:45:10 +0200\n---\n",
                                         timeZone: tz)
        #expect(obsidian.createdAt == TestSupport.date(2024, 1, 15, 8, 30))
        #expect(obsidian.updatedAt == TestSupport.date(2024, 2, 1, 16, 45, 10))
        let dendron = TestSupport.parse("---\nupdated: 1636510026672\ncreated: 1616983302\n---\n")
        #expect(dendron.updatedAt == Date(timeIntervalSince1970: 1636510026.672))
        #expect(dendron.createdAt == Date(timeIntervalSince1970: 1616983302))
        let hugo = TestSupport.parse("---\ndate: 2023-05-06\nlastmod: '2023-06-07T08:09:10Z'\n---\n", timeZone: tz)
        #expect(hugo.createdAt == TestSupport.date(2023, 5, 5, 22))
        #expect(hugo.updatedAt == TestSupport.date(2023, 6, 7, 8, 9, 10))
        let mtime = TestSupport.parse("---\nmtime: 2023-01-01T00:00:00.5+01:00\n---\n")
        #expect(mtime.updatedAt == Date(timeIntervalSince1970: 1672527600.5))
        let canonicalWins = TestSupport.parse("---\nupdated: 2020-01-01\nupdatedAt: 2021-01-01T00:00:00Z\ncreated: 2019-01-01\ncreatedAt: 2018-01-01T00:00:00Z\n---\n")
        #expect(canonicalWins.updatedAt == TestSupport.date(2021, 1, 1))
        #expect(canonicalWins.createdAt == TestSupport.date(2018, 1, 1))
        let bad = TestSupport.parse("---\ncreated: someday\n---\n")
        #expect(bad.createdAt == nil)
        #expect(bad.problems == [NoteProblem(kind: .badValue, line: 2, message: "'created' is not a date")])
    }

    @Test func tagCompatibility() {
        #expect(TestSupport.parse("---\ntags: a, b,c\n---\n").tags == ["a", "b", "c"])
        #expect(TestSupport.parse("---\ntags: '#a #b  c'\n---\n").tags == ["a", "b", "c"])
        #expect(TestSupport.parse("---\ntags:\n  - '#x'\n  - 2024\n---\n").tags == ["x", "2024"])
        #expect(TestSupport.parse("---\nkeywords: [k]\ncategories: [c, K]\n---\n").tags == ["k", "c"])
        #expect(TestSupport.parse("---\ncategories: [c]\ntags: [t]\n---\n").tags == ["t"])
        #expect(TestSupport.parse("---\ntags:\n---\n").tags == [])
        #expect(TestSupport.parse("---\ntags: solo\n---\n").tags == ["solo"])
    }

    @Test func fencesAndFormats() throws {
        let crlf = NoteParser.parse(try TestSupport.fixture("crlf.md"), path: "crlf.md")
        #expect(crlf.title == "Windows note")
        #expect(crlf.tags == ["a", "b"])
        #expect(crlf.body == "Body line one.\r\nBody line two.\r\n")
        let bom = NoteParser.parse(try TestSupport.fixture("bom.md"), path: "bom.md")
        #expect(bom.title == "Café crème")
        #expect(bom.tags == ["boisson", "café"])
        let unclosed = NoteParser.parse(try TestSupport.fixture("unclosed.md"), path: "unclosed.md")
        #expect(unclosed.format == .none)
        #expect(unclosed.body == "---\ntitle: never closed\n\nbody continues\n")
        #expect(unclosed.title == "unclosed")
        let dots = NoteParser.parse(try TestSupport.fixture("dots-closing.md"), path: "d.md")
        #expect(dots.title == "Dots")
        #expect(dots.body == "Body after dots\n")
        let dashes = NoteParser.parse(try TestSupport.fixture("dashes-in-body.md"), path: "d.md")
        #expect(dashes.body == "Intro\n\n---\n\nAfter a rule\n---\n")
        let empty = NoteParser.parse(try TestSupport.fixture("empty-front-matter.md"), path: "e.md")
        #expect(empty.format == .yaml)
        #expect(empty.frontMatter.isEmpty)
        #expect(empty.problems.isEmpty)
        let comment = NoteParser.parse(try TestSupport.fixture("hugo-comment-only.md"), path: "c.md")
        #expect(comment.problems.isEmpty)
        #expect(comment.body == "Body\n")
        let eof = TestSupport.parse("---\ntitle: x\n---")
        #expect(eof.title == "x")
        #expect(eof.body == "")
    }

    @Test func tomlFrontMatter() throws {
        let note = NoteParser.parse(try TestSupport.fixture("toml.md"), path: "toml.md")
        #expect(note.format == .toml)
        #expect(note.title == "TOML note")
        #expect(note.tags == ["x", "y"])
        #expect(note.draft)
        #expect(note.createdAt == TestSupport.date(2024, 1, 2, 3, 4, 5))
        #expect(note.value(forKey: "key") == nil)
        #expect(note.body == "Body\n")
    }

    @Test func wordCount() {
        #expect(WordCounter.count("Hello, world! It's 2024.") == 5)
        #expect(WordCounter.count("日本語のテキスト") == 8)
        #expect(WordCounter.count("café naïve e\u{301}t\u{301}e") == 3)
        #expect(WordCounter.count("mixed日本text") == 4)
        #expect(WordCounter.count("   \n\t ") == 0)
        #expect(WordCounter.count("한국어 문장") == 2)
    }

    @Test func numbersByTheCoreSchema() {
        let cases: [(String, FrontMatterValue?)] = [
            ("12", .int(12)), ("-12", .int(-12)), ("+3", .int(3)), ("0x1F", .int(31)), ("0o17", .int(15)), ("0x", nil),
            ("0xG", nil), ("1.5", .float(1.5)), ("1.", .float(1)), (".5", .float(0.5)), ("1e3", .float(1000)),
            ("1e", nil), ("-.inf", .float(-.infinity)), ("+.Inf", .float(.infinity)), (".INF", .float(.infinity)),
            (".inf ", nil), ("-.nan", nil), ("2024-01-02", nil), ("", nil), (".", nil), ("-", nil), ("1_000", nil),
        ]
        for (text, expected) in cases {
            #expect(ScalarResolver.number(text) == expected, "\(text.debugDescription)")
        }
        for text in [".nan", ".NaN", ".NAN"] {
            guard case .float(let value)? = ScalarResolver.number(text) else {
                Issue.record("\(text) is not a float")
                continue
            }
            #expect(value.isNaN)
        }
    }

    @Test func keysMatchIgnoringOnlyTheCaseOfASCIILetters() {
        let equal: [(String, String)] = [("title", "TITLE"), ("createdAt", "CREATEDat"), ("", ""), ("a-1_b", "A-1_B"),
                                         ("éa", "éA"), ("日本", "日本")]
        let different: [(String, String)] = [("@", "`"), ("[", "{"), ("^", "~"), ("title", "titles"), ("tags", "tagz"),
                                              ("é", "É"), ("1", "!"), ("tiTle\u{0}", "title ")]
        for (left, right) in equal {
            #expect(NoteFields.equalIgnoringASCIICase(left, right), "\(left) \(right)")
        }
        for (left, right) in different {
            #expect(!NoteFields.equalIgnoringASCIICase(left, right), "\(left) \(right)")
        }
        #expect(TestSupport.parse("---\nTiTlE: Mixed\nTAGS: [a]\n---\nbody\n").title == "Mixed")
    }

    @Test func folderIsThePathBeforeItsLastSlash() {
        let cases: [(String, String)] = [
            ("a/b/c.md", "a/b"), ("c.md", ""), ("/x.md", ""), ("a/", "a"), ("a//b", "a/"), ("", ""),
            ("Projects/Toy Story/x.md", "Projects/Toy Story"), ("é/b/c.md", "é/b"), ("日本/メモ.md", "日本"),
            ("a/\u{301}b/c", "a/\u{301}b"), ("a/b/\u{301}c", "a"),
        ]
        for (path, folder) in cases {
            #expect(NoteParser.folder(of: path) == folder, "\(path.debugDescription)")
        }
    }

    @Test func stemIsTheFileNameWithoutItsExtension() {
        let cases: [(String, String)] = [
            ("a/b/Note.md", "Note"), ("Note.MD", "Note"), ("x.Md", "x"), ("dir/readme.txt", "readme.txt"),
            ("a/b.md/", "b"), ("///", "///"), ("", ""), (".md", ""), ("a/.md", ""), ("notes/a.mdx", "a.mdx"),
            ("Café/Crème brûlée.md", "Crème brûlée"), ("日本/東京.MD", "東京"), ("a/b\u{301}.md", "b\u{301}"),
        ]
        for (path, stem) in cases {
            #expect(NoteParser.stem(of: path) == stem, "\(path)")
        }
    }
}
