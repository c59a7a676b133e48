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

extension QueryEdgeCaseTests {
    @Test func symbolsEmojiAndCPlusPlusAreFoundAsWritten() throws {
        let catalog = Catalog(notes: [
            Note(path: "fire.md", title: "🔥🔥🔥", body: "hot"),
            Note(path: "one.md", title: "🔥 takes", tags: ["🚀"], body: "C++ and C# ❤️"),
            Note(path: "c.md", title: "C", body: "the c language, the net, node js"),
            Note(path: "dotnet.md", title: "Dotnet", body: "I use .NET and node.js"),
        ])
        func found(_ text: String) throws -> [String] {
            catalog.run(try query(text), sort: .path).map(\.path)
        }
        #expect(try found("🔥") == ["fire.md", "one.md"])
        #expect(try found("title:\"🔥🔥🔥\"") == ["fire.md"])
        #expect(try found("❤️") == ["one.md"])
        #expect(try found("tag:🚀") == ["one.md"])
        #expect(try found("C++") == ["one.md"])
        #expect(try found("c#") == ["one.md"])
        #expect(try found("c") == ["c.md"])
        #expect(try found(".NET") == ["dotnet.md"])
        #expect(try found("net") == ["c.md", "dotnet.md"])
        #expect(try found("ne*") == ["c.md", "dotnet.md"])
        #expect(try found("\"use .net\"") == ["dotnet.md"])
        #expect(try found("node.js") == ["c.md", "dotnet.md"])
    }
}

extension QueryEdgeCaseTests {
    @Test func exactTitlesAndAliasesRankFirstThenTitlePrefixes() throws {
        let catalog = Catalog(notes: [
            Note(path: "body.md", title: "Notes", body: "road map road map road map road map"),
            Note(path: "exact.md", title: "Road Map!", body: "long text " + String(repeating: "filler ", count: 200)),
            Note(path: "alias.md", title: "Plan", aliases: ["road map"], body: "see above"),
            Note(path: "prefix.md", title: "Road map for 2027", body: String(repeating: "filler ", count: 200)),
            Note(path: "inside.md", title: "The road map", body: "road map"),
            Note(path: "roadmapping.md", title: "Road mapping", body: "road map"),
        ])
        let order = catalog.run(try query("road map")).map(\.path)
        #expect(Array(order.prefix(2)).sorted() == ["alias.md", "exact.md"])
        #expect(order[2] == "prefix.md")
        #expect(Set(order.dropFirst(3)) == ["body.md", "inside.md", "roadmapping.md"])
        // A prefix query: "Road mapping" starts with road map*.
        #expect(Array(catalog.run(try query("road map*")).map(\.path).prefix(4)).sorted()
                == ["alias.md", "exact.md", "prefix.md", "roadmapping.md"])
        #expect(catalog.run(try query("road map"), sort: .relevance, reverse: true).map(\.path).suffix(2).sorted()
                == ["alias.md", "exact.md"])
        #expect(catalog.run(try query("road map"), limit: 1).map(\.path) == [order[0]])
        let tiers = catalog.nameTiers(for: try query("road map").positiveTerms, within: catalog.liveSet)
        #expect(tiers.count == catalog.capacity)
        #expect(catalog.nameTiers(for: try query("zebra").positiveTerms, within: catalog.liveSet).isEmpty)
    }
}
