import Foundation
import QuireCore

/// The catalog of one vault together with its persisted snapshot in `<vault>/.quire/cache/`:
/// what `quire list|search|tags|projects|index` open, and what a long-running process keeps and
/// updates.
public struct CatalogStore: Sendable {
    /// The vault's root directory.
    public let root: String
    /// The catalog, up to date with the paths last given.
    public private(set) var catalog: Catalog
    /// What the last indexing pass did.
    public private(set) var report: IndexReport
    private var stamps: [String: StoredStamp]
    private let parse: NoteParsing

    /// QuireCore's parser (local time zone).
    public static let defaultParser: NoteParsing = { data, path in NoteParser.parse(data, path: path) }

    /// The snapshot file.
    public var cachePath: String { root + "/.quire/cache/catalog.bin" }

    /// Opens the catalog of the vault at `root` for the notes at `paths` (vault-relative, unique;
    /// the CLI passes `vault.notePaths()`): loads the snapshot (a missing, damaged or old one
    /// is rebuilt silently; `rebuild` ignores it), re-reads only files whose stamp changed,
    /// re-parses only those whose content changed, and writes the snapshot back when anything
    /// changed. Never throws: problems are in `report` (`failed`, `cacheIssue`).
    public init(root: String, paths: [String], rebuild: Bool = false,
                parse: @escaping NoteParsing = CatalogStore.defaultParser) {
        self.root = root
        self.parse = parse
        var loaded: (Catalog, [String: StoredStamp])?
        var issue: CacheError?
        if rebuild {
            issue = .missing
        } else {
            do throws(CacheError) {
                loaded = try CatalogCache.load(root + "/.quire/cache/catalog.bin")
            } catch {
                issue = error
            }
        }
        catalog = loaded?.0 ?? Catalog()
        stamps = loaded?.1 ?? [:]
        report = IndexReport()
        refresh(paths: paths)
        report.cacheIssue = issue
        if issue != nil && !report.cacheWritten { writeSnapshot() }
    }

    /// Opens a vault's catalog (see `init(root:paths:rebuild:parse:)`) and returns it with the report.
    public static func open(vaultRoot: String, paths: [String], rebuild: Bool = false,
                            parse: @escaping NoteParsing = CatalogStore.defaultParser) -> (Catalog, IndexReport) {
        let store = CatalogStore(root: vaultRoot, paths: paths, rebuild: rebuild, parse: parse)
        return (store.catalog, store.report)
    }

    /// Checks every file of `paths` again (a long-running process, or after a sync), updates the
    /// catalog incrementally and writes the snapshot when anything changed.
    @discardableResult
    public mutating func refresh(paths: [String]) -> IndexReport {
        let indexer = Indexer(root: root, parse: parse)
        report = indexer.update(&catalog, stamps: &stamps, paths: paths)
        if report.hasChanges || report.touched > 0 { writeSnapshot() }
        return report
    }

    /// Looks at just these paths (e.g. what a sync's tree diff names: changed, added or
    /// deleted notes), updates the catalog incrementally and writes the snapshot when anything
    /// changed. A path whose file is gone is removed.
    @discardableResult
    public mutating func refresh(changedPaths paths: [String]) -> IndexReport {
        let indexer = Indexer(root: root, parse: parse)
        var unique: [String] = []
        var seen = Set<String>()
        for path in paths where seen.insert(path).inserted { unique.append(path) }
        report = indexer.update(&catalog, stamps: &stamps, paths: unique, complete: false)
        if report.hasChanges || report.touched > 0 { writeSnapshot() }
        return report
    }

    /// Writes the snapshot now; a failure is kept in `report.cacheIssue` (searching still works).
    public mutating func writeSnapshot() {
        if catalog.needsCompaction { catalog = catalog.compacted() }
        let directory = root + "/.quire/cache"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            report.cacheIssue = .io(path: directory, message: error.localizedDescription)
            return
        }
        do throws(CacheError) {
            try CatalogCache.save(catalog, stamps: stamps, to: cachePath)
            report.cacheWritten = true
        } catch {
            report.cacheIssue = error
        }
    }

    /// The snippet of a hit's body for a query, read from the note's file (nil when it cannot
    /// be read).
    public func snippet(for hit: SearchHit, query: NoteQuery, words: Int = 30) -> Snippet? {
        guard case .success(let data) = Indexer.readFile(root + "/" + hit.record.path),
              let note = try? parse(data, hit.record.path) else { return nil }
        return Snippet.make(body: note.body, query: query, words: words)
    }
}
