import Foundation
import QuireCore
import QuireSearch

/// One folder of `quire folders`: its vault path (`""`: the root), its display settings from
/// `.quire/config.yml`, and how many notes it holds directly.
public struct FolderRow: Equatable, Sendable {
    /// The folder's vault-relative path; `""` is the root.
    public var path: String
    /// The emoji shown beside it, when configured.
    public var emoji: String?
    /// Its sort order among folders (smaller first), when configured.
    public var order: Int?
    /// The notes directly in it (the catalog's: what the ignore rules hide is not counted).
    public var notes: Int
}

/// What `quire folder rm` did: the notes moved to the root (with the links that followed them),
/// and whether the folder stays because it still holds other files.
public struct FolderRemoval: Sendable {
    /// The moves and link edits.
    public var moves: MoveReport
    /// True when the folder is still there: it holds files that are not notes.
    public var kept: Bool
}

/// The folder workflows: listing folders in their configured order, creating one with its
/// settings, renaming one (its notes, subfolders, settings and merge rules move, and links
/// follow), and removing one (its notes move to the root; no note is ever deleted).
public enum VaultFolders {
    /// Every folder that holds notes, exists on disk (less what the ignore rules hide) or has
    /// settings: the root first, then the configured folders in their sort order, then the
    /// others by name. Note counts come from the session's catalog, as `quire stats` counts them.
    public static func list(_ session: VaultSession) throws -> [FolderRow] {
        let vault = session.vault
        let config = try vault.config()
        var counts: [String: Int] = [:]
        session.catalog.forEachRecordHead { record in
            counts[(record.path as NSString).deletingLastPathComponent, default: 0] += 1
        }
        var paths = Set(try session.folders()).union(counts.keys).union(config.folders.map(\.path))
        paths.remove("")
        var rows = paths.map { path -> FolderRow in
            let settings = config.folder(path)
            return FolderRow(path: path, emoji: settings?.emoji, order: settings?.order, notes: counts[path] ?? 0)
        }
        rows.sort { lhs, rhs in
            switch (lhs.order, rhs.order) {
            case let (left?, right?) where left != right: return left < right
            case (.some, nil): return true
            case (nil, .some): return false
            default: return lhs.path < rhs.path
            }
        }
        return [FolderRow(path: "", emoji: nil, order: nil, notes: counts[""] ?? 0)] + rows
    }

    /// Creates `folder` (with its parents) and records the settings given in `.quire/config.yml`.
    public static func add(_ folder: String, in vault: Vault, emoji: String?, order: Int?) throws {
        do {
            try FileManager.default.createDirectory(at: vault.url(for: folder), withIntermediateDirectories: true)
        } catch {
            throw KitError.cannotCreateFolder(path: folder, reason: error.localizedDescription)
        }
        guard emoji != nil || order != nil else { return }
        var config = try vault.config()
        var settings = config.folder(folder) ?? FolderSettings(path: folder)
        if let emoji { settings.emoji = emoji }
        if let order { settings.order = order }
        try config.setFolder(settings)
        try vault.save(config)
    }

    /// Renames the folder `source` to `destination`: its notes (of `notes`) move with the links
    /// to them (`NoteMover`), and its settings and merge rules follow it unless `options` is a
    /// dry run. Refuses a missing source, an existing destination and a move into itself.
    public static func rename(_ source: String, to destination: String, in vault: Vault, notes: [Note],
                              options: MoveOptions) throws -> MoveReport {
        guard isFolder(source, in: vault) else { throw KitError.noSuchFolder(source) }
        guard !FileManager.default.fileExists(atPath: vault.url(for: destination).path) else {
            throw KitError.folderExists(destination)
        }
        guard !(destination + "/").hasPrefix(source + "/") else { throw KitError.folderIntoItself(source) }
        var moves: [ExactPath: String] = [:]
        for note in notes where ExactPath.isWithin(note.path, source) {
            moves[ExactPath(note.path)] = destination + String(decoding: note.path.utf8.dropFirst(source.utf8.count), as: UTF8.self)
        }
        let report = try NoteMover.run(vault: vault, notes: notes, plan: MovePlan(notes: moves, folder: (source, destination)),
                                       options: options)
        guard !options.dryRun else { return report }
        var config = try vault.config()
        var changed = false
        if config.folder(source) != nil {
            try config.renameFolder(source, to: destination)
            changed = true
        }
        // Merge strategies of the folder follow it (VaultConfig cannot remove a rule yet: the old
        // pattern stays, matching nothing).
        for rule in config.mergeRules where rule.pattern == source || rule.pattern.hasPrefix(source + "/") {
            let pattern = destination + rule.pattern.dropFirst(source.count)
            guard !config.mergeRules.contains(where: { $0.pattern == pattern }) else { continue }
            try config.setMergeRule(MergeRule(pattern: pattern, strategy: rule.strategy))
            changed = true
        }
        if changed { try vault.save(config) }
        return report
    }

    /// Removes `folder`: its notes (of `notes`, subfolders too) move to the vault root (a name
    /// taken gets `-2`, `-3`, …) with the links to them, empty folders go, and its settings
    /// leave `.quire/config.yml`. Other files stay, and the folder with them.
    public static func remove(_ folder: String, in vault: Vault, notes: [Note], now: Date) throws -> FolderRemoval {
        var config = try vault.config()
        let exists = isFolder(folder, in: vault)
        guard exists || config.folder(folder) != nil else { throw KitError.noSuchFolder(folder) }
        // The notes move to the root with the links to them (Docs/links.md, "Renames").
        var moves: [ExactPath: String] = [:]
        for note in notes.map(\.path) where ExactPath.isWithin(note, folder) {
            moves[ExactPath(note)] = try FileMover.freePath(in: vault, folder: "", fileName: (note as NSString).lastPathComponent,
                                                            avoiding: Set(moves.values))
        }
        let report = try NoteMover.run(vault: vault, notes: notes, plan: MovePlan(notes: moves), options: MoveOptions(now: now))
        if exists { removeEmptyFolders(vault.url(for: folder)) }
        if config.folder(folder) != nil {
            try config.removeFolder(folder)
            try vault.save(config)
        }
        return FolderRemoval(moves: report, kept: FileManager.default.fileExists(atPath: vault.url(for: folder).path))
    }

    /// Whether the vault path `folder` is a folder on disk.
    static func isFolder(_ folder: String, in vault: Vault) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: vault.url(for: folder).path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Removes empty folders bottom-up; a folder holding any file stays.
    private static func removeEmptyFolders(_ url: URL) {
        let manager = FileManager.default
        guard let children = try? manager.contentsOfDirectory(at: url, includingPropertiesForKeys: [.isDirectoryKey, .isSymbolicLinkKey]) else { return }
        for child in children {
            let values = try? child.resourceValues(forKeys: [.isDirectoryKey, .isSymbolicLinkKey])
            if values?.isDirectory == true && values?.isSymbolicLink != true { removeEmptyFolders(child) }
        }
        if (try? manager.contentsOfDirectory(atPath: url.path))?.isEmpty == true {
            try? manager.removeItem(at: url)
        }
    }
}
