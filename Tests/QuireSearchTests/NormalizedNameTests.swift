import Foundation
import QuireCore
import Testing
@testable import QuireSearch

/// Two files whose names differ only in Unicode normalization — `café.md` precomposed (NFC) and
/// decomposed (NFD, as macOS writes names) — are two files on Linux and two paths to git, but one
/// Swift `String`. The catalog keeps them as two notes, whichever way it is brought up to date.
@Suite struct NormalizedNameTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    let composed = "caf\u{E9}.md"
    let decomposed = "cafe\u{301}.md"

    /// The paths a query finds, as their bytes (a `String` comparison would not tell them apart).
    func found(_ store: CatalogStore, _ text: String) throws -> [[UInt8]] {
        try store.catalog.run(NoteQuery.parse(text, now: Self.now), sort: .path).map { Array($0.record.path.utf8) }
    }

    func bytes(_ paths: [String]) -> Set<[UInt8]> { Set(paths.map { Array($0.utf8) }) }

    /// The walk's listing: the names as the directory holds them, in `PathOrder`.
    func listing(_ vault: TestVault) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: vault.root).filter { $0.hasSuffix(".md") }
            .sorted { PathOrder.precedes($0, $1) }
    }

    @Test func namesEqualUnderNormalizationAreTwoNotes() throws {
        let vault = try TestVault()
        try vault.write(composed, "---\ntitle: Composed\n---\napple\n")
        try vault.write(decomposed, "---\ntitle: Decomposed\n---\nbirch\n")
        try vault.write("d.md", "---\ntitle: Other\n---\ncedar\n")
        let names = try listing(vault)
        try #require(bytes(names) == bytes([composed, decomposed, "d.md"]), "the file system kept both names")

        for rebuild in [true, false] {
            try? FileManager.default.removeItem(atPath: vault.root + "/.quire")
            // Rebuilt from nothing, and built by an incremental pass over an empty snapshot.
            // A clock past the racy window: the stamps are stored as they are (the edits below change sizes).
            let clock = TestVault.settledClock
            if !rebuild { _ = CatalogStore(root: vault.root, paths: ["d.md"], parse: vault.parser, clock: clock) }
            let store = CatalogStore(root: vault.root, paths: names, rebuild: rebuild, parse: vault.parser, clock: clock)
            #expect(store.catalog.count == 3, "rebuild: \(rebuild)")
            #expect(bytes(store.catalog.records.map(\.path)) == bytes(names))
            #expect(try found(store, "apple") == [Array(composed.utf8)])
            #expect(try found(store, "birch") == [Array(decomposed.utf8)])
            #expect(store.catalog.record(path: decomposed)?.title == "Decomposed")
            #expect(store.catalog.record(path: composed)?.title == "Composed")
            let again = CatalogStore(root: vault.root, paths: names, parse: vault.parser, clock: clock)
            #expect(!again.report.hasChanges && again.report.touched == 0, "\(again.report)")
            #expect(again.catalog.count == 3)
        }

        // One of them edited: the other stays as it was.
        try vault.write(decomposed, "---\ntitle: Decomposed\n---\nbirch dogwood\n")
        var store = CatalogStore(root: vault.root, paths: names, parse: vault.parser)
        #expect(bytes(store.report.changed) == bytes([decomposed]))
        #expect(store.catalog.count == 3)
        #expect(try found(store, "dogwood") == [Array(decomposed.utf8)])
        #expect(try found(store, "apple") == [Array(composed.utf8)])

        // Named by a watcher, one at a time.
        try vault.write(composed, "---\ntitle: Composed\n---\napple elder\n")
        store.refresh(changedPaths: [composed])
        #expect(bytes(store.report.changed) == bytes([composed]))
        #expect(store.catalog.count == 3)
        #expect(try found(store, "elder") == [Array(composed.utf8)])
        #expect(try found(store, "dogwood") == [Array(decomposed.utf8)])

        // Many changes at once build the table of every path (not the snapshot's binary search).
        for index in 0..<300 { try vault.write("n\(index).md", "---\ntitle: N\(index)\n---\nfig\n") }
        let many = try listing(vault)
        store.refresh(paths: many)
        #expect(store.catalog.count == 303)
        try vault.remove(composed)
        store.refresh(paths: try listing(vault))
        #expect(bytes(store.report.removed) == bytes([composed]))
        #expect(store.catalog.count == 302)
        #expect(try found(store, "dogwood") == [Array(decomposed.utf8)])
        #expect(try found(store, "elder").isEmpty)
        let reopened = CatalogStore(root: vault.root, paths: try listing(vault), parse: vault.parser)
        #expect(!reopened.report.hasChanges && reopened.catalog.count == 302, "\(reopened.report)")
    }
}
