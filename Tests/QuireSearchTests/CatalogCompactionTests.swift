import Foundation
import QuireCore
import Testing
@testable import QuireSearch

/// A catalog whose recent changes grow large merges them into its main segment note by note
/// (`Catalog.compacted`): the segment must be the one built from the notes as they are now.
struct CatalogCompactionTests {
    @Test func aCompactedCatalogIsTheCatalogOfItsNotes() {
        let notes = SegmentBuilderTests.uniqueNotes(seed: 17, count: 1200)
        var catalog = Catalog(notes: notes)
        // Every third note edited, every seventh of the rest removed, and notes added: past an
        // eighth of the catalog, so the update compacts.
        var current: [String: Note] = Dictionary(uniqueKeysWithValues: notes.map { ($0.path, $0) })
        var upserts: [Note] = []
        var removals: [String] = []
        for (index, note) in notes.enumerated() {
            if index % 3 == 0 {
                var edited = note
                edited.body += "\n\ncompactionword \(index)"
                upserts.append(edited)
                current[note.path] = edited
            } else if index % 7 == 0 {
                removals.append(note.path)
                current[note.path] = nil
            }
        }
        for extra in SegmentBuilderTests.uniqueNotes(seed: 18, count: 100) where current[extra.path] == nil {
            upserts.append(extra)
            current[extra.path] = extra
        }
        catalog.apply(upserts: upserts.map(AnalyzedNote.init(note:)), removals: removals)
        #expect(catalog.delta.count == 0, "the update compacted")
        #expect(catalog.baseLive.allSatisfy { $0 })
        let expected = Catalog(notes: current.values.sorted { ExactPath.precedes($0.path, $1.path) })
        #expect(catalog.count == current.count)
        SegmentBuilderTests.expectSame(catalog.base, expected.base)
    }

    /// Deferred (a command right after a pull), the recent changes stay unmerged past an eighth
    /// of the catalog and are merged at half of it; either way the catalog answers as the one
    /// built from its notes.
    @Test func aDeferredCompactionWaitsForHalfTheCatalog() throws {
        let notes = SegmentBuilderTests.uniqueNotes(seed: 19, count: 2000)
        var catalog = Catalog(notes: notes)
        catalog.defersCompaction = true
        var current = notes
        func edit(_ range: Range<Int>) {
            for index in range { current[index].body += "\n\ndeferredword \(index)" }
            catalog.apply(upserts: range.map { AnalyzedNote(note: current[$0]) }, removals: [])
        }
        edit(0..<300)
        #expect(catalog.needsCompaction && catalog.delta.count == 300, "past an eighth, not merged yet")
        let query = try NoteQuery.parse("deferredword", now: Date())
        let expected = Catalog(notes: current)
        #expect(catalog.run(query, sort: .path).map(\.record.path) == expected.run(query, sort: .path).map(\.record.path))
        edit(300..<800)
        #expect(catalog.delta.count == 0 && catalog.defersCompaction, "merged at half the catalog, still deferring")
        SegmentBuilderTests.expectSame(catalog.base, Catalog(notes: current).base)
    }
}

