import Foundation
import QuireCore
import Testing
@testable import QuireSearch

/// A resident process gives back the pages of the snapshot a pass read (`releaseReadPages`):
/// what it reads afterwards comes back unchanged from the file, and a catalog built in memory
/// is left alone (its memory is the only copy).
@Suite struct ReleasedPagesTests {
    func seed(_ vault: TestVault) throws {
        for index in 0..<300 {
            try vault.write("notes/n\(index).md", "---\ntitle: Note \(index)\ntags: [t\(index % 5)]\n---\nword\(index) and [[n\((index + 1) % 300)]]\n")
        }
    }

    func records(_ catalog: Catalog) -> [NoteRecord] {
        var all: [NoteRecord] = []
        catalog.forEachRecord { all.append($0) }
        return all.sorted { ExactPath.precedes($0.path, $1.path) }
    }

    @Test func aLoadedCatalogReadsTheSameAfterGivingBackItsPages() throws {
        let vault = try TestVault()
        try seed(vault)
        let built = vault.open()
        let loaded = vault.open()
        #expect(loaded.report.cacheIssue == nil)
        let before = records(loaded.catalog)
        #expect(before.count == 300)
        loaded.catalog.releaseReadPages()
        #expect(records(loaded.catalog) == before)
        #expect(loaded.catalog.record(path: "notes/n7.md")?.title == "Note 7")
        let hits = try loaded.catalog.run(NoteQuery.parse("word42", now: Date()), sort: .path).map(\.record.path)
        #expect(hits == ["notes/n42.md"])
        // Built in memory: nothing is given back, nothing is lost.
        let rebuilt = vault.open(rebuild: true)
        rebuilt.catalog.releaseReadPages()
        #expect(records(rebuilt.catalog) == records(built.catalog))
        #expect(records(rebuilt.catalog) == before)
    }
}
