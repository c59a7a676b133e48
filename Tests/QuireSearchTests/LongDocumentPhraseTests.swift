import Foundation
import QuireCore
import QuireTestSupport
import Testing
@testable import QuireSearch

/// The index keeps each token's position in its document in 16 bits; a document of more than
/// `IndexSegment.longDocument` tokens has its phrases found in its forward index instead. Phrases
/// anywhere in such documents — before, across and long after the 65,536th token, repeated, in
/// the title or not — agree with the brute-force reference in a segment built in memory, in one
/// saved and loaded, and in one merged into the snapshot with other changes.
struct LongDocumentPhraseTests {
    /// A note of `count` random words of `words`, with `phrase` at each of `places`.
    static func longNote(path: String, title: String, words: [String], count: Int, phrase: [String], places: [Int],
                         using random: inout SeededGenerator) -> Note {
        var body = (0..<count).map { _ in words[Int.random(in: 0..<words.count, using: &random)] }
        for place in places where place + phrase.count <= body.count {
            body.replaceSubrange(place..<place + phrase.count, with: phrase)
        }
        var note = Note(path: path, folder: "")
        note.title = title
        note.body = body.joined(separator: " ")
        return note
    }

    static func notes() -> [Note] {
        var random = SeededGenerator(seed: 91)
        let words = (0..<300).map { "w\($0)x" }
        // One phrase only past 65,536 tokens, one across it (the title counts as the first
        // tokens), one on both sides, one only before; and a document just short of the limit.
        return [
            longNote(path: "long-a.md", title: "alpha long", words: words, count: 70_000, phrase: ["zulu", "yankee"],
                     places: [65_600, 69_990], using: &random),
            longNote(path: "long-b.md", title: "beta long", words: words, count: 66_000,
                     phrase: ["xray", "whiskey", "victor"], places: [65_532, 65_533, 300], using: &random),
            longNote(path: "long-c.md", title: "zulu yankee", words: words, count: 65_000, phrase: ["zulu", "yankee"],
                     places: [64_990], using: &random),
            longNote(path: "short.md", title: "short", words: words, count: 200, phrase: ["xray", "whiskey"],
                     places: [10], using: &random),
        ] + SegmentBuilderTests.uniqueNotes(seed: 92, count: 60)
    }

    @Test func phrasesOfLongDocumentsMatchTheReference() throws {
        let notes = Self.notes()
        let reference = ReferenceEvaluator(notes: notes)
        var random = SeededGenerator(seed: 93)
        let long = notes[0].body.split(separator: " ").map(String.init)
        var texts = ["\"zulu yankee\"", "\"xray whiskey\"", "\"whiskey victor\"", "\"xray whiskey victor\"",
                     "title:\"zulu yankee\"", "\"alpha long\""]
        // Random pairs of the longest note, most of them past the 65,536th token.
        for _ in 0..<40 {
            let place = Int.random(in: 60_000..<long.count - 1, using: &random)
            texts.append("\"\(long[place]) \(long[place + 1])\"")
        }
        let catalog = Catalog(notes: notes)
        #expect(catalog.base.forwardStarts.span(0, limit: catalog.base.forward.count).count > IndexSegment.longDocument)
        let directory = try TestVault()
        let path = directory.root + "/catalog.bin"
        try CatalogCache.save(catalog, stamps: [:], to: path)
        let loaded = try CatalogCache.load(path).0
        // Merged into the snapshot with an edit of a short note: the long ones' positions copied.
        var changed = loaded
        var edited = notes[3]
        edited.body += " zulu yankee"
        changed.apply(upserts: [AnalyzedNote(note: edited)], removals: [], compacting: false)
        changed.releasePathIndex()
        let (merged, _) = try changed.compacted(snapshot: directory.root + "/merged.bin", chunkLimit: 1 << 12)
        let mergedReference = ReferenceEvaluator(notes: notes.map { $0.path == edited.path ? edited : $0 })
        var unfound: [String] = []
        for text in texts {
            if try SegmentBuilderTests.expectSameHits(catalog, reference, text) == 0 { unfound.append(text) }
            _ = try SegmentBuilderTests.expectSameHits(loaded, reference, text)
            _ = try SegmentBuilderTests.expectSameHits(merged, mergedReference, text)
        }
        #expect(unfound.isEmpty, "no note holds \(unfound)")
    }
}
