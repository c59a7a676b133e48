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

