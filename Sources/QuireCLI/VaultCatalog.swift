import Foundation
import QuireCore
import QuireGit
import QuireSearch

/// A vault's catalog, opened for one command: the note paths walked with git's ignore rules, the
/// cached catalog refreshed (only changed files are read again), and the summary warning.
struct VaultCatalog {
    let vault: Vault
    let store: CatalogStore
    /// What the walk of the vault left out (for `quire check`; empty when no walk was needed).
    let skipped: [VaultSkip]
    /// How the catalog was proven up to date.
    let freshness: Freshness
    var catalog: Catalog { store.catalog }
    var report: IndexReport { store.report }

    /// The most notes a watcher's answer may name for a command to look at just those.
    static let namedNotesLimit = 5_000

    /// How a command knew the cached catalog was up to date.
    enum Freshness: Equatable {
        /// Every note's stamp was compared (no watcher running, or `walk` asked for); when a
        /// watcher runs but could not vouch for the vault, why.
        case walk(watcherSaid: String?)
        /// The vault's watcher named the notes that could have changed; only those were checked.
        case watcher(checked: Int)
    }

    /// Opens the catalog of the command's vault; `rebuild` ignores the cache, `walk` looks at
    /// every note even when a watcher runs (`quire check` lists what the walk skips). On a
    /// terminal a long refresh shows a progress line (`IndexProgressLine`; `showProgress`
    /// false, e.g. under `--json`, keeps standard error quiet), erased before this returns.
    static func open(_ context: CommandContext, rebuild: Bool = false, walk: Bool = false,
                     showProgress: Bool = true) throws -> VaultCatalog {
        let vault = try context.vault()
        let line = IndexProgressLine.start(context, shown: showProgress)
        defer { line?.stop() }
        return try open(vault: vault, environment: context.environment, rebuild: rebuild, walk: walk,
                        progress: line?.progress)
    }

    /// Opens the catalog of `vault` (what `open(_:rebuild:walk:)` does, without the command
    /// context: usable from another thread). When `quire watch` runs for the vault and its
    /// answer vouches for the snapshot, only the notes it names are looked at; otherwise every
    /// note's stamp is compared with the snapshot's. `progress` hears how far the refresh got.
    static func open(vault: Vault, environment: [String: String], rebuild: Bool = false,
                     walk: Bool = false, progress: IndexProgress? = nil) throws -> VaultCatalog {
        var store = CatalogStore(loading: vault.root.path, rebuild: rebuild)
        store.progress = progress
        progress?.begin(.scanning)
        var answer = walk ? nil : WatchClient.changes(realRoot: vault.root.path, since: store.watchMark?.token)
        if let given = answer {
            // Only with a watcher: the rules it cannot see are compared by their stamps.
            let rules = IgnoreRules.fingerprint(vault: vault, environment: environment)
            if case .notes = given, store.watchMark?.rules != rules {
                answer = .full(reason: "ignore rules outside the vault changed", given.token)
            }
            store.setWatchMark(WatchMark(token: given.token, rules: rules))
        }
        // Past a few thousand named notes one merge pass over the walk costs less than looking
        // each one up.
        if case .notes(let paths, _)? = answer, paths.count <= Self.namedNotesLimit {
            store.refresh(changedPaths: visible(paths, vault: vault))
            return VaultCatalog(vault: vault, store: store, skipped: [], freshness: .watcher(checked: paths.count))
        }
        let listing = try noteListing(vault, environment: environment, stamps: true)
        store.refresh(paths: listing.notes, stamps: listing.stamps)
        var reason: String?
        switch answer {
        case .full(let said, _)?: reason = said
        case .notes(let paths, _)?: reason = "\(paths.count) notes changed: one walk is quicker"
        case nil: break
        }
        return VaultCatalog(vault: vault, store: store, skipped: listing.skipped, freshness: .walk(watcherSaid: reason))
    }

    /// The paths a watcher named, less those git's ignore rules hide (the walk leaves those out).
    private static func visible(_ paths: [String], vault: Vault) -> [String] {
        guard !paths.isEmpty, let repository = try? Repository.open(at: vault.root) else { return paths }
        return paths.filter { !((try? repository.isIgnored($0)) ?? false) }
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
        createdAtSource = record.createdAtSource
        updatedAtSource = record.updatedAtSource
    }
}

/// Whether any git ignore rule besides quire's own could hide a note.
enum IgnoreRules {
    /// A fingerprint of the ignore-rule files a vault watcher cannot see (they live outside the
    /// vault's folders): `.git/info/exclude`, `.git/config`, the user's git configuration and
    /// global ignore file, and any `excludesFile` those name. Each file's stamp goes in, so an
    /// edit to any of them makes the next command walk the vault.
    static func fingerprint(vault: Vault, environment: [String: String]) -> UInt64 {
        let home = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory())
        let xdg = environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) } ?? home.appendingPathComponent(".config")
        let configs = [home.appendingPathComponent(".gitconfig"), xdg.appendingPathComponent("git/config"),
                       vault.url(for: ".git/config")]
        var files = [vault.url(for: ".git/info/exclude"), xdg.appendingPathComponent("git/ignore")] + configs
        for config in configs {
            guard let text = try? String(contentsOf: config, encoding: .utf8) else { continue }
            for line in text.split(whereSeparator: \.isNewline) {
                let parts = line.split(separator: "=", maxSplits: 1)
                guard parts.count == 2,
                      parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "excludesfile" else { continue }
                var value = parts[1].trimmingCharacters(in: .whitespaces)
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
                if value.hasPrefix("~/") { value = home.path + String(value.dropFirst()) }
                files.append(URL(fileURLWithPath: value, relativeTo: vault.root))
            }
        }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ value: UInt64) { hash = (hash ^ value) &* 0x0000_0100_0000_01B3 }
        for file in files {
            var status = stat()
            guard stat(file.path, &status) == 0 else {
                mix(0)
                continue
            }
            let stamp = FileStamp(status)
            mix(stamp.size)
            mix(UInt64(bitPattern: stamp.modifiedNanoseconds))
            mix(UInt64(bitPattern: stamp.changedNanoseconds))
            mix(stamp.inode)
        }
        return hash
    }

    static func mayApply(vault: Vault, environment: [String: String]) -> Bool {
        // Rules for hidden folders only (quire's own, Obsidian's): no note is ever under them.
        let quireOwn = Set([".quire/local/", ".quire/cache/", ".quire/local", ".quire/cache"] + Vault.obsidianIgnores)
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
