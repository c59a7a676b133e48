import Foundation
import QuireCore
import Synchronization
import Testing
@testable import QuireSearch

/// The freshness workflow through its `IgnoreRules` port, without git: what the rules hide is
/// not in the catalog, and a hidden folder is not entered.
@Suite("FreshCatalog and the IgnoreRules port")
struct FreshCatalogTests {
    /// Rules that hide the folder `Hidden` and every `*.secret.md`, counting what is asked.
    final class StubRules: IgnoreRules, Sendable {
        let asked = Mutex<[String]>([])
        func ignoreMatcher() throws -> (_ path: String, _ isFolder: Bool) -> Bool {
            { path, isFolder in
                self.asked.withLock { $0.append(path) }
                return isFolder ? path == "Hidden" : path.hasSuffix(".secret.md")
            }
        }
        func isIgnoredFile(_ path: String) throws -> Bool { path.hasSuffix(".secret.md") }
        func ignoreRuleFiles(environment: [String: String]) throws -> [String] { [] }
    }

    @Test func hiddenNotesAreLeftOutAndHiddenFoldersNotEntered() throws {
        let folder = try TestVault()
        try FileManager.default.createDirectory(atPath: folder.root + "/.quire", withIntermediateDirectories: true)
        for path in ["a.md", "b.secret.md", "Hidden/c.md", "Shown/d.md", "Shown/e.secret.md"] {
            try folder.write(path, "---\ntitle: \(path)\n---\nText.\n")
        }
        let rules = StubRules()
        let fresh = try FreshCatalog.open(vault: Vault(at: URL(fileURLWithPath: folder.root)), rules: rules,
                                          environment: [:], walk: true)
        #expect(fresh.store.catalog.records.map(\.path).sorted() == ["Shown/d.md", "a.md"])
        #expect(fresh.freshness == .walk(watcherSaid: nil))
        #expect(!rules.asked.withLock { $0 }.contains("Hidden/c.md"))
    }

    /// Notes whose dates git's history changed (a pull, a checkout) are parsed in the same pass
    /// as the notes whose files changed: each once, and the catalog is what a rebuild gives.
    @Test func notesToParseAgainJoinTheOnePassOfChangedFiles() throws {
        let folder = try TestVault()
        try FileManager.default.createDirectory(atPath: folder.root + "/.quire", withIntermediateDirectories: true)
        for name in ["a", "b", "c", "d", "e"] { try folder.write("\(name).md", "---\ntitle: \(name)\n---\nFirst.\n") }
        let vault = try Vault(at: URL(fileURLWithPath: folder.root))
        _ = try FreshCatalog.open(vault: vault, rules: nil, environment: [:], walk: true)
        for name in ["b", "c"] { try folder.write("\(name).md", "---\ntitle: \(name)\n---\nSecond, longer.\n") }
        let parsed = Mutex<[String]>([])
        let counting: NoteParsing = { data, path in
            parsed.withLock { $0.append(path) }
            return NoteParser.parse(data, path: path)
        }
        let fresh = try FreshCatalog.open(vault: vault, rules: nil, environment: [:], walk: true, parse: counting,
                                          reparsing: ["c.md", "d.md", "gone.md"])
        #expect(parsed.withLock { $0 }.sorted() == ["b.md", "c.md", "d.md"], "each note once, the others not at all")
        let rebuilt = try FreshCatalog.open(vault: vault, rules: nil, environment: [:], rebuild: true, walk: true)
        #expect(fresh.store.catalog.records.sorted { $0.path < $1.path } == rebuilt.store.catalog.records.sorted { $0.path < $1.path })
        #expect(try fresh.store.catalog.run(NoteQuery.parse("longer", now: Date()), sort: .path).map(\.record.path) == ["b.md", "c.md"])
    }

    /// The walked notes to parse again are found among the walk's paths by their place in
    /// `PathOrder` (`/` before every other byte, not plain byte order) and by their bytes: notes
    /// in a subfolder beside names with `-`, and one of two names that differ only in Unicode
    /// form, are each parsed again, and nothing else (every other stamp settled and unchanged).
    @Test func notesToParseAgainAreFoundInTheWalksPathOrderByTheirBytes() throws {
        let folder = try TestVault()
        try FileManager.default.createDirectory(atPath: folder.root + "/.quire", withIntermediateDirectories: true)
        let nfc = "caf\u{E9}.md", nfd = "cafe\u{301}.md"
        let names = (0..<20).map { "n/\($0).md" } + (0..<20).map { "n-\($0).md" } + ["n/m/deep.md", "n.md", nfc, nfd, "z/y.md"]
        for name in names { try folder.write(name, "---\ntitle: t\n---\nFirst.\n") }
        let vault = try Vault(at: URL(fileURLWithPath: folder.root))
        let listing = try FreshCatalog.noteListing(vault, rules: nil, stamps: true)
        var first = CatalogStore(loading: folder.root, clock: TestVault.settledClock)
        first.refresh(paths: listing.notes, stamps: listing.stamps)
        let parsed = Mutex<[[UInt8]]>([])
        let counting: NoteParsing = { data, path in
            parsed.withLock { $0.append(Array(path.utf8)) }
            return NoteParser.parse(data, path: path)
        }
        var store = CatalogStore(loading: folder.root, parse: counting, clock: TestVault.settledClock)
        let again = names.enumerated().filter { $0.offset % 3 == 0 }.map(\.element) + ["n/m/deep.md", nfd, "gone/x.md"]
        store.refresh(paths: listing.notes, stamps: listing.stamps, reparsing: again)
        let expected = Set(again.dropLast().map { Array($0.utf8) })
        #expect(Set(parsed.withLock { $0 }) == expected)
        #expect(parsed.withLock { $0 }.count == expected.count, "each once")
    }

    /// The same with the notes a watcher names instead of a walk.
    @Test func notesToParseAgainJoinTheWatchersNamedNotes() throws {
        let folder = try TestVault()
        try FileManager.default.createDirectory(atPath: folder.root + "/.quire", withIntermediateDirectories: true)
        for name in ["a", "b", "c", "d"] { try folder.write("\(name).md", "---\ntitle: \(name)\n---\nFirst.\n") }
        let vault = try Vault(at: URL(fileURLWithPath: folder.root))
        _ = try FreshCatalog.open(vault: vault, rules: nil, environment: [:], walk: true)
        for name in ["b", "c"] { try folder.write("\(name).md", "---\ntitle: \(name)\n---\nSecond, longer.\n") }
        let parsed = Mutex<[String]>([])
        var store = CatalogStore(loading: folder.root) { data, path in
            parsed.withLock { $0.append(path) }
            return NoteParser.parse(data, path: path)
        }
        FreshCatalog.refresh(&store, named: ["b.md", "c.md"], rules: nil, reparsing: ["c.md", "d.md"])
        #expect(parsed.withLock { $0 }.sorted() == ["b.md", "c.md", "d.md"], "each note once, the others not at all")
        let rebuilt = try FreshCatalog.open(vault: vault, rules: nil, environment: [:], rebuild: true, walk: true)
        #expect(store.catalog.records.sorted { $0.path < $1.path } == rebuilt.store.catalog.records.sorted { $0.path < $1.path })
    }
}

