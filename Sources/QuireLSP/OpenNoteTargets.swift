import QuireCore
import QuireSearch

/// The names links resolve against while notes are open: the catalog's (the files on disk) with
/// the open buffers' titles and aliases in place of their files' — and notes that exist only in
/// a buffer so far.
struct OpenNoteTargets: LinkTargetIndex {
    let catalog: CatalogLinkTargets
    let open: LinkTargetTable
    let openPaths: Set<String>

    /// The catalog's names, overridden by `entries` (the open notes).
    init(catalog: Catalog, attachments: [String], entries: [NoteEntry]) {
        self.catalog = CatalogLinkTargets(catalog: catalog, attachments: attachments)
        open = LinkTargetTable(notes: entries.map { LinkTargetTable.Entry(path: $0.path, title: $0.title, aliases: $0.aliases) })
        openPaths = Set(entries.map(\.path))
    }

    func files(atPathKey key: String) -> [String] {
        Self.union(catalog.files(atPathKey: key), open.files(atPathKey: key))
    }

    func files(withNameKey key: String) -> [String] {
        Self.union(catalog.files(withNameKey: key), open.files(withNameKey: key))
    }

    func notes(withTitleKey key: String) -> [String] {
        Self.union(catalog.notes(withTitleKey: key).filter { !openPaths.contains($0) }, open.notes(withTitleKey: key))
    }

    func notes(withAliasKey key: String) -> [String] {
        Self.union(catalog.notes(withAliasKey: key).filter { !openPaths.contains($0) }, open.notes(withAliasKey: key))
    }

    private static func union(_ first: [String], _ second: [String]) -> [String] {
        second.isEmpty ? first : Array(Set(first).union(second)).sorted()
    }
}
