import Foundation
import QuireCore
import QuireTestSupport
import Testing
@testable import QuireSearch

/// The integer rank a full sort breaks ties with (`PathRanks`) orders paths as their UTF-8
/// bytes do — `String`'s order for the NFC names file systems give — whatever the order the
/// snapshot stored (`PathOrder`, where a folder comes before a file named like it) and however
/// stale that order is after updates.
struct PathRanksTests {
    /// Names that sort differently as bytes, as a folder tree and as Unicode text: a folder
    /// and a file of one name, names followed by bytes below `/`, case, non-ASCII, and `café`
    /// written precomposed (NFC) and decomposed (NFD), which are two files.
    static let names = ["a", "A", "a b", "a-b", "a.b", "a!", "ab", "b", "Z", "z", "é", "e", "café", "cafe\u{301}",
                        "Ångström", "日本", "notes", "notes 2", "notes-old", "x"]

    static func randomPaths(_ random: inout SeededGenerator, count: Int) -> [String] {
        var seen = Set<ExactPath>()
        var paths: [String] = []
        while paths.count < count {
            let depth = Int.random(in: 1...3, using: &random)
            let parts = (0..<depth).map { _ in names[Int.random(in: 0..<names.count, using: &random)] }
            var path = parts.joined(separator: "/") + ".md"
            if Int.random(in: 0..<4, using: &random) == 0 { path = parts.joined(separator: "/") + "/index.md" }
            if seen.insert(ExactPath(path)).inserted { paths.append(path) }
        }
        return paths
    }

    static func bytesPrecede(_ a: String, _ b: String) -> Bool {
        Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
    }

    /// The documents' paths in rank order are the paths sorted by their bytes.
    static func expectRanks(_ catalog: Catalog, _ documents: [Int], _ note: String) {
        let ranks = PathRanks(catalog, documents)
        let paths = documents.map { catalog.path($0) }
        let byRank = paths.indices.sorted { ranks.ranks[$0] < ranks.ranks[$1] }.map { paths[$0] }
        #expect(byRank == paths.sorted(by: bytesPrecede), "\(note)")
        #expect(ranks.ordered.map { paths[$0] } == byRank, "\(note)")
        #expect(Set(ranks.ranks).count == documents.count, "\(note): ranks are distinct")
    }

    @Test func theByteOrderOfNFCNamesIsStringOrder() {
        var random = SeededGenerator(seed: 5)
        let paths = Self.randomPaths(&random, count: 300)
            .filter { Array($0.utf8) == Array($0.precomposedStringWithCanonicalMapping.utf8) }
        #expect(paths.sorted(by: Self.bytesPrecede) == paths.sorted())
        // …and the stored order is not the byte order: a folder comes before a file named like it.
        #expect(paths.sorted { PathOrder.precedes($0, $1) } != paths.sorted(by: Self.bytesPrecede))
    }

    @Test func ranksFollowTheBytesInMemoryLoadedAndUpdated() throws {
        var random = SeededGenerator(seed: 29)
        let paths = Self.randomPaths(&random, count: 400)
        let notes = paths.map { Note(path: $0, folder: ($0 as NSString).deletingLastPathComponent) }
        let inMemory = Catalog(notes: notes)
        let directory = try TestVault()
        let file = directory.root + "/catalog.bin"
        try CatalogCache.save(inMemory, stamps: [:], to: file)
        var (loaded, _, _) = try CatalogCache.load(file)
        #expect(loaded.loadedOrder != nil)
        for (name, catalog) in [("in memory", inMemory), ("loaded", loaded)] {
            let all = catalog.liveSet.members
            Self.expectRanks(catalog, all, name)
            for round in 0..<20 {
                let some = all.filter { _ in Int.random(in: 0..<3, using: &random) == 0 }
                Self.expectRanks(catalog, some, "\(name) round \(round)")
            }
        }
        // Updated after loading: notes added (new slots past the stored order), removed, and the
        // recent changes rebuilt (their slots renumbered under the stored order).
        for round in 0..<10 {
            let added = Self.randomPaths(&random, count: 30).filter { path in !paths.contains { ExactPath.same($0, path) } }
            loaded.apply(upserts: added.map { AnalyzedNote(note: Note(path: $0, folder: "")) },
                         removals: [paths[round * 7], paths[round * 11 + 1]], compacting: false)
            Self.expectRanks(loaded, loaded.liveSet.members, "updated round \(round)")
            let sorted = loaded.run(NoteQuery(root: .all), sort: .path).map(\.path)
            #expect(sorted == sorted.sorted(by: Self.bytesPrecede))
            #expect(loaded.run(NoteQuery(root: .all), sort: .path, reverse: true).map(\.path) == sorted.reversed())
        }
    }
}
