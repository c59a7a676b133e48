import Foundation
import QuireCore
import QuireTestSupport
import Testing
@testable import QuireSearch

/// A snapshot keeps its slots' paths apart from their records (`PathColumn`): a segment loaded
/// from a file reads each path there, and it must be the path its record holds, whichever
/// writer wrote the file.
struct PathColumnTests {
    /// Every path a table gives (from its column when it has one) is its record's.
    static func expectColumn(_ records: RecordTable, _ comment: String = "") {
        for index in 0..<records.count {
            let path = records.path(index)
            let recorded = records.transientRecord(index).path
            #expect(path == recorded, "\(comment) slot \(index): \(path) instead of \(recorded)")
        }
    }

    /// A base written whole, then recent changes over the loaded base written to the state file
    /// (a command's write): both segments reloaded read their paths from their columns, and each
    /// is the record's, the renamed and added notes' included.
    @Test func aDeltaOverALoadedBaseAndItsReloadReadTheirPathColumns() throws {
        let notes = SegmentBuilderTests.uniqueNotes(seed: 61, count: 400)
        let directory = try TestVault()
        let path = directory.root + "/catalog.bin"
        try CatalogCache.save(Catalog(notes: notes), stamps: [:], to: path)
        var (loaded, _, extras) = try CatalogCache.load(path)
        #expect(loaded.base.records.hasPathColumn)
        Self.expectColumn(loaded.base.records, "loaded base")
        var renamed = notes[3]
        renamed.path = "Renamed/é " + renamed.path
        var edited = notes[10]
        edited.body += "\n\nedited"
        let added = SegmentBuilderTests.uniqueNotes(seed: 62, count: 5).filter { note in !notes.contains { $0.path == note.path } }
        loaded.apply(upserts: ([renamed, edited] + added).map(AnalyzedNote.init(note:)), removals: [notes[3].path],
                     compacting: false)
        #expect(loaded.delta.count == 2 + added.count)
        try CatalogCache.save(loaded, stamps: [:], to: path, baseID: extras.baseID)
        let (reloaded, _, _) = try CatalogCache.load(path)
        #expect(reloaded.base.records.hasPathColumn && reloaded.delta.records.hasPathColumn)
        Self.expectColumn(reloaded.base.records, "reloaded base")
        Self.expectColumn(reloaded.delta.records, "reloaded delta")
        #expect((0..<reloaded.delta.count).contains { reloaded.delta.records.path($0) == renamed.path })
        let live = (0..<reloaded.capacity).filter(reloaded.isLive).map(reloaded.path).sorted()
        let wanted = (notes.map(\.path).filter { $0 != notes[3].path } + [renamed.path] + added.map(\.path)).sorted()
        #expect(live == wanted)
    }
}
