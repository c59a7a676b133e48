import Foundation
import QuireCore
import QuireGit
import QuireSearch

/// A vault's catalog, opened for one command: the note paths walked with git's ignore rules, the
/// cached catalog refreshed (only changed files are read again), and the summary warning.
struct VaultCatalog {
    let vault: Vault
    let store: CatalogStore
    /// What the walk of the vault left out (for `quire check`).
    let skipped: [VaultSkip]
    var catalog: Catalog { store.catalog }
    var report: IndexReport { store.report }

    /// Opens the catalog of the command's vault; `rebuild` ignores the cache.
    static func open(_ context: CommandContext, rebuild: Bool = false) throws -> VaultCatalog {
        try open(vault: context.vault(), environment: context.environment, rebuild: rebuild)
    }

    /// Opens the catalog of `vault` (what `open(_:rebuild:)` does, without the command context:
    /// usable from another thread).
    static func open(vault: Vault, environment: [String: String], rebuild: Bool = false) throws -> VaultCatalog {
        let listing = try noteListing(vault, environment: environment, stamps: true)
        let store = CatalogStore(root: vault.root.path, paths: listing.notes, stamps: listing.stamps, rebuild: rebuild)
        return VaultCatalog(vault: vault, store: store, skipped: listing.skipped)
    }

    /// Every note path of the vault, honouring git's ignore rules when the vault is a git
    /// repository.
    static func notePaths(_ vault: Vault, environment: [String: String]) throws -> [String] {
        try noteListing(vault, environment: environment, stamps: false).notes
    }

    /// The vault's listing (notes with their stamps when asked for), honouring git's ignore
    /// rules when the vault is a git repository. When no rule can apply (the only
    /// `.gitignore` is the root one with quire's own `.quire/` lines, no `info/exclude` rules,
    /// no global excludes file) libgit2 is not even started: read commands stay fast.
    static func noteListing(_ vault: Vault, environment: [String: String], stamps: Bool) throws -> VaultListing {
        var nested = false
        var listing = try vault.listing(stamps: stamps) { path, isFolder in
            if isFolder, FileManager.default.fileExists(atPath: vault.url(for: path + "/.gitignore").path) { nested = true }
            return false
        }
        guard nested || IgnoreRules.mayApply(vault: vault, environment: environment),
              let repository = try? Repository.open(at: vault.root) else { return listing }
        // One walk: libgit2 applies the rules of a note's parent folders too.
        let kept = listing.notes.indices.filter { !((try? repository.isIgnored(listing.notes[$0])) ?? false) }
        if kept.count < listing.notes.count {
            listing.notes = kept.map { listing.notes[$0] }
            if !listing.stamps.isEmpty { listing.stamps = kept.map { listing.stamps[$0] } }
        }
        return listing
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
    /// The front matter is decoded from the snapshot only when asked for: resolving a NOTE
    /// argument among 100,000 notes needs paths, ids and titles, not every key.
    init(record: NoteRecord, withFrontMatter: Bool = true) {
        let frontMatter = withFrontMatter ? record.frontMatter : []
        self.init(path: record.path, folder: record.folder, id: record.id, title: record.title,
                  hasTitle: withFrontMatter ? frontMatter.contains { $0.key == "title" } : true, tags: record.tags,
                  project: record.project, draft: record.draft, pinned: record.pinned, color: record.color,
                  mood: record.mood, priority: record.priority, aliases: record.aliases,
                  createdAt: record.createdAt, updatedAt: record.updatedAt, words: record.words, body: "",
                  frontMatter: frontMatter, format: .yaml, problems: record.problems)
    }
}

/// Whether any git ignore rule besides quire's own could hide a note.
enum IgnoreRules {
    static func mayApply(vault: Vault, environment: [String: String]) -> Bool {
        let quireOwn: Set<String> = [".quire/local/", ".quire/cache/", ".quire/local", ".quire/cache"]
        if hasRules(vault.url(for: ".gitignore"), except: quireOwn) { return true }
        if hasRules(vault.url(for: ".git/info/exclude"), except: []) { return true }
        let home = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory())
        let xdg = environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) } ?? home.appendingPathComponent(".config")
        if hasRules(xdg.appendingPathComponent("git/ignore"), except: []) { return true }
        for config in [home.appendingPathComponent(".gitconfig"), xdg.appendingPathComponent("git/config"),
                       vault.url(for: ".git/config")] {
            if let text = try? String(contentsOf: config, encoding: .utf8), text.lowercased().contains("excludesfile") { return true }
        }
        return false
    }

    /// Whether the file holds a rule (not blank, not a comment) outside `except`.
    private static func hasRules(_ url: URL, except: Set<String>) -> Bool {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return false }
        return text.split(whereSeparator: \.isNewline).contains { line in
            let rule = line.trimmingCharacters(in: .whitespaces)
            return !rule.isEmpty && !rule.hasPrefix("#") && !except.contains(rule)
        }
    }
}
