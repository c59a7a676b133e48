import Foundation
import QuireCore
import QuireGit
import QuireSearch

/// A vault's catalog, opened for one command: the note paths walked with git's ignore rules, the
/// cached catalog refreshed (only changed files are read again), and the summary warning.
struct VaultCatalog {
    let vault: Vault
    let store: CatalogStore
    var catalog: Catalog { store.catalog }
    var report: IndexReport { store.report }

    /// Opens the catalog of the command's vault; `rebuild` ignores the cache.
    static func open(_ context: CommandContext, rebuild: Bool = false) throws -> VaultCatalog {
        let vault = try context.vault()
        let paths = try notePaths(vault)
        let store = CatalogStore(root: vault.root.path, paths: paths, rebuild: rebuild)
        return VaultCatalog(vault: vault, store: store)
    }

    /// Every note path of the vault, honouring `.gitignore` when the vault is a git repository.
    static func notePaths(_ vault: Vault) throws -> [String] {
        guard let repository = try? Repository.open(at: vault.root) else { return try vault.notePaths() }
        return try vault.notePaths { path, isFolder in
            (try? repository.isIgnored(isFolder ? path + "/" : path)) ?? false
        }
    }

    /// The one summary warning of DESIGN.md §2 (and files that could not be read at all).
    func warnAboutProblems(_ output: Output) {
        let count = report.notesWithProblems
        if count > 0 {
            let noun = count == 1 ? "1 note has" : "\(count) notes have"
            output.error("quire: warning: \(noun) unreadable front matter — run 'quire check'")
        }
        if !report.failed.isEmpty {
            let noun = report.failed.count == 1 ? "1 file" : "\(report.failed.count) files"
            output.error("quire: warning: \(noun) could not be read — run 'quire check'")
        }
    }
}

extension Note {
    /// A note value from catalog metadata (the body is not kept in the catalog: it is empty).
    init(record: NoteRecord) {
        self.init(path: record.path, folder: record.folder, id: record.id, title: record.title,
                  hasTitle: record.frontMatter.contains { $0.key == "title" }, tags: record.tags,
                  project: record.project, draft: record.draft, pinned: record.pinned, color: record.color,
                  mood: record.mood, priority: record.priority, aliases: record.aliases,
                  createdAt: record.createdAt, updatedAt: record.updatedAt, words: record.words, body: "",
                  frontMatter: record.frontMatter, format: .yaml, problems: record.problems)
    }
}
