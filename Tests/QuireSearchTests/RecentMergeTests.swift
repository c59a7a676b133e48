import Foundation
import QuireCore
import QuireTestSupport
import Testing
@testable import QuireSearch

/// An update that keeps many of the recent changes copies them from their segment and builds
/// only its own notes (`Catalog.mergeRecentChanges`, `SegmentMerge.build`) instead of building
/// every recent note's segment anew: random updates, one after another, give the segment that
/// building anew gives, byte for byte, and the same answers.
struct RecentMergeTests {
    static let words = ["mergeword", "apple", "toy story", "café", "zebra", "#work", "[[Other note]]", "spam eggs",
                        "Straße", "naïve"]
    static let queries = ["mergeword", "\"toy story\" apple", "zeb*", "tag:work", "\"spam eggs\"", "title:spam",
                          "strasse", "naive", "-mergeword apple", "round3", "mergeword OR zebra"]

    @Test func mergedRecentChangesAreTheRecentChangesBuiltAnew() throws {
        var random = SeededGenerator(seed: 91)
        let capped = SegmentBuilderTests.cappedNotes(heavyBody: "spam eggs and more spam eggs", lightTitle: "spam",
                                                     lightBody: "eggs")
        let start = SegmentBuilderTests.uniqueNotes(seed: 92, count: 1600) + capped
        var current: [String: Note] = Dictionary(uniqueKeysWithValues: start.map { ($0.path, $0) })
        var merging = Catalog(notes: start)
        var rebuilding = merging
        let directory = try TestVault()
        var mergedRounds = 0
        for round in 0..<14 {
            // Deferred (a command after a pull): the recent changes grow to half the catalog.
            for index in [0, 1] {
                var catalog = index == 0 ? merging : rebuilding
                catalog.defersCompaction = true
                catalog.recentMergeMinimum = index == 0 ? 1 : .max
                if index == 0 { merging = catalog } else { rebuilding = catalog }
            }
            let notes = current.values.sorted { ExactPath.precedes($0.path, $1.path) }
            let added = SegmentBuilderTests.uniqueNotes(seed: 200 + UInt64(round), count: 15)
            let (upserts, removals, after) = CatalogCompactionTests.randomChanges(
                of: notes, in: 40, edited: round % 5 == 4 ? 3 : 1, removed: round % 3 == 0 ? 1 : 0,
                renamedInto: "Moved\(round)/", added: added, using: &random) { random in
                    (0..<Int.random(in: 1...5, using: &random)).map { _ in Self.words[Int.random(in: 0..<Self.words.count, using: &random)] }
                        .joined(separator: " ") + " round\(round)"
                }
            current = after
            let analyzed = upserts.map(AnalyzedNote.init(note:))
            merging.apply(upserts: analyzed, removals: removals)
            rebuilding.apply(upserts: analyzed, removals: removals)
            if merging.deltaNotesPending && !rebuilding.deltaNotesPending { mergedRounds += 1 }
            #expect(merging.count == current.count && rebuilding.count == current.count, "round \(round)")
            #expect(merging.delta.count == rebuilding.delta.count && merging.base.count == rebuilding.base.count)
            #expect(merging.baseLive == rebuilding.baseLive)
            SegmentBuilderTests.expectSame(merging.delta, rebuilding.delta)
            let expected = Catalog(notes: current.values.sorted { ExactPath.precedes($0.path, $1.path) })
            for text in Self.queries {
                let query = try NoteQuery.parse(text, now: SnapshotFileTests.now)
                let (actual, wanted) = (merging.run(query, sort: .relevance), rebuilding.run(query, sort: .relevance))
                #expect(actual.map(\.record.path) == wanted.map(\.record.path), "\(text), round \(round)")
                #expect(actual.map(\.score.bitPattern) == wanted.map(\.score.bitPattern), "scores of \(text), round \(round)")
                #expect(merging.run(query, sort: .path).map(\.record.path) == expected.run(query, sort: .path).map(\.record.path),
                        "\(text), round \(round), against a catalog of the notes as they are")
            }
            // Every other round through the state file, as the next command loads it: the recent
            // changes then come from the mapped segment (never decoded) and the base slots are
            // found by path order.
            if round % 2 == 1 {
                for index in [0, 1] {
                    let path = directory.root + "/catalog-\(index)-\(round).bin"
                    try CatalogCache.save(index == 0 ? merging : rebuilding, stamps: [:], to: path)
                    let (loaded, _, _) = try CatalogCache.load(path)
                    #expect(loaded.delta.count == merging.delta.count && loaded.deltaNotesPending == (loaded.delta.count > 0))
                    if index == 0 { merging = loaded } else { rebuilding = loaded }
                }
            }
        }
        #expect(mergedRounds >= 8, "the updates merged their recent changes in \(mergedRounds) of 14 rounds")
        SegmentBuilderTests.expectSame(merging.compacted().base, Catalog(notes: current.values.sorted {
            ExactPath.precedes($0.path, $1.path)
        }).base)
    }

    /// A one-note edit of a catalog whose recent changes are many keeps them in their segment
    /// and builds only its note: the recent changes are not decoded, and the next search finds
    /// the edit and everything the recent changes held.
    @Test func aOneNoteEditKeepsManyRecentChangesUndecoded() throws {
        var current = SegmentBuilderTests.uniqueNotes(seed: 93, count: 3000)
        var catalog = Catalog(notes: current)
        catalog.defersCompaction = true
        for index in 0..<600 { current[index].body += "\n\npulledword \(index)" }
        catalog.apply(upserts: (0..<600).map { AnalyzedNote(note: current[$0]) }, removals: [])
        #expect(catalog.delta.count == 600 && !catalog.deltaNotesPending, "600 recent changes, built")
        current[2500].body += "\n\neditedword"
        current[10].body += "\n\neditedword"
        catalog.apply(upserts: [AnalyzedNote(note: current[2500]), AnalyzedNote(note: current[10])], removals: [])
        #expect(catalog.deltaNotesPending && catalog.deltaNotes.isEmpty, "the recent changes were merged, not replayed")
        #expect(catalog.delta.count == 601)
        #expect(catalog.recentPath(599) == current[2500].path && catalog.recentPath(600) == current[10].path,
                "the edited notes come after the recent changes they leave")
        let expected = Catalog(notes: current)
        for text in ["pulledword", "editedword", "pulledword editedword", "-pulledword"] {
            let query = try NoteQuery.parse(text, now: SnapshotFileTests.now)
            #expect(catalog.run(query, sort: .path).map(\.record.path) == expected.run(query, sort: .path).map(\.record.path), "\(text)")
        }
        #expect(catalog.record(path: current[10].path)?.path == current[10].path)
    }
}
