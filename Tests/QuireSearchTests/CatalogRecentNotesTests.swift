import Foundation
import QuireCore
import QuireTestSupport
import Testing
@testable import QuireSearch

/// A catalog loaded with recent changes left unmerged (a deferred compaction after a large pull)
/// answers from its loaded segment; an update copies them from there with its own notes last,
/// and the catalog then equals one built from the notes as they are.
struct CatalogRecentNotesTests {
    @Test func loadedRecentChangesAnswerAndAnUpdateKeepsThem() throws {
        let notes = SegmentBuilderTests.uniqueNotes(seed: 61, count: 1200)
        var catalog = Catalog(notes: notes)
        catalog.defersCompaction = true
        var current = notes
        // 250 of 1,200 notes changed: past an eighth, short of half, so nothing is merged.
        for index in 0..<250 { current[index].body += "\n\nrecentword \(index)" }
        catalog.apply(upserts: (0..<250).map { AnalyzedNote(note: current[$0]) }, removals: [])
        #expect(catalog.delta.count == 250)
        let directory = try TestVault()
        let path = directory.root + "/catalog.bin"
        try CatalogCache.save(catalog, stamps: [:], to: path)
        var (loaded, _, _) = try CatalogCache.load(path)
        #expect(loaded.delta.count == 250, "a loaded catalog keeps its recent changes in the mapped segment")
        let query = try NoteQuery.parse("recentword", now: Date())
        #expect(loaded.run(query, sort: .path).map(\.record.path) == Catalog(notes: current).run(query, sort: .path).map(\.record.path))
        #expect(loaded.record(path: current[7].path)?.path == current[7].path)

        current[400].body += "\n\nrecentword later"
        loaded.defersCompaction = true
        loaded.apply(upserts: [AnalyzedNote(note: current[400])], removals: [current[5].path])
        current.remove(at: 5)
        #expect(loaded.delta.count == 250, "note 5 left the recent changes, note 400 joined them")
        #expect(loaded.recentPath(249) == current[399].path, "the edit comes after the recent changes it leaves")
        let expected = Catalog(notes: current)
        #expect(loaded.count == expected.count)
        #expect(loaded.run(query, sort: .path).map(\.record.path) == expected.run(query, sort: .path).map(\.record.path))
        var compacted = loaded.compacted()
        compacted.defersCompaction = false
        SegmentBuilderTests.expectSame(compacted.base, expected.base)
    }

    /// Pull after pull (the same notes changed again, others for the first time, some removed,
    /// each catalog loaded from the snapshot the one before wrote), the unmerged recent changes
    /// answer as a catalog built from the notes as they are.
    @Test func pullAfterPullOverRecentChangesAnswersAsARebuild() throws {
        var current = SegmentBuilderTests.uniqueNotes(seed: 62, count: 2000)
        var catalog = Catalog(notes: current)
        catalog.defersCompaction = true
        let directory = try TestVault()
        let path = directory.root + "/catalog.bin"
        try CatalogCache.save(catalog, stamps: [:], to: path)
        var generator = SeededGenerator(seed: 7)
        for round in 0..<6 {
            var (loaded, _, _) = try CatalogCache.load(path)
            loaded.defersCompaction = true
            // The first 100 notes in every pull, 30 more at random, and 5 removed.
            let random = (0..<30).map { _ in Int.random(in: 100..<current.count, using: &generator) }
            let changed = Set(Array(0..<100) + random)
            for index in changed { current[index].body += "\n\nround\(round) pulledword" }
            let changedPaths = Set(changed.map { current[$0].path })
            let removed = (0..<5).map { _ in current.remove(at: Int.random(in: 0..<current.count, using: &generator)).path }
            let upserts = current.filter { changedPaths.contains($0.path) }
            loaded.apply(upserts: upserts.map(AnalyzedNote.init(note:)), removals: removed)
            try CatalogCache.save(loaded, stamps: [:], to: path)
            let expected = Catalog(notes: current)
            #expect(loaded.count == expected.count && loaded.delta.count > 0)
            for text in ["pulledword", "round\(round)", "round0", "-pulledword"] {
                let query = try NoteQuery.parse(text, now: Date())
                #expect(loaded.run(query, sort: .path).map(\.record.path) == expected.run(query, sort: .path).map(\.record.path),
                        "\(text) after pull \(round)")
            }
        }
        let (final, _, _) = try CatalogCache.load(path)
        SegmentBuilderTests.expectSame(final.compacted().base, Catalog(notes: current).base)
    }
}
