import Foundation
import QuireCore
import QuireSearch

/// A vault opened for a front end: the vault, its git ignore rules (read with the front end's
/// environment: `HOME` and `XDG_CONFIG_HOME` say where the user's rules are) and its catalog,
/// proven up to date (`FreshCatalog`, notes dated by git's history where their front matter says
/// nothing). The one way the command line, the language server and the sync daemon open a
/// catalog; a long-running front end keeps it and refreshes it as files change.
public struct VaultSession {
    /// The vault.
    public let vault: Vault
    /// The environment the session was opened with.
    public let environment: [String: String]
    private let rules: (any IgnoreRules)?
    private var store: CatalogStore
    /// What the walk of the vault left out when the session opened (empty when no walk was needed).
    public let skipped: [VaultSkip]
    /// How the catalog was proven up to date when the session opened.
    public let freshness: Freshness
    /// The attachments the opening walk listed (asked for and walked), else nil; forgotten at
    /// the first refresh.
    private var listedAttachments: [String]?

    /// The ways a catalog is proven up to date (`FreshCatalog.Freshness`).
    public typealias Freshness = FreshCatalog.Freshness

    /// Opens the catalog of `vault`: the snapshot in `.quire/cache/` is loaded and only changed
    /// notes are read. `rebuild` ignores the snapshot; `walk` looks at every note even when a
    /// watcher runs (`quire check` lists what the walk skips); `progress` hears how far the
    /// refresh got. With `changedPaths` (what a sync wrote), only those notes are looked at: no
    /// walk (the next session's walk or watcher proves the rest). With `attachments`, a walk
    /// that proves the catalog lists the attachments too, for `attachmentPaths()`. With
    /// `writesBehind`, the snapshot of a few changed notes is written beside the caller's
    /// answer: the process calls `WritesBehind.shared.finish()` before it ends.
    public init(vault: Vault, environment: [String: String], rebuild: Bool = false, walk: Bool = false,
                progress: IndexProgress? = nil, changedPaths: [String]? = nil, attachments: Bool = false,
                writesBehind: Bool = false) throws {
        self.vault = vault
        self.environment = environment
        rules = GitIgnoreRules.of(vault, environment: environment)
        let fresh = try HistoryDates.openCatalog(vault: vault, rules: rules, environment: environment,
                                                 rebuild: rebuild, walk: walk, progress: progress, changedPaths: changedPaths,
                                                 attachments: attachments, writesBehind: writesBehind)
        store = fresh.store
        skipped = fresh.skipped
        freshness = fresh.freshness
        listedAttachments = fresh.attachments
    }

    /// The catalog: every note's metadata and the full-text index.
    public var catalog: Catalog { store.catalog }
    /// What opening (or the last refresh) did: notes read, failures, notes with problems.
    public var report: IndexReport { store.report }

    /// The passage of a hit's note that best matches `query` (read from disk).
    public func snippet(for hit: SearchHit, query: NoteQuery) -> Snippet? {
        store.snippet(for: hit, query: query)
    }

    /// The vault's other files (what links to attachments resolve against), less what the
    /// ignore rules hide: those the opening walk listed until the first refresh, else those the
    /// vault's watcher keeps (`WatchClient.attachments`), else from a walk now.
    public func attachmentPaths() throws -> [String] {
        if let listedAttachments { return listedAttachments }
        if let watched = WatchClient.attachments(realRoot: vault.root.path) { return try visible(watched) }
        let paths = try vault.attachmentPaths(ignore: try rules?.ignoreMatcher())
        rules?.walkFinished()
        return paths
    }

    /// The catalog's resolved links over `attachments` (`attachmentPaths()`): the table kept in
    /// `.quire/cache/links.bin`, brought up to date (`CatalogStore.linkTable`).
    /// With `resolvingWhole` false, nil instead of resolving it whole when no kept table can
    /// be brought up to date (`CatalogStore.keptLinkTable`): for a command that reads one
    /// note's links and can answer at query time.
    public func linkTable(attachments: [String], resolvingWhole: Bool = true) -> LinkTable? {
        resolvingWhole ? store.linkTable(attachments: attachments) : store.keptLinkTable(attachments: attachments)
    }

    /// Keeps `texts` (context lines by edge, as a backlinks answer read them) in `table` and
    /// writes it back (`CatalogStore.keepLinkContexts`).
    public func keepLinkContexts(_ texts: [Int: String], of table: LinkTable) {
        store.keepLinkContexts(texts, of: table)
    }

    /// The watcher's attachments (in `PathOrder`) less what the rules hide, asked as the walk
    /// asks: each folder above them once, before its files, and nothing below a hidden folder.
    /// The verdicts are not recorded (`walkFinished`): they are the walk's to keep.
    private func visible(_ attachments: [String]) throws -> [String] {
        guard let rules, !attachments.isEmpty else { return attachments }
        let ignore = try rules.ignoreMatcher()
        // By bytes: two folders whose names differ only in Unicode form are two folders.
        var hiddenFolders: [ExactPath: Bool] = [ExactPath(""): false]
        func isHidden(folder: String) -> Bool {
            if let known = hiddenFolders[ExactPath(folder)] { return known }
            let parent = folder.lastIndex(of: "/").map { String(folder[..<$0]) } ?? ""
            let hidden = isHidden(folder: parent) || ignore(folder, true)
            hiddenFolders[ExactPath(folder)] = hidden
            return hidden
        }
        return attachments.filter { path in
            let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
            return !isHidden(folder: folder) && !ignore(path, false)
        }
    }

    /// The vault's folders (`Vault.folders`), less what the ignore rules hide.
    public func folders() throws -> [String] {
        let folders = try vault.folders(ignore: try rules?.ignoreMatcher())
        rules?.walkFinished()
        return folders
    }

    /// Whether the ignore rules hide the file at vault path `path` (false when they cannot be read).
    public func isIgnored(_ path: String) -> Bool {
        (try? rules?.isIgnoredFile(path)) ?? false
    }

    /// Looks again at the notes a watcher named (created, written, deleted, renamed) and updates
    /// the catalog incrementally (`FreshCatalog.refresh`). Returns the paths looked at (`shown`)
    /// and those the rules hide now that the catalog held (`hidden`: dropped from it, for the
    /// front end to drop too).
    @discardableResult
    public mutating func refresh(notes paths: [String]) -> (shown: [String], hidden: [String]) {
        listedAttachments = nil
        return FreshCatalog.refresh(&store, named: paths, rules: rules)
    }

    /// Walks the whole vault again (folders appeared or moved, ignore rules changed, events were
    /// dropped) and brings the catalog up to date.
    public mutating func refreshAll() throws {
        listedAttachments = nil
        let listing = try FreshCatalog.noteListing(vault, rules: rules, stamps: true)
        store.refresh(paths: listing.notes, stamps: listing.stamps)
    }
}
