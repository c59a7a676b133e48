import Foundation
import QuireCore
import QuireTestSupport
import Testing
@testable import QuireSearch

/// An update copies the recent changes it keeps from their segment and builds only its own
/// notes (`Catalog.mergeRecentChanges`, `SegmentMerge.build`) instead of building every recent
/// note anew: random updates, one after another, leave the segment a build of the recent notes
/// in the order they changed in gives, byte for byte, and the answers of the notes as they are.
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
        var catalog = Catalog(notes: start)
        // The recent changes as they should be: the notes changed since the last compaction, in
        // the order they changed in (a note changed again moves to the end).
        var recent: [Note] = []
        // The capped notes (a posting whose occurrences pass its byte: the overflow table) among
        // the recent changes from the start, so that merges copy overflow entries.
        for note in capped {
            var edited = note
            edited.body += " mergeword"
            current[note.path] = edited
            recent.append(edited)
        }
        catalog.defersCompaction = true
        catalog.apply(upserts: recent.map(AnalyzedNote.init(note:)), removals: [])
        #expect(catalog.delta.count == 2 && catalog.delta.postingOverflow.count > 0, "the recent changes hold a capped posting")
        let directory = try TestVault()
        var (mergedRounds, compactions) = (0, 0)
        for round in 0..<14 {
            // Deferred (a command after a pull): the recent changes grow to a quarter edited.
            catalog.defersCompaction = true
            let notes = current.values.sorted { ExactPath.precedes($0.path, $1.path) }
            let added = SegmentBuilderTests.uniqueNotes(seed: 200 + UInt64(round), count: 15)
            let (upserts, removals, after) = CatalogCompactionTests.randomChanges(
                of: notes, in: 40, edited: round % 5 == 4 ? 3 : 1, removed: round % 3 == 0 ? 1 : 0,
                renamedInto: "Moved\(round)/", added: added, using: &random) { random in
                    (0..<Int.random(in: 1...5, using: &random)).map { _ in Self.words[Int.random(in: 0..<Self.words.count, using: &random)] }
                        .joined(separator: " ") + " round\(round)"
                }
            current = after
            let gone = Set(removals.map(ExactPath.init) + upserts.map { ExactPath($0.path) })
            let kept = recent.filter { !gone.contains(ExactPath($0.path)) }
            // Half the rounds the indexer's way (the notes tokenized straight into a slice), half
            // through analyzed notes.
            if round % 2 == 0 {
                var slice = SegmentSlice()
                for note in upserts { slice.add(note) }
                slice.sealTerms()
                var slices = upserts.isEmpty ? [] : [slice]
                catalog.apply(added: SegmentBuilder.build(slices: &slices), removals: removals)
            } else {
                catalog.apply(upserts: upserts.map(AnalyzedNote.init(note:)), removals: removals)
            }
            #expect(catalog.count == current.count, "round \(round)")
            if catalog.delta.count == 0 {
                #expect(catalog.base.count == current.count && catalog.baseLive.allSatisfy { $0 }, "round \(round) compacted")
                compactions += 1
                recent = []
            } else {
                if !kept.isEmpty && !upserts.isEmpty { mergedRounds += 1 }
                recent = kept + upserts
                #expect(catalog.delta.count == recent.count, "round \(round)")
                SegmentBuilderTests.expectSame(catalog.delta, SegmentBuilder.build(notes: recent.map(AnalyzedNote.init(note:))))
            }
            let expected = Catalog(notes: current.values.sorted { ExactPath.precedes($0.path, $1.path) })
            for text in Self.queries {
                let query = try NoteQuery.parse(text, now: SnapshotFileTests.now)
                #expect(catalog.run(query, sort: .path).map(\.record.path) == expected.run(query, sort: .path).map(\.record.path),
                        "\(text), round \(round), against a catalog of the notes as they are")
            }
            // Every other round through the state file, as the next command loads it: the recent
            // changes then come from the mapped segment and the base slots are found by path order.
            if round % 2 == 1 {
                let path = directory.root + "/catalog-\(round).bin"
                try CatalogCache.save(catalog, stamps: [:], to: path)
                let (loaded, _, _) = try CatalogCache.load(path)
                #expect(loaded.delta.count == catalog.delta.count)
                catalog = loaded
            }
        }
        #expect(mergedRounds >= 8 && compactions >= 1,
                "the updates merged kept recent changes in \(mergedRounds) of 14 rounds, compacted in \(compactions)")
        SegmentBuilderTests.expectSame(catalog.compacted().base, Catalog(notes: current.values.sorted {
            ExactPath.precedes($0.path, $1.path)
        }).base)
    }

    /// An edit of two notes over many recent changes keeps those in their segment, its notes
    /// last, and the next search finds the edit and everything the recent changes held.
    @Test func anEditOverManyRecentChangesKeepsThemAndComesLast() throws {
        var current = SegmentBuilderTests.uniqueNotes(seed: 93, count: 3000)
        var catalog = Catalog(notes: current)
        catalog.defersCompaction = true
        for index in 0..<600 { current[index].body += "\n\npulledword \(index)" }
        catalog.apply(upserts: (0..<600).map { AnalyzedNote(note: current[$0]) }, removals: [])
        #expect(catalog.delta.count == 600, "600 recent changes")
        current[2500].body += "\n\neditedword"
        current[10].body += "\n\neditedword"
        catalog.apply(upserts: [AnalyzedNote(note: current[2500]), AnalyzedNote(note: current[10])], removals: [])
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

    /// An update given a path twice makes one note of it (the segment of an update holds one
    /// document a path), and reports it once.
    @Test func aPathGivenTwiceToAnUpdateIsOneNote() throws {
        let vault = try TestVault()
        try vault.write("a.md", "---\ntitle: A\n---\napple\n")
        try vault.write("b.md", "---\ntitle: B\n---\nbirch\n")
        let indexer = Indexer(root: vault.root, parse: vault.parser)
        var catalog = Catalog()
        var stamps: [ExactPath: StoredStamp] = [:]
        _ = indexer.update(&catalog, stamps: &stamps, paths: ["a.md", "b.md"])
        try vault.write("a.md", "---\ntitle: A\n---\napple twiceword and more\n")
        let report = indexer.update(&catalog, stamps: &stamps, paths: ["a.md", "b.md", "a.md"], complete: false)
        #expect(report.changed == ["a.md"] && report.added.isEmpty)
        #expect(catalog.count == 2 && catalog.delta.count == 1)
        let query = try NoteQuery.parse("twiceword", now: SnapshotFileTests.now)
        #expect(catalog.run(query, sort: .path).map(\.record.path) == ["a.md"])
        #expect(catalog.run(try NoteQuery.parse("apple", now: SnapshotFileTests.now), sort: .path).map(\.record.path) == ["a.md"])
    }
}
