import Foundation
import QuireCore
import Testing
@testable import QuireSearch

/// Random queries over a generated vault, checked against the brute-force evaluator.
struct RandomQueryTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let utc = TimeZone(secondsFromGMT: 0) ?? .current

    struct QueryGenerator {
        var generator: VaultGenerator
        let notes: [Note]

        static let filters = [
            "tag:work", "#work/meetings", "tag:WORK/Meetings/Weekly", "tag:日本", "#idea", "tag:toy",
            "project:\"toy story 5\"", "project:Quire", "project:\"Zoë's Plan\"", "folder:Drafts", "folder:journal",
            "folder:drafts/old", "draft:true", "draft:false", "pinned:true", "color:blue", "color:RED",
            "mood:>=3", "mood:<2", "mood:4", "mood:<=1", "priority:high", "priority:>1", "priority:0",
            "title:apple", "title:caf*", "title:\"toy story\"", "path:drafts/*", "path:*café*",
            "path:note-00?1.md", "path:journal/*/*", "created:>=2026-03-01", "created:<2026-06",
            "updated:>30d", "updated:2026-05-10", "created:<=2026-02-15T10:00", "updated:<1y",
            "status:done", "rating:>=3", "rating:4.5", "topics:swift", "reviewed:true", "id:nothing",
            "due:<7d", "due:>=2026-04", "due:2026-04-01", "due:soon", "status:<1y",
        ]

        mutating func word() -> String {
            switch generator.random.next() % 10 {
            case 0: return String(generator.pick(VaultGenerator.vocabulary).prefix(Int(generator.random.next() % 3) + 1)) + "*"
            case 1: return generator.pick(["東京", "京タ", "日本", "語", "한국", "タワ*", "ワー"])
            case 2: return phrase()
            case 3, 4: return generator.pick(Self.filters)
            default: return generator.pick(VaultGenerator.vocabulary)
            }
        }

        mutating func phrase() -> String {
            let note = generator.pick(notes)
            let terms = Tokenizer.terms(in: generator.chance(30) ? note.title : note.body)
            guard terms.count >= 2 else { return "\"\(generator.pick(VaultGenerator.vocabulary)) story\"" }
            let start = Int(generator.random.next() % UInt64(terms.count - 1))
            let length = min(terms.count - start, Int(generator.random.next() % 3) + 2)
            return "\"" + terms[start..<(start + length)].joined(separator: " ") + "\""
        }

        mutating func expression(depth: Int) -> String {
            let roll = generator.random.next() % 10
            if depth == 0 || roll < 4 { return word() }
            switch roll {
            case 4, 5: return expression(depth: depth - 1) + " " + expression(depth: depth - 1)
            case 6: return expression(depth: depth - 1) + " OR " + expression(depth: depth - 1)
            case 7: return (generator.chance(50) ? "-" : "NOT ") + word()
            case 8: return "(" + expression(depth: depth - 1) + " OR " + expression(depth: depth - 1) + ")"
            default: return "-(" + expression(depth: depth - 1) + ")"
            }
        }
    }

    @Test func randomQueriesMatchBruteForce() throws {
        var vault = VaultGenerator(seed: 42)
        let notes = vault.notes(count: 400)
        let catalog = Catalog(notes: notes)
        let reference = ReferenceEvaluator(notes: notes)
        var queries = QueryGenerator(generator: VaultGenerator(seed: 7), notes: notes)
        var nonEmpty = 0
        var named = 0  // queries whose results hold a title or alias that is or starts with their words
        for round in 0..<600 {
            let text = queries.expression(depth: 3)
            let query = try NoteQuery.parse(text, now: Self.now, timeZone: Self.utc)
            let sort: SortKey? = round % 3 == 0 ? nil : SortKey.allCases[round % SortKey.allCases.count]
            let reverse = round % 5 == 0
            let expected = reference.run(query, sort: sort, reverse: reverse)
            let actual = catalog.run(query, sort: sort, reverse: reverse)
            let same = actual.map(\.record.path) == expected.map(\.0)
            #expect(same, "query: \(text) sort: \(String(describing: sort)): \(actual.count) hits, expected \(expected.count)")
            for (hit, want) in zip(actual, expected) {
                #expect(abs(hit.score - want.1) < 1e-9, "score of \(hit.record.path) for \(text)")
            }
            if !expected.isEmpty { nonEmpty += 1 }
            let found = Set(expected.map(\.0))
            if notes.contains(where: { found.contains($0.path) && ReferenceEvaluator.nameTier($0, query.positiveTerms) > 0 }) {
                named += 1
            }
            let limit = round % 4 + 1
            let top = catalog.run(query, sort: sort, reverse: reverse, limit: limit).map(\.record.path)
            #expect(top == Array(expected.map(\.0).prefix(limit)), "query: \(text) limit \(limit)")
        }
        #expect(nonEmpty > 200)
        #expect(named > 50, "\(named)")
    }

    /// The first few by relevance come from the documents scoring at least the limit-th best
    /// score: with every score equal (all tie at that threshold) and with random scores full of
    /// ties, the result is the full sort's first few, in both directions.
    @Test func theFirstFewByRelevanceAreTheFullSortsFirstFew() {
        var vault = VaultGenerator(seed: 3)
        let catalog = Catalog(notes: vault.notes(count: 200))
        let documents = Array(0..<catalog.capacity)
        for round in 0..<40 {
            let scores = documents.map { _ in round == 0 ? 1.0 : Double(vault.random.next() % UInt64(1 + round % 7)) }
            let tiers = round % 2 == 0 ? [] : documents.map { _ in UInt8(vault.random.next() % 3) }
            let ranker = Ranker(catalog: catalog, scores: scores, tiers: tiers)
            for reverse in [false, true] {
                let full = ranker.order(documents, by: .relevance, reverse: reverse, limit: nil)
                for limit in [0, 1, 3, 20] {
                    #expect(ranker.order(documents, by: .relevance, reverse: reverse, limit: limit) == Array(full.prefix(limit)),
                            "round \(round) limit \(limit) reverse \(reverse)")
                }
            }
        }
    }

    @Test func incrementalUpdatesMatchRebuild() throws {
        var vault = VaultGenerator(seed: 3)
        var notes = vault.notes(count: 300)
        var catalog = Catalog(notes: notes)
        var queries = QueryGenerator(generator: VaultGenerator(seed: 11), notes: notes)
        for step in 0..<400 {
            let index = Int(vault.random.next() % UInt64(notes.count))
            if step % 7 == 0 {
                catalog.remove(path: notes[index].path)
                notes.remove(at: index)
            } else {
                var changed = vault.note(index: 1000 + step)
                changed.path = step % 3 == 0 ? notes[index].path : changed.path
                if step % 3 == 0 { notes[index] = changed } else { notes.append(changed) }
                catalog.upsert(changed)
            }
            #expect(catalog.count == notes.count)
        }
        let reference = ReferenceEvaluator(notes: notes)
        for _ in 0..<150 {
            let text = queries.expression(depth: 2)
            let query = try NoteQuery.parse(text, now: Self.now, timeZone: Self.utc)
            let expected = reference.run(query, sort: .relevance, reverse: false)
            let actual = catalog.run(query, sort: .relevance)
            let same = actual.map(\.record.path) == expected.map(\.0)
            #expect(same, "query: \(text): \(actual.count) hits, expected \(expected.count)")
        }
        #expect(catalog.records.map(\.path) == notes.map(\.path).sorted())
    }
}
