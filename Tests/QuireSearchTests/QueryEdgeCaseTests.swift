import Foundation
import QuireCore
import Testing
@testable import QuireSearch

/// Edge cases of the query language run against a catalog: list order with words, symbols and
/// emoji, queries with nothing to search for, exact titles first.
@Suite struct QueryEdgeCaseTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    static func day(_ number: Int) -> Date { Date(timeIntervalSince1970: 1_780_000_000 + Double(number) * 86_400) }

    func query(_ text: String) throws -> NoteQuery {
        try NoteQuery.parse(text, now: Self.now, timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
    }

    @Test func listOrderWithWordsIsTheRankersAndReverses() throws {
        let catalog = Catalog(notes: [
            Note(path: "a.md", title: "Woody", updatedAt: Self.day(1), body: "woody woody woody"),
            Note(path: "b.md", title: "B", pinned: true, updatedAt: Self.day(0), body: "woody"),
            Note(path: "c.md", title: "C", updatedAt: Self.day(3), body: "woody"),
            Note(path: "d.md", title: "D", updatedAt: Self.day(2), body: "buzz"),
        ])
        var options = SearchOptions()
        options.ranksWords = false
        #expect(catalog.run(try query("woody"), options: options).map(\.path) == ["b.md", "c.md", "a.md"])
        options.reverse = true
        #expect(catalog.run(try query("woody"), options: options).map(\.path) == ["a.md", "c.md", "b.md"])
        options.limit = 2
        #expect(catalog.run(try query("woody"), options: options).map(\.path) == ["a.md", "c.md"])
        #expect(catalog.run(try query("woody")).map(\.path).first == "a.md")  // relevance by default
    }
}
