import Foundation
import QuireCore
import QuireTestSupport
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

    /// A compaction written straight into a new snapshot (`Catalog.compacted(snapshot:)`, what
    /// a refresh that changed many notes does) over a base loaded from its file: random edits,
    /// removals, renames and new notes, whatever the chunks the columns are written in, give
    /// the segment a fresh build of the notes as they are now gives, and the same answers.
    @Test func aCompactionIntoTheSnapshotIsTheRebuildOfItsNotes() throws {
        let notes = SegmentBuilderTests.uniqueNotes(seed: 41, count: 1500)
        let directory = try TestVault()
        let basePath = directory.root + "/catalog.bin"
        try CatalogCache.save(Catalog(notes: notes), stamps: [:], to: basePath)
        var (loaded, _, _) = try CatalogCache.load(basePath)
        var random = SeededGenerator(seed: 43)
        let words = ["compactionword", "apple", "toy story", "café", "zebra", "#work", "[[Other note]]"]
        let (upserts, removals, current) = Self.randomChanges(
            of: notes, in: 20, edited: 7, removed: 2, renamedInto: "Renamed/",
            added: SegmentBuilderTests.uniqueNotes(seed: 44, count: 200), using: &random) { random in
                (0..<Int.random(in: 1...6, using: &random)).map { _ in words[Int.random(in: 0..<words.count, using: &random)] }
                    .joined(separator: " ")
            }
        loaded.apply(upserts: upserts.map(AnalyzedNote.init(note:)), removals: removals, compacting: false)
        #expect(loaded.delta.count > 0 && loaded.needsCompaction, "the update left the compaction to the snapshot")
        let expected = Catalog(notes: current.values.sorted { ExactPath.precedes($0.path, $1.path) })
        for limit in [1, 997, 1 << 30] {
            // Built in place in the file's mapping, and (at 997) in a buffer written in.
            let (compacted, written) = try loaded.compacted(snapshot: directory.root + "/compacted-\(limit).bin",
                                                            chunkLimit: limit, inPlace: limit != 997)
            #expect(written != nil, "chunk limit \(limit): nothing written")
            #expect(compacted.count == current.count && compacted.delta.count == 0)
            #expect(compacted.base.records.hasPathColumn, "chunk limit \(limit): the compacted base reads its path column")
            SegmentBuilderTests.expectSame(compacted.base, expected.base)
            for text in SnapshotFileTests.queries + ["compactionword", "\"toy story\" apple", "zeb*", "tag:work"] {
                let query = try NoteQuery.parse(text, now: SnapshotFileTests.now)
                let (actual, wanted) = (compacted.run(query, sort: .relevance), expected.run(query, sort: .relevance))
                #expect(actual.map(\.record.path) == wanted.map(\.record.path), "\(text)")
                #expect(actual.map(\.score.bitPattern) == wanted.map(\.score.bitPattern), "scores of \(text)")
            }
            written?.removal?.wait()
        }
    }

    /// The merge into the snapshot takes its inputs as they come: a base whose slots are not in
    /// path order (each term's postings renumbered out of order), capped postings (their
    /// positions counted from the overflow table), recent changes read from a loaded snapshot
    /// (never decoded), and a large random change set of edits, removals, renames and new notes
    /// — the segment is still the fresh build of the notes, at any chunk size.
    @Test func aMergeOfAnyBaseAndLoadedChangesIsTheRebuild() throws {
        var random = SeededGenerator(seed: 61)
        let capped = SegmentBuilderTests.cappedNotes(heavyBody: "spam eggs and more spam eggs", lightTitle: "spam",
                                                     lightBody: "eggs")
        let notes = (SegmentBuilderTests.uniqueNotes(seed: 62, count: 2500) + capped).shuffled(using: &random)
        let directory = try TestVault()
        let basePath = directory.root + "/catalog.bin"
        try CatalogCache.save(Catalog(notes: notes), stamps: [:], to: basePath)
        var (loaded, _, _) = try CatalogCache.load(basePath)
        #expect(loaded.base.postingOverflow.count == 3)
        let (upserts, removals, current) = Self.randomChanges(
            of: notes, keeping: capped[0].path, in: 10, edited: 3, removed: 1, renamedInto: "Moved/",
            added: SegmentBuilderTests.uniqueNotes(seed: 63, count: 300), using: &random) { random in
                "mergeword " + (Int.random(in: 0..<2, using: &random) == 0 ? "spam eggs" : "zebra")
            }
        loaded.apply(upserts: upserts.map(AnalyzedNote.init(note:)), removals: removals, compacting: false)
        // Saved and loaded again: the recent changes are read from the state file's segment.
        let statePath = directory.root + "/with-changes.bin"
        try CatalogCache.save(loaded, stamps: [:], to: statePath)
        let (reloaded, _, _) = try CatalogCache.load(statePath)
        #expect(reloaded.delta.count > 0 && reloaded.needsCompaction)
        let expected = Catalog(notes: current.values.sorted { ExactPath.precedes($0.path, $1.path) })
        for (index, catalog) in [loaded, reloaded].enumerated() {
            var catalog = catalog
            catalog.releasePathIndex()
            for limit in [1, 4096, 1 << 30] {
                let (compacted, written) = try catalog.compacted(snapshot: directory.root + "/merged-\(index)-\(limit).bin",
                                                                 chunkLimit: limit, inPlace: limit != 4096)
                #expect(written != nil && compacted.count == current.count && compacted.delta.count == 0)
                #expect(compacted.base.postingOverflow.count == 3)
                SegmentBuilderTests.expectSame(compacted.base, expected.base)
                for text in ["mergeword", "\"spam eggs\"", "title:spam", "zeb*", "\"mergeword zebra\""] {
                    let query = try NoteQuery.parse(text, now: SnapshotFileTests.now)
                    let (actual, wanted) = (compacted.run(query, sort: .relevance), expected.run(query, sort: .relevance))
                    #expect(actual.map(\.record.path) == wanted.map(\.record.path), "\(text)")
                    #expect(actual.map(\.score.bitPattern) == wanted.map(\.score.bitPattern), "scores of \(text)")
                }
                written?.removal?.wait()
            }
        }
    }

    /// A refresh that changes many notes of a vault leaves the compaction to the snapshot's
    /// writing, which builds the new base straight into `catalog.bin` (a new file) and reads it
    /// from there: reopened, the snapshot is current and answers as the notes parsed afresh.
    @Test func aRefreshOfManyChangesWritesTheCompactedBaseIntoItsFile() throws {
        let vault = try TestVault()
        func text(_ index: Int, _ word: String) -> String { "---\ntitle: Note \(index)\n---\nbody \(word) w\(index % 13)\n" }
        for index in 0..<600 { try vault.write("n\(index).md", text(index, "first")) }
        var store = CatalogStore(loading: vault.root, parse: vault.parser, clock: TestVault.settledClock)
        store.refresh(paths: vault.notePaths())
        let baseBefore = try FileManager.default.attributesOfItem(atPath: store.cachePath)[.systemFileNumber] as? Int
        try vault.waitForFileClockTick()
        var changed: [String] = []
        for index in stride(from: 0, to: 600, by: 2) {
            try vault.write("n\(index).md", text(index, "second"))
            changed.append("n\(index).md")
        }
        for index in stride(from: 1, to: 120, by: 6) {
            try vault.remove("n\(index).md")
            changed.append("n\(index).md")
        }
        let report = store.refresh(changedPaths: changed)
        #expect(report.cacheWritten && report.cacheIssue == nil)
        #expect(store.catalog.delta.count == 0 && store.catalog.base.count == 580, "compacted")
        let baseAfter = try FileManager.default.attributesOfItem(atPath: store.cachePath)[.systemFileNumber] as? Int
        #expect(baseAfter != baseBefore, "a new base file")
        var reopened = CatalogStore(loading: vault.root, parse: vault.parser, clock: TestVault.settledClock)
        #expect(reopened.report.cacheIssue == nil)
        #expect(!reopened.refresh(paths: vault.notePaths()).hasChanges)
        let paths = vault.notePaths().sorted { ExactPath.precedes($0, $1) }
        let notes = try paths.map { try TestVault.parse(Data(contentsOf: URL(fileURLWithPath: vault.root + "/" + $0)), path: $0) }
        let reference = Catalog(notes: notes)
        for word in ["first", "second", "body", "w3", "title:note"] {
            let query = try NoteQuery.parse(word, now: SnapshotFileTests.now)
            #expect(reopened.catalog.run(query, sort: .relevance).map(\.record.path)
                    == reference.run(query, sort: .relevance).map(\.record.path), "\(word)")
        }
    }

    /// Random changes of `notes` (all but `kept`), one draw of `draws` outcomes a note: the
    /// first `edited` append a paragraph `words` makes, the next `removed` remove it, the next
    /// one moves it into the folder `renamedInto`, the rest leave it; then the notes of `added`
    /// at free paths. The upserts and removals to apply, and every note as it is after them.
    static func randomChanges(of notes: [Note], keeping kept: String? = nil, in draws: Int, edited: Int, removed: Int,
                              renamedInto folder: String, added: [Note], using random: inout SeededGenerator,
                              words: (inout SeededGenerator) -> String)
        -> (upserts: [Note], removals: [String], current: [String: Note]) {
        var current: [String: Note] = Dictionary(uniqueKeysWithValues: notes.map { ($0.path, $0) })
        var upserts: [Note] = []
        var removals: [String] = []
        for note in notes where note.path != kept {
            let draw = Int.random(in: 0..<draws, using: &random)
            if draw < edited {
                var changed = note
                changed.body += "\n\n" + words(&random)
                upserts.append(changed)
                current[note.path] = changed
            } else if draw < edited + removed {
                removals.append(note.path)
                current[note.path] = nil
            } else if draw == edited + removed {
                var renamed = note
                renamed.path = folder + note.path
                removals.append(note.path)
                current[note.path] = nil
                upserts.append(renamed)
                current[renamed.path] = renamed
            }
        }
        for extra in added where current[extra.path] == nil {
            upserts.append(extra)
            current[extra.path] = extra
        }
        return (upserts, removals, current)
    }
}

