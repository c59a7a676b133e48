import QuireCore

extension FreshCatalog {
    /// Brings the catalog of `vault` up to date with the notes at `changedPaths` only (what a
    /// sync wrote: the notes it stamped and those the remote changed, named by its own tree
    /// diff), without walking the vault; `reparsing` as in `open` (in the same pass). Every
    /// other note keeps what the snapshot says: the next command that opens the catalog still
    /// proves it fresh by its walk or its watcher, so this only takes the sync's own changes off
    /// that command's path. Paths that are not notes (attachments, hidden folders, `.quire/`) or
    /// that `rules` hide are left out. Without a usable snapshot, the whole vault is indexed as
    /// `open` does.
    public static func refresh(vault: Vault, rules: (any IgnoreRules)?, environment: [String: String],
                               changedPaths: [String], parse: @escaping NoteParsing = CatalogStore.defaultParser,
                               reparsing: [String] = []) throws -> FreshCatalog {
        var store = CatalogStore(loading: vault.root.path, parse: parse)
        guard store.report.cacheIssue == nil else {
            return try open(vault: vault, rules: rules, environment: environment, parse: parse, reparsing: reparsing)
        }
        let notes = changedPaths.filter(isNotePath)
        store.refresh(changedPaths: visible(notes, rules: rules), reparsing: visible(reparsing.filter(isNotePath), rules: rules))
        return FreshCatalog(store: store, skipped: [], freshness: .walk(watcherSaid: nil))
    }

    /// Whether a vault-relative path can be a note: a `.md` file outside `.git/`, `.quire/` and
    /// hidden folders (the walk's rule; ignore rules are applied apart).
    static func isNotePath(_ path: String) -> Bool {
        path.hasSuffix(".md") && Vault.hiddenComponent(of: path) == nil
    }
}
