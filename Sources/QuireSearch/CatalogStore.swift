import Foundation
import QuireCore

/// The catalog of one vault together with its persisted snapshot in `<vault>/.quire/cache/`:
/// what `quire list|search|tags|projects|index` open, and what a long-running process keeps and
/// updates.
public struct CatalogStore: Sendable {
    /// The vault's root directory.
    public let root: String
    /// The catalog, up to date with the paths last given.
    public internal(set) var catalog: Catalog
    /// What the last indexing pass did.
    public internal(set) var report: IndexReport
    var stamps: Stamps
    /// The base segment `catalog.bin` holds and the file's id: while the catalog's base is that
    /// segment, a snapshot rewrites only the small state file.
    var savedBase: (table: RecordTable, id: UInt64)?
    private let parse: NoteParsing
    /// The clock the racily-clean rule reads (`FileStamp.now`; a test passes one ahead of it
    /// so that the files it just wrote are trusted without waiting out the window).
    private let clock: @Sendable () -> Int64
    /// The watcher position the catalog is up to date with (stored in the snapshot).
    public private(set) var watchMark: WatchMark?
    /// Where refreshes report how far they got (nil: nowhere).
    public var progress: IndexProgress?
    /// Whether the recent changes are merged into the main segment only once they reach half
    /// of it (`Catalog.compactsNow`): what a command that answers right after a pull sets.
    public var defersCompaction: Bool {
        get { catalog.defersCompaction }
        set { catalog.defersCompaction = newValue }
    }
    /// The snapshot on disk is not usable or lags the catalog: the next refresh writes it.
    var needsWrite: Bool
    /// Whether a snapshot that rewrites only the small state file is written on a thread of
    /// its own while the caller goes on answering (`WritesBehind`: `WritesBehind.shared.finish()`
    /// waits for it, and the next write waits for it first): what a command sets, so that its
    /// answer does not wait for the write. Such a write's failure is not reported (the next
    /// command finds the snapshot behind and reads the changed notes again).
    public var writesBehind = false
    /// Where its writes behind are started and waited for (a test gives writes of its own).
    var writes = WritesBehind.shared
    /// Why the snapshot could not be used when loading, for the first refresh's report.
    private var loadIssue: CacheError?
    /// Done once the base file a rebuild replaced is gone (waited for after the state file
    /// is written).
    var oldBaseRemoval: DispatchGroup?

    /// QuireCore's parser (local time zone).
    public static let defaultParser: NoteParsing = { data, path in NoteParser.parse(data, path: path) }

    /// The snapshot file.
    public var cachePath: String { root + "/.quire/cache/catalog.bin" }

    /// The stored stamps: in place in the loaded snapshot, with the paths looked at since
    /// (a few edits build no table of every path), or a table by path (by its bytes:
    /// `ExactPath`).
    enum Stamps {
        case snapshot(CachedStamps)
        /// The snapshot's stamps and, for each path looked at since loading, its stamp now
        /// (nil: gone).
        case patched(CachedStamps, [ExactPath: StoredStamp?])
        case table([ExactPath: StoredStamp])
        /// A rebuild's stamps by slot, for the catalog whose base records are the table given
        /// (a table by path is made only when one is needed).
        case rebuilt(RecordTable, RebuiltStamps)

        var table: [ExactPath: StoredStamp] {
            switch self {
            case .rebuilt(_, let rebuilt): return rebuilt.table
            case .snapshot(let cached): return cached.dictionary
            case .patched(let cached, let changes):
                var table = cached.dictionary
                for (path, stamp) in changes { table[path] = stamp }
                return table
            case .table(let table): return table
            }
        }

        /// The snapshot and the changes since, unless the stamps are a table.
        var loaded: (CachedStamps, [ExactPath: StoredStamp?])? {
            switch self {
            case .snapshot(let cached): return (cached, [:])
            case .patched(let cached, let changes): return (cached, changes)
            case .table, .rebuilt: return nil
            }
        }

        /// The stamps of `paths` as stored (loaded or changed since), by path.
        func stored(_ paths: [String]) -> [ExactPath: StoredStamp] {
            let stamp = lookup
            var some: [ExactPath: StoredStamp] = [:]
            for path in paths { some[ExactPath(path)] = stamp(path) }
            return some
        }

        /// The stamp of a path as stored (loaded or changed since), one path at a time (for a
        /// rebuild's stamps a table by path is made first, once).
        var lookup: (String) -> StoredStamp? {
            switch self {
            case .snapshot(let cached): return { cached.lookup($0) }
            case .patched(let cached, let changes): return { changes[ExactPath($0)] ?? cached.lookup($0) }
            case .table(let table): return { table[ExactPath($0)] }
            case .rebuilt(_, let rebuilt):
                let table = rebuilt.table
                return { table[ExactPath($0)] }
            }
        }

        /// These stamps with `table`'s entries for `paths` (a path missing from it is gone).
        func updating(_ paths: [String], from table: [ExactPath: StoredStamp]) -> Stamps {
            switch self {
            case .table(var all):
                for path in paths.map(ExactPath.init) { all[path] = table[path] }
                return .table(all)
            case .rebuilt(_, let rebuilt):
                return Stamps.table(rebuilt.table).updating(paths, from: table)
            case .snapshot(let cached), .patched(let cached, _):
                var changes = loaded?.1 ?? [:]
                for path in paths.map(ExactPath.init) { changes[path] = .some(table[path]) }
                return .patched(cached, changes)
            }
        }
    }

    /// Opens the catalog of the vault at `root` for the notes at `paths` (vault-relative, unique;
    /// the CLI passes the vault's listing, in `PathOrder`, with each file's `stamps`; without
    /// stamps each file is looked at here): loads the snapshot (a missing, damaged or old one
    /// is rebuilt silently; `rebuild` ignores it), re-reads only files whose stamp changed,
    /// re-parses only those whose content changed, and writes the snapshot back when anything
    /// changed. Never throws: problems are in `report` (`failed`, `cacheIssue`).
    public init(root: String, paths: [String], stamps given: [FileStamp?] = [], rebuild: Bool = false,
                parse: @escaping NoteParsing = CatalogStore.defaultParser,
                clock: @escaping @Sendable () -> Int64 = FileStamp.now) {
        self.init(loading: root, rebuild: rebuild, parse: parse, clock: clock)
        refresh(paths: paths, stamps: given)
    }

    /// Loads the snapshot of the vault at `root` without looking at any file (a missing,
    /// damaged or old one gives an empty catalog and `report.cacheIssue`; `rebuild` ignores
    /// it). The caller brings it up to date with a `refresh`: the first one writes the snapshot
    /// when the loaded one was not usable.
    public init(loading root: String, rebuild: Bool = false, parse: @escaping NoteParsing = CatalogStore.defaultParser,
                clock: @escaping @Sendable () -> Int64 = FileStamp.now) {
        self.root = root
        self.parse = parse
        self.clock = clock
        var loaded: (Catalog, CachedStamps, CatalogCache.Extras)?
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
        stamps = loaded.map { .snapshot($0.1) } ?? .table([:])
        savedBase = loaded.map { ($0.0.base.records, $0.2.baseID) }
        watchMark = loaded?.2.mark
        needsWrite = issue != nil
        loadIssue = issue
        report = IndexReport()
        report.cacheIssue = issue
    }

    /// Opens a vault's catalog (see `init(root:paths:rebuild:parse:)`) and returns it with the report.
    public static func open(vaultRoot: String, paths: [String], stamps: [FileStamp?] = [], rebuild: Bool = false,
                            parse: @escaping NoteParsing = CatalogStore.defaultParser) -> (Catalog, IndexReport) {
        let store = CatalogStore(root: vaultRoot, paths: paths, stamps: stamps, rebuild: rebuild, parse: parse)
        return (store.catalog, store.report)
    }

    /// Checks every file of `paths` again (a long-running process, or after a sync; `stamps`
    /// as in `init`), updates the catalog incrementally and writes the snapshot when anything
    /// changed. Right after loading, the walk is compared with the snapshot in one pass: when
    /// nothing changed, nothing else is done. Notes of `paths` named in `reparsing` are parsed
    /// again even where their files did not change (git's history dates them anew), in the same
    /// pass: each note is parsed once and the snapshot written once.
    @discardableResult
    public mutating func refresh(paths: [String], stamps given: [FileStamp?] = [], reparsing: [String] = []) -> IndexReport {
        let indexer = Indexer(root: root, parse: parse, snapshot: SnapshotTarget(path: cachePath), progress: progress,
                              clock: clock)
        let again = Set(reparsing.map(ExactPath.init))
        if case .snapshot(let cached) = stamps, let difference = cached.compare(paths: paths, stamps: given) {
            var indices = difference.changed
            if !again.isEmpty {
                // `paths` are in `PathOrder` (the compare checked it): each one to parse again
                // is found by binary search, not by looking every walked path up.
                let listed = Set(indices)
                indices += again.compactMap { CachedStamps.index(of: $0.string, in: paths) }.filter { !listed.contains($0) }
                indices.sort()
            }
            if indices.isEmpty && difference.removed.isEmpty {
                setReport(unchangedReport)
                if needsWrite { writeSnapshot() }
                return report
            }
            // Only the stamps of the paths that differ: no table of every path.
            let changed = indices.map { paths[$0] }
            let changedStamps = given.isEmpty ? [] : indices.map { given[$0] }
            var table = stamps.stored(changed + difference.removed)
            Self.forget(again, in: &table)
            setReport(indexer.update(&catalog, stamps: &table, paths: changed, given: changedStamps,
                                    complete: false, removing: difference.removed), indexer)
            stamps = rebuiltStamps(indexer) ?? stamps.updating(changed + difference.removed, from: table)
        } else {
            var table = stamps.table
            Self.forget(again, in: &table)
            setReport(indexer.update(&catalog, stamps: &table, paths: paths, given: given), indexer)
            stamps = rebuiltStamps(indexer) ?? .table(table)
        }
        if report.hasChanges || report.touched > 0 || needsWrite { writeSnapshot() }
        return report
    }

    /// Records the watcher position the catalog is now up to date with; the snapshot is
    /// written at the next refresh (or `writeSnapshot`), even when no note changed.
    public mutating func setWatchMark(_ mark: WatchMark?) {
        guard mark != watchMark else { return }
        watchMark = mark
        needsWrite = true
    }

    /// Looks at just these paths (e.g. what a sync's tree diff names: changed, added or
    /// deleted notes), updates the catalog incrementally and writes the snapshot when anything
    /// changed. A path whose file is gone is removed, and so is each path of `hidden` (notes the
    /// ignore rules hide now: their files stay, the catalog drops them unread). Notes the
    /// catalog holds at `reparsing` are parsed again in the same pass (as in
    /// `refresh(paths:stamps:reparsing:)`).
    @discardableResult
    public mutating func refresh(changedPaths given: [String], hidden: [String] = [], reparsing: [String] = []) -> IndexReport {
        let again = stamps.stored(reparsing)
        let paths = given + again.keys.map(\.string).sorted(by: ExactPath.precedes)
        guard !paths.isEmpty || !hidden.isEmpty else {
            setReport(unchangedReport)
            if needsWrite { writeSnapshot() }
            return report
        }
        let indexer = Indexer(root: root, parse: parse, snapshot: SnapshotTarget(path: cachePath), progress: progress,
                              clock: clock)
        var unique: [String] = []
        var seen = Set<ExactPath>()
        for path in paths where seen.insert(ExactPath(path)).inserted { unique.append(path) }
        // A rebuild's stamps by slot become a table here, once (the pass updates them by path).
        if case .rebuilt(_, let rebuilt) = stamps { stamps = .table(rebuilt.table) }
        let dropped = hidden.filter { !seen.contains(ExactPath($0)) }
        // The stamps of just these paths: no table of every path.
        var table = stamps.stored(unique + dropped)
        Self.forget(Set(again.keys), in: &table)
        setReport(indexer.update(&catalog, stamps: &table, paths: unique, complete: false, removing: dropped), indexer)
        stamps = rebuiltStamps(indexer) ?? stamps.updating(unique + dropped, from: table)
        if report.hasChanges || report.touched > 0 || needsWrite { writeSnapshot() }
        return report
    }

    /// Replaces the stamps of `paths` in `table` (those it holds) by a stamp no file has and a
    /// hash no content has: the pass reads and parses those files again.
    private static func forget(_ paths: Set<ExactPath>, in table: inout [ExactPath: StoredStamp]) {
        for key in paths where table[key] != nil {
            table[key] = StoredStamp(stamp: FileStamp(size: .max, modifiedNanoseconds: 0, changedNanoseconds: 0, inode: 0),
                                     contentHash: 0)
        }
    }

    /// The stamps of every note when `indexer`'s pass was a rebuild (which left the table of
    /// stamps by path empty: `Indexer.update`), by slot of the catalog it built; nil otherwise.
    private func rebuiltStamps(_ indexer: Indexer) -> Stamps? {
        indexer.snapshot?.rebuilt.map { .rebuilt(catalog.base.records, $0) }
    }

    /// The report of a pass that found nothing to do.
    private var unchangedReport: IndexReport {
        var unchanged = IndexReport()
        unchanged.total = catalog.count
        unchanged.notesWithProblems = catalog.problemCount
        return unchanged
    }

    /// Sets `report` to a pass's report; the first one also says why the snapshot loaded was
    /// not usable. A rebuild that wrote the base snapshot as it went (`indexer.snapshot`) leaves
    /// only the state file to write.
    private mutating func setReport(_ pass: IndexReport, _ indexer: Indexer? = nil) {
        if let written = indexer?.snapshot?.written {
            savedBase = (catalog.base.records, written.id)
            oldBaseRemoval = written.removal
        }
        report = pass
        report.cacheIssue = loadIssue
        loadIssue = nil
    }

    /// The id of `catalog.bin` while the catalog's base is its segment, and the content hash of
    /// each note of the recent changes, by slot after the base: what the link table tells
    /// unchanged notes by (`LinkTable.updated`). The id is nil when the base is no file's or a
    /// recent note has no stamp.
    var linkTableBasis: (baseID: UInt64?, recentHashes: [UInt64]) {
        let baseID = savedBase.flatMap { $0.table === catalog.base.records ? $0.id : nil }
        let recent = catalog.base.count..<catalog.capacity
        guard !recent.isEmpty else { return (baseID, []) }
        // Each path looked up as it comes: no table of them made.
        let stamp = stamps.lookup
        let hashes = recent.compactMap { stamp(catalog.path($0))?.contentHash }
        return (hashes.count == recent.count ? baseID : nil, hashes)
    }

    /// The content hash of each live note as stored, by slot (0 for none): what the link table
    /// tells unchanged notes by when the catalog's base changed. Read by slot from the stamps
    /// where they are kept by slot (a loaded snapshot, a rebuild), else by path.
    func contentHashesBySlot() -> (Int) -> UInt64 {
        let catalog = catalog
        let baseCount = catalog.base.count
        switch stamps {
        case .rebuilt(let base, let rebuilt) where base === catalog.base.records && rebuilt.stamps.count == catalog.capacity:
            return { rebuilt.stamps[$0]?.contentHash ?? 0 }
        case .snapshot(let cached) where cached.base === catalog.base.records:
            return { $0 < baseCount ? cached.stored($0).contentHash : cached.lookup(catalog.path($0))?.contentHash ?? 0 }
        case .patched(let cached, let changes) where cached.base === catalog.base.records:
            var touched: [Int: UInt64] = [:]
            for (path, stamp) in changes {
                if let slot = cached.slot(of: path.string), slot < baseCount { touched[slot] = stamp?.contentHash ?? 0 }
            }
            return { slot in
                if slot < baseCount { return touched[slot] ?? cached.stored(slot).contentHash }
                let path = catalog.path(slot)
                return (changes[ExactPath(path)] ?? cached.lookup(path))?.contentHash ?? 0
            }
        default:
            let table = stamps.table
            return { table[ExactPath(catalog.path($0))]?.contentHash ?? 0 }
        }
    }

    /// The snippet of a hit's body for a query, read from the note's file (nil when it cannot
    /// be read); only the body is read (`NoteParser.body(of:)`), not the front matter's fields.
    public func snippet(for hit: SearchHit, query: NoteQuery, words: Int = 30) -> Snippet? {
        guard case .success(let data) = Indexer.readFile(root + "/" + hit.path) else { return nil }
        return Snippet.make(body: NoteParser.body(of: data), query: query, words: words)
    }
}
