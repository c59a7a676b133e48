import QuireCore

/// A vault's catalog proven up to date: the cached snapshot loaded and refreshed (only changed
/// notes are read again), with the vault's ignore rules applied. The one entry point a front
/// end calls before answering from the catalog.
public struct FreshCatalog: Sendable {
    /// The refreshed store (its catalog and report).
    public let store: CatalogStore
    /// What the walk of the vault left out (for `quire check`; empty when no walk was needed).
    public let skipped: [VaultSkip]
    /// How the catalog was proven up to date.
    public let freshness: Freshness
    /// The vault's attachments (files that are not notes, less what the rules hide, in
    /// `PathOrder`) when `open` was asked for them and walked the vault; nil otherwise.
    public var attachments: [String]?

    /// The most notes a watcher's answer may name for only those to be looked at.
    public static let namedNotesLimit = 5_000

    /// How the catalog was known to be up to date.
    public enum Freshness: Equatable, Sendable {
        /// Every note's stamp was compared (no watcher running, or `walk` asked for); when a
        /// watcher runs but could not vouch for the vault, why.
        case walk(watcherSaid: String?)
        /// The vault's watcher named the notes that could have changed; only those were checked.
        case watcher(checked: Int)
    }

    /// Opens and refreshes the catalog of `vault`; `rules` hide files (nil: none apply, the
    /// vault is not a git repository). `rebuild` ignores the cache; `walk` looks at every note
    /// even when a watcher runs. When `quire watch` runs for the vault and its answer vouches
    /// for the snapshot, only the notes it names are looked at; otherwise the vault is walked
    /// and every note's stamp compared with the snapshot's (one `stat` per note).
    ///
    /// The recent changes are merged into the main segment only once they reach half of it
    /// (`CatalogStore.defersCompaction`): a command right after a pull does not stall on it.
    ///
    /// `parse` reads a note (QuireKit's fills in git's dates); `reparsing` names notes parsed
    /// again though their files did not change (git's history moved on: a pull, a checkout),
    /// in the same pass as the notes whose files changed: each is parsed once and the snapshot
    /// written once; it is asked for once the vault is walked (or the watcher answered), so
    /// what gives it may work it out meanwhile. With `attachments`, a walk lists the vault's
    /// attachments too (`attachments`). With `writesBehind`, the snapshot of a few changed
    /// notes is written beside the caller's answer (`CatalogStore.writesBehind`). `loaded` is
    /// given the catalog as the snapshot holds it, before anything is looked at.
    public static func open(vault: Vault, rules: (any IgnoreRules)?, environment: [String: String],
                            rebuild: Bool = false, walk: Bool = false, progress: IndexProgress? = nil,
                            parse: @escaping NoteParsing = CatalogStore.defaultParser,
                            reparsing: @autoclosure () -> [String] = [], attachments: Bool = false,
                            writesBehind: Bool = false, loaded: (Catalog) -> Void = { _ in }) throws -> FreshCatalog {
        var store = CatalogStore(loading: vault.root.path, rebuild: rebuild, parse: parse)
        loaded(store.catalog)
        store.progress = progress
        store.writesBehind = writesBehind
        // A command answers first: merging the whole vault waits for a sync or a bigger change.
        store.defersCompaction = true
        progress?.begin(.scanning)
        var answer = walk ? nil : WatchClient.changes(realRoot: vault.root.path, since: store.watchMark?.token)
        if let given = answer {
            // Only with a watcher: the rules it cannot see are compared by their stamps.
            let fingerprint = try rules?.fingerprint(environment: environment) ?? 0
            if case .notes = given, store.watchMark?.rules != fingerprint {
                answer = .full(reason: "ignore rules outside the vault changed", given.token)
            }
            store.setWatchMark(WatchMark(token: given.token, rules: fingerprint))
        }
        // Past a few thousand named notes one merge pass over the walk costs less than looking
        // each one up.
        if case .notes(let paths, _)? = answer, paths.count <= namedNotesLimit {
            refresh(&store, named: paths, rules: rules, reparsing: reparsing())
            return FreshCatalog(store: store, skipped: [], freshness: .watcher(checked: paths.count))
        }
        let listing = try noteListing(vault, rules: rules, stamps: true, attachments: attachments, writesBehind: writesBehind)
        store.refresh(paths: listing.notes, stamps: listing.stamps, reparsing: reparsing())
        var reason: String?
        switch answer {
        case .full(let said, _)?: reason = said
        case .notes(let paths, _)?: reason = "\(paths.count) notes changed: one walk is quicker"
        case nil: break
        }
        return FreshCatalog(store: store, skipped: listing.skipped, freshness: .walk(watcherSaid: reason),
                            attachments: attachments ? listing.attachments : nil)
    }

    /// The vault's listing (notes with their stamps when asked for, attachments when asked for)
    /// less what `rules` hide; hidden folders are not entered. Rules that cannot be read at all
    /// (a damaged git index) hide nothing: a note is never hidden by mistake. With
    /// `writesBehind`, the walk's folder listings are saved behind the caller's answer.
    public static func noteListing(_ vault: Vault, rules: (any IgnoreRules)?, stamps: Bool,
                                   attachments: Bool = false, writesBehind: Bool = false) throws -> VaultListing {
        let matcher = rules.flatMap { try? $0.ignoreMatcher() }
        let listed = matcher == nil ? nil : rules.map { rules in { rules.folderListed($0, holdsGitignore: $1) } }
        let listing = try vault.listing(stamps: stamps, attachments: attachments, ignore: matcher, folderListed: listed,
                                        writesBehind: writesBehind)
        rules?.walkFinished()
        return listing
    }

    /// Looks again at the notes a watcher named (created, written, deleted, renamed): those
    /// `rules` show are read again where they changed, those they hide leave the catalog, as the
    /// walk leaves them out. Returns the paths looked at (`shown`) and those the rules hide that
    /// the catalog held (`hidden`). Notes at `reparsing` that the rules show are parsed again
    /// in the same pass (git's history dates them anew).
    @discardableResult
    public static func refresh(_ store: inout CatalogStore, named paths: [String], rules: (any IgnoreRules)?,
                               reparsing: [String] = []) -> (shown: [String], hidden: [String]) {
        let shown = visible(paths, rules: rules)
        let kept = Set(shown.map(ExactPath.init))
        let hidden = paths.filter { !kept.contains(ExactPath($0)) && store.catalog.record(path: $0) != nil }
        store.refresh(changedPaths: shown, hidden: hidden, reparsing: visible(reparsing, rules: rules))
        return (shown, hidden)
    }

    /// The paths a watcher named, less those the rules hide (the walk leaves those out).
    static func visible(_ paths: [String], rules: (any IgnoreRules)?) -> [String] {
        guard let rules, !paths.isEmpty else { return paths }
        return paths.filter { !((try? rules.isIgnoredFile($0)) ?? false) }
    }
}
