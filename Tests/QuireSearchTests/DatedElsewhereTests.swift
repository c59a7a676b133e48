import Foundation
import QuireCore
import Testing
@testable import QuireSearch

/// Whether a catalog holds a note with a date from elsewhere than its front matter
/// (`Catalog.hasNotesDatedElsewhere`): read from the records' flag bytes, in the main segment
/// and the recent changes alike, kept in the snapshot, and only live notes count.
@Suite struct DatedElsewhereTests {
    static let dated = "---\ntitle: t\ncreatedAt: 2026-11-01T10:00:00Z\nupdatedAt: 2026-11-02T10:00:00Z\n---\nWords.\n"

    static func refreshed(_ folder: TestVault) throws -> CatalogStore {
        var store = CatalogStore(loading: folder.root, clock: TestVault.settledClock)
        let listing = try FreshCatalog.noteListing(Vault(at: URL(fileURLWithPath: folder.root)), rules: nil, stamps: true)
        store.refresh(paths: listing.notes, stamps: listing.stamps)
        return store
    }

    @Test func onlyLiveNotesWithoutAFrontMatterDateCount() throws {
        let folder = try TestVault()
        try FileManager.default.createDirectory(atPath: folder.root + "/.quire", withIntermediateDirectories: true)
        for index in 0..<20 { try folder.write("n\(index).md", Self.dated) }
        #expect(try !Self.refreshed(folder).catalog.hasNotesDatedElsewhere, "every note dated by its front matter")
        // Only `updatedAt`: `createdAt` is taken from it, which the history could move earlier.
        try folder.write("half.md", "---\ntitle: h\nupdatedAt: 2026-11-02T10:00:00Z\n---\nWords.\n")
        #expect(try Self.refreshed(folder).catalog.hasNotesDatedElsewhere, "createdAt from the updatedAt key")
        try folder.write("half.md", Self.dated)
        #expect(try !Self.refreshed(folder).catalog.hasNotesDatedElsewhere, "both dates from their own keys")
        // Recent changes: one note without dates (the file's time dates it), then none again.
        try folder.write("half.md", "---\ntitle: h\n---\nWords.\n")
        #expect(try Self.refreshed(folder).catalog.hasNotesDatedElsewhere, "dated by the file's time")
        #expect(try Self.refreshed(folder).catalog.hasNotesDatedElsewhere, "kept in the snapshot")
        try FileManager.default.removeItem(atPath: folder.root + "/half.md")
        #expect(try !Self.refreshed(folder).catalog.hasNotesDatedElsewhere, "a removed note does not count")
        // The main segment: a note of it edited to have no front matter at all.
        try folder.write("n3.md", "# No front matter\n")
        let store = try Self.refreshed(folder)
        #expect(store.catalog.hasNotesDatedElsewhere)
        let rebuilt = CatalogStore.open(vaultRoot: folder.root, paths: (0..<20).map { "n\($0).md" }, rebuild: true).0
        #expect(rebuilt.hasNotesDatedElsewhere)
        let flagged = (0..<rebuilt.base.count).filter { rebuilt.base.records.isDatedElsewhere($0) }.map { rebuilt.path($0) }
        #expect(flagged == ["n3.md"])
    }
}
