import Foundation
import QuireCore
import QuireTestSupport
import Testing
@testable import QuireSearch

/// Building a segment in slices (on several cores) must give the very segment one slice gives.
struct SegmentBuilderTests {
    /// Every column and record of two segments, compared value by value.
    static func expectSame(_ left: IndexSegment, _ right: IndexSegment) {
        let columns: [(String, Column, Column)] = [
            ("term offsets", left.terms.offsets, right.terms.offsets),
            ("posting starts", left.postingStarts, right.postingStarts),
            ("posting docs", left.postingDocs, right.postingDocs),
            ("term position starts", left.termPositionStarts, right.termPositionStarts),
            ("posting overflow", left.postingOverflow, right.postingOverflow),
            ("forward starts", left.forwardStarts, right.forwardStarts),
            ("forward", left.forward, right.forward),
            ("title lengths", left.titleLengths, right.titleLengths),
            ("lengths", left.lengths, right.lengths),
        ]
        for (name, a, b) in columns {
            let same = a.buffer.elementsEqual(b.buffer)
            #expect(same, "\(name) differ")
        }
        let sameFrequencies = left.postingFrequencies.buffer.elementsEqual(right.postingFrequencies.buffer)
        #expect(sameFrequencies, "posting frequencies differ")
        let samePositions = left.positions.buffer.elementsEqual(right.positions.buffer)
        #expect(samePositions, "positions differ")
        let sameTerms = left.terms.bytes.buffer.elementsEqual(right.terms.bytes.buffer)
        #expect(sameTerms, "term bytes differ")
        let sameKeys = left.sortKeys.buffer.map(\.bitPattern) == right.sortKeys.buffer.map(\.bitPattern)
        #expect(sameKeys, "sort keys differ")
        #expect(left.count == right.count)
        for index in 0..<min(left.count, right.count) {
            let same = left.records[index] == right.records[index]
            #expect(same, "record \(index) differs")
        }
        PathColumnTests.expectColumn(left.records)
        PathColumnTests.expectColumn(right.records)
    }

    static func uniqueNotes(seed: UInt64, count: Int) -> [Note] {
        var vault = VaultGenerator(seed: seed)
        var seen = Set<String>()
        return vault.notes(count: count).filter { seen.insert($0.path).inserted }.sorted { $0.path < $1.path }
    }

    /// A vault with a file for each note, and a parser that gives each file's note.
    static func vault(of notes: [Note]) throws -> (TestVault, NoteParsing) {
        let vault = try TestVault()
        var byPath: [String: Note] = [:]
        for note in notes {
            try vault.write(note.path, "x")
            byPath[note.path] = note
        }
        let table = byPath
        return (vault, { _, path in table[path] ?? Note(path: path) })
    }

    /// `notes` as the indexer records them from `vault`'s files: missing dates are the files' times.
    static func indexed(_ notes: [Note], in vault: TestVault) throws -> [Note] {
        try notes.map { note in
            var note = note
            var status = stat()
            try #require(lstat(vault.root + "/" + note.path, &status) == 0)
            note.fillMissingDates(modified: FileStamp(status).modified)
            return note
        }
    }

    @Test func manySlicesGiveTheSegmentOfOne() {
        let notes = Self.uniqueNotes(seed: 5, count: 300).map(AnalyzedNote.init(note:))
        let whole = SegmentBuilder.build(notes: notes, slices: 1)
        #expect(whole.postingDocs.count > 1000)
        for count in [2, 7, 40, notes.count] {
            Self.expectSame(SegmentBuilder.build(notes: notes, slices: count), whole)
        }
    }

    @Test func aSegmentReplayedFromTheIndexIsTheSame() {
        let notes = Self.uniqueNotes(seed: 9, count: 200).map(AnalyzedNote.init(note:))
        let built = SegmentBuilder.build(notes: notes)
        let replayed = SegmentBuilder.build(notes: (0..<built.count).map(built.analyzed), slices: 13)
        Self.expectSame(replayed, built)
    }

    @Test func aRebuildFromFilesGivesTheSegmentOfTheParsedNotes() throws {
        let notes = Self.uniqueNotes(seed: 13, count: 700)
        let (vault, parse) = try Self.vault(of: notes)
        let store = CatalogStore(root: vault.root, paths: vault.notePaths().reversed(), rebuild: true, parse: parse)
        #expect(store.report.added.count == notes.count)
        #expect(store.catalog.count == notes.count)
        Self.expectSame(store.catalog.base, Catalog(notes: try Self.indexed(notes, in: vault)).base)
    }

    /// The rebuild's first runs weigh about as much each (a note's bytes plus a share per note),
    /// each holds a note at least, and together they hold every note once, in order.
    @Test func sliceBoundsBalanceBytes() {
        func sizes(of bounds: [Int], _ weights: [Int]) -> [Int] {
            zip(bounds, bounds.dropFirst()).map { weights[$0..<$1].reduce(0, +) }
        }
        // One large note at the start, small ones after: the first slice holds only a few notes.
        let skewed = ([400_000] + [Int](repeating: 2_000, count: 399)).map { $0 + Indexer.noteWeight }
        let bounds = Indexer.sliceBounds(weights: skewed, slices: 2)
        #expect(bounds.first == 0 && bounds.last == skewed.count && bounds.count == 3)
        #expect(bounds[1] < 150, "\(bounds)")
        let halves = sizes(of: bounds, skewed)
        #expect(abs(halves[0] - halves[1]) <= 400_000 / 10 + 3_024, "\(halves)")
        // No sizes known: as many notes each.
        #expect(Indexer.sliceBounds(weights: [Int](repeating: Indexer.noteWeight, count: 1000), slices: 4) == [0, 250, 500, 750, 1000])
        // Every slice gets a note, even after a note heavier than all the others together.
        let heavy = [10_000_000, 1, 1, 1]
        #expect(Indexer.sliceBounds(weights: heavy, slices: 4) == [0, 1, 2, 3, 4])
        for slices in 1...8 {
            let random = (0..<997).map { ($0 &* 7919) % 50_000 + Indexer.noteWeight }
            let cut = Indexer.sliceBounds(weights: random, slices: slices)
            #expect(cut.count == slices + 1 && cut.first == 0 && cut.last == random.count)
            #expect(zip(cut, cut.dropFirst()).allSatisfy { $0 < $1 }, "\(cut)")
            let parts = sizes(of: cut, random)
            #expect((parts.max() ?? 0) - (parts.min() ?? 0) <= 2 * 51_024, "\(slices) slices: \(parts)")
        }
        #expect(Indexer.sliceBounds(weights: [], slices: 0) == [0])
    }

    /// The slices of a pass are grouped for the cores by their tokens: the best cut in two on
    /// two cores, the lightest core next on more, every slice in one group.
    @Test func slicesAreGroupedForTheCoresByTheirTokens() {
        func largest(_ groups: [[Int]], _ tokens: [Int]) -> Int {
            groups.map { $0.reduce(0) { $0 + tokens[$1] } }.max() ?? 0
        }
        let tokens = [40, 10, 25, 25]
        let two = SegmentBuilder.groups(tokens: tokens, cores: 2)
        #expect(largest(two, tokens) == 50, "\(two)")
        #expect(two.joined().sorted() == [0, 1, 2, 3])
        #expect(SegmentBuilder.groups(tokens: [7], cores: 2) == [[0]])
        #expect(SegmentBuilder.groups(tokens: [], cores: 2) == [])
        #expect(SegmentBuilder.groups(tokens: [5, 5, 5], cores: 1) == [[0, 1, 2]])
        var generator = SeededGenerator(seed: 7)
        for cores in [2, 3, 4] {
            for count in [1, 2, 5, 16, 20] {
                let sizes = (0..<count).map { _ in Int(generator.next() % 1_000) + 1 }
                let groups = SegmentBuilder.groups(tokens: sizes, cores: cores)
                #expect(groups.count <= cores && groups.allSatisfy { !$0.isEmpty })
                #expect(groups.joined().sorted() == Array(0..<count), "\(cores) cores, \(sizes)")
                // Never worse than a share each plus the largest slice.
                let total = sizes.reduce(0, +)
                #expect(largest(groups, sizes) <= total / min(cores, count) + (sizes.max() ?? 0))
            }
        }
    }

    /// A rebuild given the walk's stamps cuts its slices by bytes: with notes of very
    /// different sizes the segment is still the one the parsed notes make.
    @Test func aRebuildWithStampsOfSkewedSizesGivesTheSameSegment() throws {
        var notes = Self.uniqueNotes(seed: 21, count: 600)
        notes[0].body = String(repeating: notes[0].body + "\n", count: 400)
        let (vault, parse) = try Self.vault(of: notes)
        let paths = vault.notePaths()
        // Stamps that say the first note is huge and the rest small, as the walk would.
        let stamps = try paths.map { path -> FileStamp? in
            var status = stat()
            try #require(lstat(vault.root + "/" + path, &status) == 0)
            var stamp = FileStamp(status)
            stamp.size = path == notes[0].path ? 5_000_000 : 100
            return stamp
        }
        let store = CatalogStore(root: vault.root, paths: paths, stamps: stamps, rebuild: true, parse: parse)
        #expect(store.report.added.count == notes.count)
        Self.expectSame(store.catalog.base, Catalog(notes: try Self.indexed(notes, in: vault)).base)
    }

    /// A phrase of two very common words is checked a chunk of places at a time: here about
    /// 120,000 places over six notes, so the chunks end inside the run of notes; every count
    /// agrees with the reference.
    @Test func aPhraseWithVeryManyPlacesIsCheckedInChunks() throws {
        var notes: [Note] = []
        for index in 0..<6 {
            var note = Note(path: "big-\(index).md", folder: "")
            note.title = "spam eggs"
            let unit = index % 2 == 0 ? "spam eggs spam ham " : "eggs spam spam spam eggs "
            note.body = String(repeating: unit, count: 8_000 + 1_000 * index)
            notes.append(note)
        }
        let catalog = Catalog(notes: notes)
        let reference = ReferenceEvaluator(notes: notes)
        for text in ["\"spam eggs\"", "\"spam spam\"", "\"eggs spam spam\"", "title:\"spam eggs\""] {
            _ = try Self.expectSameHits(catalog, reference, text)
        }
    }

    /// Expects `catalog` to answer `text` with the reference's hits and scores, in relevance
    /// order; returns the number of hits expected.
    static func expectSameHits(_ catalog: Catalog, _ reference: ReferenceEvaluator, _ text: String) throws -> Int {
        let query = try NoteQuery.parse(text, now: RandomQueryTests.now, timeZone: RandomQueryTests.utc)
        let expected = reference.run(query, sort: .relevance, reverse: false)
        let actual = catalog.run(query, sort: .relevance)
        #expect(actual.map(\.record.path) == expected.map(\.0), "\(text)")
        for (hit, want) in zip(actual, expected) {
            #expect(abs(hit.score - want.1) < 1e-9, "score of \(hit.record.path) for \(text)")
        }
        return expected.count
    }

    /// A rebuild writes the base snapshot while it builds the segment (never holding the
    /// finished index whole): the catalog it gives reads that file, equals the one built in
    /// memory (capped postings included: their section goes last), and a second store loads
    /// the snapshot without parsing anything; no temporary file is left.
    @Test func aRebuildWritesTheSnapshotAsItBuilds() throws {
        let notes = (Self.cappedNotes(heavyBody: "spam eggs", lightTitle: "spam", lightBody: "eggs")
            + Self.uniqueNotes(seed: 17, count: 600)).sorted { $0.path < $1.path }
        let (vault, parse) = try Self.vault(of: notes)
        let store = CatalogStore(root: vault.root, paths: vault.notePaths(), rebuild: true, parse: parse)
        #expect(store.report.cacheWritten)
        #expect(store.catalog.base.postingOverflow.count == 3)
        Self.expectSame(store.catalog.base, Catalog(notes: try Self.indexed(notes, in: vault)).base)
        let cache = vault.root + "/.quire/cache"
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache).sorted() == ["catalog.bin", "catalog.state"])
        // Written as it was built: the capped postings' section (10) lies after the last one (15).
        let header = try Data(contentsOf: URL(fileURLWithPath: cache + "/catalog.bin")).prefix(24 + 16 * 16)
        func offset(_ section: Int) -> UInt64 {
            header.dropFirst(24 + 16 * section).prefix(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        #expect(offset(10) > offset(15))
        let reopened = CatalogStore(root: vault.root, paths: vault.notePaths(), parse: { _, path in
            Issue.record("\(path) parsed again")
            return Note(path: path)
        })
        #expect(reopened.report.cacheIssue == nil && !reopened.report.hasChanges)
        Self.expectSame(reopened.catalog.base, store.catalog.base)
    }

    /// Slices of `notes`, `size` notes each, filled as a rebuild fills them.
    static func slices(of notes: [Note], size: Int) -> [SegmentSlice] {
        stride(from: 0, to: notes.count, by: size).map { first in
            var slice = SegmentSlice()
            for note in notes[first..<min(first + size, notes.count)] { slice.add(note) }
            return slice
        }
    }

    /// A slice copied halfway keeps value semantics although a slice checks that its term table
    /// and forward index are its own once per document, not per token: the copy and the
    /// original, each filled on with other notes, give the segments of slices filled apart.
    @Test func aCopiedSliceFillsOnByItself() {
        let notes = Self.uniqueNotes(seed: 31, count: 120)
        var original = SegmentSlice()
        for note in notes[0..<40] { original.add(note) }
        var copy = original
        for note in notes[40..<80] { original.add(note) }
        for note in notes[80..<120] { copy.add(note) }
        var expectedOriginal = Self.slices(of: Array(notes[0..<80]), size: 80)
        var expectedCopy = Self.slices(of: Array(notes[0..<40]) + Array(notes[80..<120]), size: 80)
        var builtOriginal = [original]
        var builtCopy = [copy]
        Self.expectSame(SegmentBuilder.build(slices: &builtOriginal), SegmentBuilder.build(slices: &expectedOriginal))
        Self.expectSame(SegmentBuilder.build(slices: &builtCopy), SegmentBuilder.build(slices: &expectedCopy))
    }

    /// A rebuild writes the large columns a chunk of whole terms (or documents) at a time, built
    /// in place in the file's mapping or in one buffer written in: whatever the chunks — one
    /// element, a few, more than a whole column, a term larger than a chunk — the file holds the
    /// segment built in memory (capped postings, whose chunk is not the last, included), and
    /// reads back the same.
    @Test func aSnapshotWrittenInChunksHoldsTheSegmentBuiltInMemory() throws {
        let notes = (Self.cappedNotes(heavyBody: "spam eggs", lightTitle: "spam", lightBody: "eggs")
            + Self.uniqueNotes(seed: 23, count: 400)).sorted { $0.path < $1.path }
        var inMemory = Self.slices(of: notes, size: 90)
        let whole = SegmentBuilder.build(slices: &inMemory)
        #expect(whole.postingOverflow.count == 3)
        let directory = try TestVault()
        for limit in [1, 2, 7, 100, 5_000, 1 << 30] {
            let path = directory.root + "/chunks-\(limit).bin"
            var slices = Self.slices(of: notes, size: 90)
            let (segment, written) = try SegmentBuilder.build(slices: &slices, snapshot: path, chunkLimit: limit,
                                                              inPlace: limit % 2 == 0)
            #expect(written != nil, "chunk limit \(limit): nothing written")
            #expect(segment.records.hasPathColumn, "chunk limit \(limit): the segment reads its path column")
            Self.expectSame(segment, whole)
            written?.removal?.wait()
        }
    }

    /// A chunk of documents that lies in one slice is written in pieces on every core
    /// (`fillForward`, pieces of at least 65,536 tokens): one slice of over 100,000 tokens, in
    /// one chunk and in several, gives the segment built in memory from slices of 90 notes.
    @Test func aLargeSliceWritesItsForwardIndexInPieces() throws {
        var notes = Self.uniqueNotes(seed: 29, count: 300)
        for index in stride(from: 0, to: 300, by: 60) {
            notes[index].body = (0..<400).map { notes[(index + $0) % 300].body }.joined(separator: "\n\n")
        }
        var inMemory = Self.slices(of: notes, size: 90)
        let whole = SegmentBuilder.build(slices: &inMemory)
        let directory = try TestVault()
        for limit in [1 << 30, 90_000] {
            var slices = Self.slices(of: notes, size: notes.count)
            #expect(slices.count == 1 && slices[0].forward.count > 100_000, "\(slices.first?.forward.count ?? 0) tokens")
            let (segment, written) = try SegmentBuilder.build(slices: &slices, snapshot: directory.root + "/one-\(limit).bin",
                                                              chunkLimit: limit)
            #expect(written != nil, "chunk limit \(limit): nothing written")
            Self.expectSame(segment, whole)
            written?.removal?.wait()
        }
    }

    /// A slice keeps its local term ids in two bytes while it has fewer than 65,535 terms and
    /// widens them once it has more: one slice of 70,000 distinct words (widened on the way)
    /// gives the segment that eight narrow slices give, and phrases across the widening point
    /// are found.
    @Test func aSliceWithMoreThan65535TermsWidensItsIDs() throws {
        var notes: [Note] = []
        for index in 0..<100 {
            var note = Note(path: String(format: "wide-%03d.md", index), folder: "")
            note.title = "alpha beta \(index)"
            let words = (0..<700).map { "u" + String(index * 700 + $0, radix: 36) }
            note.body = "alpha beta " + words.joined(separator: " ") + " gamma delta"
            notes.append(note)
        }
        var one = Self.slices(of: notes, size: notes.count)
        #expect(one.count == 1 && one[0].forward.isWide)
        var eight = Self.slices(of: notes, size: 13)
        #expect(eight.allSatisfy { !$0.forward.isWide })
        let wide = SegmentBuilder.build(slices: &one)
        Self.expectSame(wide, SegmentBuilder.build(slices: &eight))
        #expect(wide.terms.count > 70_000)
        // Through the file as well, and queries against the reference.
        let directory = try TestVault()
        var again = Self.slices(of: notes, size: notes.count)
        let (written, _) = try SegmentBuilder.build(slices: &again, snapshot: directory.root + "/wide.bin", chunkLimit: 3_000)
        Self.expectSame(written, wide)
        let catalog = Catalog(segment: written)
        let reference = ReferenceEvaluator(notes: notes)
        // Note 99's words come after the 65,535th term, note 3's before it.
        func word(_ number: Int) -> String { "u" + String(number, radix: 36) }
        for text in ["\"alpha beta\"", "\"gamma delta\"", word(99 * 700 + 5), "\"\(word(3 * 700)) \(word(3 * 700 + 1))\"",
                     "\"\(word(99 * 700 + 698)) \(word(99 * 700 + 699)) gamma\"", "title:\"beta 99\""] {
            #expect(try Self.expectSameHits(catalog, reference, text) > 0, "\(text) finds nothing")
        }
    }

    /// Where the snapshot cannot be written (here `.quire/cache` is a file), a rebuild builds
    /// in memory and says why the cache was not written.
    @Test func aRebuildThatCannotWriteBuildsInMemory() throws {
        let notes = Self.uniqueNotes(seed: 19, count: 300)
        let (vault, parse) = try Self.vault(of: notes)
        try vault.write(".quire/cache", "not a directory")
        let store = CatalogStore(root: vault.root, paths: vault.notePaths(), rebuild: true, parse: parse)
        #expect(!store.report.cacheWritten && store.report.cacheIssue != nil)
        Self.expectSame(store.catalog.base, Catalog(notes: try Self.indexed(notes, in: vault)).base)
        #expect(try String(contentsOfFile: vault.root + "/.quire/cache", encoding: .utf8) == "not a directory")
    }

    /// A title with 300 times one word caps its posting's title count at 255; the positions of
    /// the postings after it must still be found (the real count is kept aside), in memory
    /// and through the cache file.
    @Test func aSavedSnapshotReplacesTheOldOneAndAFailedSaveKeepsIt() throws {
        let directory = try TestVault()
        let path = directory.root + "/catalog.bin"
        let first = Catalog(notes: Self.uniqueNotes(seed: 5, count: 30))
        let second = Catalog(notes: Self.uniqueNotes(seed: 6, count: 50))
        try CatalogCache.save(first, stamps: [:], to: path)
        try CatalogCache.save(second, stamps: [:], to: path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.root).sorted()
                == ["catalog.bin", "catalog.state"])
        let loaded = try CatalogCache.load(path).0
        #expect(loaded.count == 50)
        #expect((0..<loaded.count).map(loaded.path) == (0..<second.count).map(second.path))
        // A temporary file that cannot be written: the error is reported, the old snapshot stays.
        let blocked = path + ".tmp-\(getpid())"
        try FileManager.default.createDirectory(atPath: blocked, withIntermediateDirectories: false)
        #expect(throws: CacheError.self) { try CatalogCache.save(first, stamps: [:], to: path) }
        try FileManager.default.removeItem(atPath: blocked)
        #expect(try CatalogCache.load(path).0.count == 50)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.root).sorted()
                == ["catalog.bin", "catalog.state"])
    }

    /// A note whose title says "spam" 300 times (its title frequency is capped at 255) and
    /// another one after it.
    static func cappedNotes(heavyBody: String, lightTitle: String, lightBody: String) -> [Note] {
        var heavy = Note(path: "a-heavy.md", folder: "")
        heavy.title = Array(repeating: "spam", count: 300).joined(separator: " ") + " eggs"
        heavy.body = heavyBody
        var light = Note(path: "b-light.md", folder: "")
        light.title = lightTitle
        light.body = lightBody
        return [heavy, light]
    }

    @Test func phrasesAfterACappedPostingAreFound() throws {
        let notes = Self.cappedNotes(heavyBody: "spam eggs and more spam eggs", lightTitle: "breakfast",
                                     lightBody: "green spam eggs and ham") + Self.uniqueNotes(seed: 21, count: 40)
        let catalog = Catalog(notes: notes)
        #expect(catalog.base.postingOverflow.count == 3)
        let directory = try TestVault()
        let path = directory.root + "/catalog.bin"
        try CatalogCache.save(catalog, stamps: [:], to: path)
        let loaded = try CatalogCache.load(path).0
        let reference = ReferenceEvaluator(notes: notes)
        for text in ["\"spam eggs\"", "\"green spam eggs\"", "title:\"spam spam eggs\"", "\"eggs and\"",
                     "\"more spam eggs\"", "\"spam eggs and ham\""] {
            let query = try NoteQuery.parse(text, now: RandomQueryTests.now, timeZone: RandomQueryTests.utc)
            let expected = Set(reference.run(query, sort: .relevance, reverse: false).map(\.0))
            #expect(!expected.isEmpty, "\(text) finds nothing")
            #expect(Set(catalog.run(query, sort: .relevance).map(\.record.path)) == expected, "\(text)")
            #expect(Set(loaded.run(query, sort: .relevance).map(\.record.path)) == expected, "\(text) after loading")
        }
    }

    /// Phrases of every kind agree with the brute-force reference, hits and scores (which
    /// weigh title and other occurrences): random runs of 2–4 words from titles and bodies, in
    /// the title only or anywhere, words repeated, postings whose frequencies are capped.
    @Test func phrasesMatchTheReference() throws {
        let notes = Self.cappedNotes(heavyBody: "spam eggs and more spam eggs spam spam eggs", lightTitle: "spam spam",
                                     lightBody: "green spam eggs and ham spam spam spam") + Self.uniqueNotes(seed: 33, count: 300)
        let catalog = Catalog(notes: notes)
        #expect(catalog.base.postingOverflow.count >= 3)
        let reference = ReferenceEvaluator(notes: notes)
        var queries = RandomQueryTests.QueryGenerator(generator: VaultGenerator(seed: 5), notes: notes)
        var texts = ["\"spam eggs\"", "\"spam spam\"", "\"spam spam spam\"", "title:\"spam spam eggs\"",
                     "title:\"spam spam\"", "\"eggs and\"", "\"spam eggs and ham\"", "\"spam eggs sp*\""]
        for round in 0..<300 {
            let phrase = queries.phrase()
            texts.append(round % 4 == 0 ? "title:" + phrase : phrase)
        }
        var found = 0
        for text in texts where try Self.expectSameHits(catalog, reference, text) > 0 {
            found += 1
        }
        #expect(found > 200)
    }
}
