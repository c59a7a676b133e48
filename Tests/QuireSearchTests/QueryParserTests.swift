import Foundation
import QuireCore
import Testing
@testable import QuireSearch

@Suite struct QueryParserTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)  // 2026-09-21T14:13:20Z
    static let utc = TimeZone(secondsFromGMT: 0) ?? .current

    func parse(_ text: String) throws -> QueryNode {
        try NoteQuery.parse(text, now: Self.now, timeZone: Self.utc).root
    }

    func error(_ text: String) -> QueryError? {
        do {
            _ = try NoteQuery.parse(text, now: Self.now, timeZone: Self.utc)
            return nil
        } catch {
            return error
        }
    }

    func term(_ tokens: String..., prefix: Bool = false, scope: TextTerm.Scope = .all) -> QueryNode {
        .term(TextTerm(tokens: tokens, isPrefix: prefix, scope: scope))
    }

    @Test func precedenceIsNotThenAndThenOr() throws {
        #expect(try parse("a b OR c") == .or([.and([term("a"), term("b")]), term("c")]))
        #expect(try parse("a (b OR c)") == .and([term("a"), .or([term("b"), term("c")])]))
        #expect(try parse("-a b") == .and([.not(term("a")), term("b")]))
        #expect(try parse("NOT a OR b") == .or([.not(term("a")), term("b")]))
        #expect(try parse("a AND b") == .and([term("a"), term("b")]))
        #expect(try parse("a or b") == .and([term("a"), term("or"), term("b")]))
        #expect(try parse("") == .all)
        #expect(try parse("woody & -") == term("woody"))
    }

    @Test func wordsPhrasesPrefixesAndCJK() throws {
        #expect(try parse("\"Toy Story\"") == term("toy", "story"))
        #expect(try parse("caf*") == term("caf", prefix: true))
        #expect(try parse("東京") == term("東", "京"))
        #expect(try parse("e-mail") == term("e", "mail"))
        #expect(try parse("title:Café*") == term("cafe", prefix: true, scope: .title))
        #expect(try parse("title:\"big news\"") == term("big", "news", scope: .title))
    }

    @Test func fieldFilters() throws {
        #expect(try parse("tag:Work/Meetings") == .filter(.tag("work/meetings")))
        #expect(try parse("#Ideas") == .filter(.tag("ideas")))
        #expect(try parse("project:\"Toy Story 5\"") == .filter(.project("toy story 5")))
        #expect(try parse("folder:Drafts/") == .filter(.folder("drafts")))
        #expect(try parse("draft:true pinned:no") == .and([.filter(.draft(true)), .filter(.pinned(false))]))
        #expect(try parse("mood:>=4") == .filter(.mood(.greaterOrEqual, 4)))
        #expect(try parse("mood:3") == .filter(.mood(.equal, 3)))
        #expect(try parse("priority:<2") == .filter(.value(key: "priority", .less, "2")))
        #expect(try parse("Status:Done") == .filter(.value(key: "status", .equal, "done")))
        #expect(try parse("path:Drafts/*.md") == .filter(.path("drafts/*.md")))
        #expect(try parse("-tag:x") == .not(.filter(.tag("x"))))
        #expect(try parse("https://example.com") == term("https", "example", "com"))
    }

    @Test func dates() throws {
        let day = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
        #expect(try parse("created:>=2026-01-01") == .filter(.created(.greaterOrEqual, DateBound(start: day, end: day + 86_400))))
        let week = Self.now - 7 * 86_400
        #expect(try parse("updated:>7d") == .filter(.updated(.greater, DateBound(start: week, end: week))))
        // Any other key takes a date or an age too; a deadline's age looks ahead.
        let ahead = Self.now + 7 * 86_400
        #expect(try parse("due:<7d") == .filter(.dated(key: "due", .less, DateBound(start: ahead, end: ahead), "7d")))
        #expect(try parse("reviewed:>7d") == .filter(.dated(key: "reviewed", .greater, DateBound(start: week, end: week), "7d")))
        #expect(try parse("due:2026-01-01") == .filter(.dated(key: "due", .equal, DateBound(start: day, end: day + 86_400), "2026-01-01")))
        let hour = Self.now - 3 * 3_600
        #expect(try parse("updated:3h") == .filter(.updated(.equal, DateBound(start: hour, end: hour))))
        let minute = Date(timeIntervalSince1970: 1_767_261_600)  // 2026-01-01T10:00Z
        #expect(try parse("created:2026-01-01T12:00+02:00") == .filter(.created(.equal, DateBound(start: minute, end: minute + 60))))
        let month = Date(timeIntervalSince1970: 1_769_904_000)  // 2026-02-01
        #expect(try parse("created:<2026-02") == .filter(.created(.less, DateBound(start: month, end: month + 28 * 86_400))))
    }

    @Test func localTimeHonoursTheTimeZone() throws {
        let berlin = TimeZone(identifier: "Europe/Berlin") ?? Self.utc
        let query = try NoteQuery.parse("created:2026-01-01", now: Self.now, timeZone: berlin)
        let start = Date(timeIntervalSince1970: 1_767_225_600 - 3_600)
        #expect(query.root == .filter(.created(.equal, DateBound(start: start, end: start + 86_400))))
        let month = try NoteQuery.parse("updated:>1m", now: Self.now, timeZone: berlin)
        let expected = Date(timeIntervalSince1970: 1_790_000_000 - 31 * 86_400)
        #expect(month.root == .filter(.updated(.greater, DateBound(start: expected, end: expected))))
    }

    @Test func errorsCarryKindAndOffset() {
        #expect(error("a (b OR c") == QueryError(.unbalancedParenthesis, at: 2, "'(' without a matching ')'"))
        #expect(error("a b)")?.kind == .unexpectedParenthesis)
        #expect(error("a b)")?.offset == 3)
        #expect(error("say \"hello")?.kind == .unterminatedQuote)
        #expect(error("say \"hello")?.offset == 4)
        #expect(error("x tag:")?.kind == .emptyFilterValue)
        #expect(error("x tag:")?.offset == 2)
        #expect(error("# x")?.kind == .emptyFilterValue)
        #expect(error("created:>=2026-13-01")?.kind == .badDate)
        #expect(error("created:>=2026-13-01")?.offset == 8)
        #expect(error("updated:>7x")?.kind == .badDate)
        #expect(error("created:2026-02-30")?.kind == .badDate)
        #expect(error("mood:>high")?.kind == .badNumber)
        #expect(error("draft:maybe")?.kind == .badBoolean)
        #expect(error("draft:maybe")?.offset == 6)
        #expect(error("OR a")?.kind == .missingOperand)
        #expect(error("a OR")?.offset == 2)
        #expect(error("a NOT")?.kind == .missingOperand)
        #expect(error("()")?.kind == .emptyParentheses)
        #expect(error("a (b OR c")?.description == "'(' without a matching ')' (at character 3)")
    }

    @Test func aQueryWithNothingToSearchForIsAnError() throws {
        for text in ["*", "!!!", "—", "@", "...", "& -", "\"\"", "(!!!)", "-!!!", "!!! OR ...", "**"] {
            #expect(error(text)?.kind == .nothingToSearch, "\(text)")
        }
        #expect(error("  ...")?.offset == 2)
        #expect(error("tag:x title:!!!")?.kind == .nothingToSearch)
        #expect(error("tag:x title:!!!")?.offset == 12)
        for arguments in [[""], ["   "], ["", " "]] {
            #expect(throws: QueryError.self) { try NoteQuery.parse(arguments: arguments, now: Self.now) }
        }
        #expect(try NoteQuery.parse(arguments: [], now: Self.now).root == .all)
        #expect(try parse("🔥") == term("🔥"))
        #expect(try parse("title:\"🔥🔥🔥\"") == term("🔥", "🔥", "🔥", scope: .title))
        #expect(try parse("C++ OR C#") == .or([term("c++"), term("c#")]))
        #expect(try parse("tag:🔥") == .filter(.tag("🔥")))
    }

    @Test func argumentsAreJoinedAndUnquotedFilterValuesRequoted() throws {
        let query = try NoteQuery.parse(arguments: ["project:Toy Story 5", "-draft:true", "woody"], now: Self.now)
        #expect(query.text == "project:\"Toy Story 5\" -draft:true woody")
        #expect(query.root == .and([.filter(.project("toy story 5")), .not(.filter(.draft(true))), term("woody")]))
        let whole = try NoteQuery.parse(arguments: ["buzz OR woody"], now: Self.now)
        #expect(whole.root == .or([term("buzz"), term("woody")]))
        #expect(try NoteQuery.parse(arguments: ["-#Work Stuff"], now: Self.now).root == .not(.filter(.tag("work stuff"))))
    }

    @Test func oneArgumentQueryEqualsItsWordsAsSeparateArguments() throws {
        func root(_ arguments: [String]) throws -> QueryNode {
            try NoteQuery.parse(arguments: arguments, now: Self.now, timeZone: Self.utc).root
        }
        let tagThenDraft = QueryNode.and([.filter(.tag("idea")), .filter(.draft(false))])
        #expect(try root(["tag:idea draft:false"]) == tagThenDraft)
        #expect(try root(["tag:idea", "draft:false"]) == tagThenDraft)
        #expect(try root(["draft:false tag:idea"]) == .and([.filter(.draft(false)), .filter(.tag("idea"))]))
        #expect(try root(["mood:>=3 woody"]) == .and([.filter(.mood(.greaterOrEqual, 3)), term("woody")]))
        #expect(try root(["project:pixar -draft:true"]) == .and([.filter(.project("pixar")), .not(.filter(.draft(true)))]))
        #expect(try root(["title:road OR map"]) == .or([term("road", scope: .title), term("map")]))
        #expect(try root(["title:\"road map\" woody"]) == .and([term("road", "map", scope: .title), term("woody")]))
        // The shell's leftovers of `title:"road map"`: plain words after one filter.
        #expect(try root(["title:road map"]) == term("road", "map", scope: .title))
    }
}

@Suite struct BenchmarkAndSnippetTests {
    @Test func benchmarkRunsItsMixAndReportsPercentiles() throws {
        var generator = VaultGenerator(seed: 1)
        let catalog = Catalog(notes: generator.notes(count: 200))
        let result = try QueryBenchmark.run(catalog, rounds: 2, now: Date(timeIntervalSince1970: 1_790_000_000))
        #expect(result.samples == result.queries.count * 2)
        #expect(result.p50 <= result.p99 && result.p99 <= result.max)
        #expect(result.description.hasPrefix("p50 "))
    }

    @Test func snippetCentresOnTheFirstMatchAndMarksEveryHit() throws {
        let body = (1...40).map { "w\($0)" }.joined(separator: " ") + "\n\nCafé naïve w41"
        let query = try NoteQuery.parse("cafe \"naive w41\" -w1", now: Date())
        let snippet = Snippet.make(body: body, query: query, words: 10)
        #expect(snippet.text == "… w35 w36 w37 w38 w39 w40 Café naïve w41")
        #expect(snippet.highlights.map { String(snippet.text[$0]) } == ["Café", "naïve", "w41"])
    }
}

@Suite struct SearchRobustnessTests {
    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "(", count: 5_000) + "a" + String(repeating: ")", count: 5_000)
        #expect(throws: QueryError.self) { try NoteQuery.parse(deep, now: Date()) }
        let negations = String(repeating: "-", count: 5_000) + "a"
        #expect(throws: QueryError.self) { try NoteQuery.parse(negations, now: Date()) }
        #expect((try? NoteQuery.parse(String(repeating: "(", count: 50) + "a" + String(repeating: ")", count: 50), now: Date())) != nil)
    }

    @Test func theSamePathTwiceInOneUpdateIsOneNote() {
        var catalog = Catalog(notes: [Note(path: "a.md", title: "old")])
        catalog.upsert(analyzed: [AnalyzedNote(note: Note(path: "a.md", title: "first")),
                                  AnalyzedNote(note: Note(path: "a.md", title: "second"))])
        #expect(catalog.count == 1)
        #expect(catalog.records.map(\.title) == ["second"])
    }
}
