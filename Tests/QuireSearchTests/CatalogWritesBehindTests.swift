import Foundation
@testable import QuireCore
import Synchronization
import Testing
@testable import QuireSearch

/// A command's snapshot and folder listings written behind its answer (`WritesBehind`): the
/// catalog answers at once, and once `WritesBehind.finish()` returns the files hold what a
/// write in place would have written, so the next opening reads no note or folder again.
@Suite("The snapshot written behind a command's answer", .serialized)
struct CatalogWritesBehindTests {
    /// Writes of this test's own: no other test's writes count among them, or are waited for.
    let writes = WritesBehind()

    /// A vault of `count` notes with a snapshot whose base `catalog.bin` holds.
    static func vault(_ count: Int) throws -> (TestVault, [String]) {
        let folder = try TestVault()
        try FileManager.default.createDirectory(atPath: folder.root + "/.quire", withIntermediateDirectories: true)
        let names = (0..<count).map { "n/\($0).md" }
        for name in names { try folder.write(name, "---\ntitle: \(name)\n---\nFirst words.\n") }
        var store = CatalogStore(loading: folder.root, clock: TestVault.settledClock)
        store.refresh(paths: names)
        return (folder, names)
    }

    /// Refreshes `store` as a command does: from a walk of the vault with every note's stamp.
    @discardableResult
    static func refresh(_ store: inout CatalogStore, _ folder: TestVault) throws -> IndexReport {
        let listing = try FreshCatalog.noteListing(Vault(at: URL(fileURLWithPath: folder.root)), rules: nil, stamps: true)
        return store.refresh(paths: listing.notes, stamps: listing.stamps)
    }

    /// The notes a store parsed.
    final class Parsed: Sendable {
        let paths = Mutex<[String]>([])
        var list: [String] { paths.withLock { $0 } }
        func clear() { paths.withLock { $0 = [] } }
    }

    /// A store loaded from the snapshot, counting the notes it parses in `parsed`.
    static func reopened(_ folder: TestVault, _ parsed: Parsed) -> CatalogStore {
        CatalogStore(loading: folder.root, parse: { data, path in
            parsed.paths.withLock { $0.append(path) }
            return NoteParser.parse(data, path: path)
        }, clock: TestVault.settledClock)
    }

    /// The paths of the notes `words` finds, in path order.
    static func hits(_ catalog: Catalog, _ words: String) throws -> [String] {
        let results = try catalog.run(NoteQuery.parse(words, now: Date()), sort: .path)
        return results.map { $0.record.path }
    }

    @Test func theStateWrittenBehindIsWhatTheNextOpeningReads() throws {
        let (folder, names) = try Self.vault(40)
        for name in names[10..<13] { try folder.write(name, "---\ntitle: \(name)\n---\nSecond words, changed.\n") }
        let parsed = Parsed()
        var store = Self.reopened(folder, parsed)
        store.writesBehind = true
        store.writes = writes
        store.defersCompaction = true  // as a command has it: no new base, only the state
        let report = try Self.refresh(&store, folder)
        #expect(report.changed.count == 3 && report.cacheWritten)
        // The catalog answers while the state is being written.
        #expect(try Self.hits(store.catalog, "changed") == Array(names[10..<13]).sorted())
        writes.finish()

        parsed.clear()
        var next = Self.reopened(folder, parsed)
        let again = try Self.refresh(&next, folder)
        #expect(parsed.list.isEmpty, "the state written behind holds the three notes")
        #expect(again.changed.isEmpty && !again.cacheWritten)
        #expect(next.catalog.records.sorted { $0.path < $1.path } == store.catalog.records.sorted { $0.path < $1.path })
    }

    /// A write made after one behind waits for it first (`writeSnapshot` finishes the writes
    /// running): the older state can never land over the newer one.
    @Test func aLaterWriteWaitsForTheOneBehind() throws {
        let (folder, names) = try Self.vault(30)
        let parsed = Parsed()
        var store = Self.reopened(folder, parsed)
        store.writesBehind = true
        store.writes = writes
        store.defersCompaction = true
        for round in 0..<2 {
            try folder.write(names[round], "---\ntitle: t\n---\nRound \(round) edit.\n")
            try folder.write("n/new-\(round).md", "---\ntitle: new\n---\nAdded in round \(round).\n")
            try Self.refresh(&store, folder)
            // The first refresh after loading writes behind; the second one (its stamps a table
            // by then) writes in place, after waiting for the first.
            #expect(writes.pending == (round == 0 ? 1 : 0), "round \(round)")
        }
        writes.finish()
        parsed.clear()
        var next = Self.reopened(folder, parsed)
        try Self.refresh(&next, folder)
        #expect(parsed.list.isEmpty, "the last state is on disk: \(parsed.list)")
        #expect(next.catalog.count == 32)
        #expect(try Self.hits(next.catalog, "added") == (0..<2).map { "n/new-\($0).md" })
    }

    /// The walk's folder listings saved behind the answer: once `WritesBehind.finish()`
    /// returns, the next walk reads no folder again.
    @Test func folderListingsSavedBehindAreWhatTheNextWalkReads() throws {
        let (folder, _) = try Self.vault(12)
        // A clock a second ahead: the folders just changed are trusted (no racily-clean wait).
        func walker(behind: Bool) -> VaultWalker {
            var walker = VaultWalker(realRoot: folder.root, ignore: nil)
            walker.clock = TestVault.settledClock
            walker.savesBehind = behind
            walker.writes = writes
            return walker
        }
        _ = try walker(behind: false).walk(stamps: true)
        try folder.write("n/added.md", "---\ntitle: added\n---\nNew.\n")
        try folder.write("m/other.md", "---\ntitle: other\n---\nNew.\n")
        let walked = try walker(behind: true).walk(stamps: true)
        #expect(walked.foldersRead >= 2 && walked.notes.count == 14)
        #expect(writes.pending == 1)
        writes.finish()
        #expect(try walker(behind: false).walk(stamps: true).foldersRead == 0, "the listings saved behind are on disk")
    }
}
