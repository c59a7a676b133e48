import Foundation
import QuireCore
import QuireKit

/// `quire folders` — every folder with its emoji, sort order and note count.
struct FoldersCommand: Command {
    static let configuration = CommandConfiguration(
        name: "folders",
        abstract: "List folders with their emoji, sort order and note count.",
        usage: "folders [--json]",
        discussion: "Folders configured in .quire/config.yml come first in their sort order, then the others by name.",
        examples: ["quire folders", "quire folders --json"],
        options: [.flag("--json", help: "Print the folders as JSON.")])

    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments.has("--json")
    }

    struct Row {
        var path: String
        var emoji: String?
        var order: Int?
        var notes: Int
    }

    static func rows(vault: Vault) throws -> [Row] {
        let config = try vault.config()
        var counts: [String: Int] = [:]
        for path in try vault.notePaths() {
            let folder = (path as NSString).deletingLastPathComponent
            counts[folder, default: 0] += 1
        }
        var paths = Set(try vault.folders()).union(counts.keys).union(config.folders.map(\.path))
        paths.remove("")
        var rows = paths.map { path -> Row in
            let settings = config.folder(path)
            return Row(path: path, emoji: settings?.emoji, order: settings?.order, notes: counts[path] ?? 0)
        }
        rows.sort { lhs, rhs in
            switch (lhs.order, rhs.order) {
            case let (left?, right?) where left != right: return left < right
            case (.some, nil): return true
            case (nil, .some): return false
            default: return lhs.path < rhs.path
            }
        }
        return [Row(path: "", emoji: nil, order: nil, notes: counts[""] ?? 0)] + rows
    }

    func run(_ context: CommandContext) throws {
        let rows = try Self.rows(vault: context.vault())
        let output = context.output
        if json {
            output.line(JSON.array(rows.map {
                .object([("path", .string($0.path)), ("emoji", .string($0.emoji)), ("order", .int($0.order)),
                         ("notes", .int($0.notes))])
            }).rendered(.output))
            return
        }
        let width = rows.map { ($0.path.isEmpty ? "(root)" : TerminalText.quotedPath($0.path)).count }.max() ?? 0
        for row in rows {
            let label = row.path.isEmpty ? "(root)" : TerminalText.quotedPath(row.path)
            let emoji = row.emoji ?? (row.path.isEmpty ? "🏠" : "📁")
            let count = "\(row.notes) note\(row.notes == 1 ? "" : "s")"
            output.line("\(emoji) \(label)\(String(repeating: " ", count: width - label.count))  \(count)")
        }
    }
}

/// `quire folder add PATH [--emoji E] [--order N]`.
struct FolderAddCommand: Command {
    static let configuration = CommandConfiguration(
        name: "folder add",
        abstract: "Create a folder (and record its emoji and sort order in .quire/config.yml).",
        usage: "folder add PATH [--emoji E] [--order N]",
        examples: ["quire folder add Ideas --emoji 💡", "quire folder add Journal/2026 --order 5"],
        options: [
            .value("--emoji", name: "E", help: "An emoji shown beside the folder."),
            .value("--order", name: "N", help: "Sort order among folders (smaller first)."),
        ],
        positionals: 1...1)

    let path: String
    let emoji: String?
    let order: Int?

    init(_ arguments: ParsedArguments) throws {
        path = arguments.positionals[0]
        emoji = arguments.value("--emoji")
        if let text = arguments.value("--order") {
            guard let number = Int(text) else { throw CLIError.usage("--order takes a whole number, not '\(text)'") }
            order = number
        } else {
            order = nil
        }
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let folder = try NoteFolder.resolve(path, in: vault)
        guard !folder.isEmpty else { throw CLIError.usage("the vault root is always a folder") }
        do {
            try FileManager.default.createDirectory(at: vault.url(for: folder), withIntermediateDirectories: true)
        } catch {
            throw CLIError("cannot create the folder \(folder) (\(error.localizedDescription))")
        }
        if emoji != nil || order != nil {
            var config = try vault.config()
            var settings = config.folder(folder) ?? FolderSettings(path: folder)
            if let emoji { settings.emoji = emoji }
            if let order { settings.order = order }
            try config.setFolder(settings)
            try vault.save(config)
        }
        context.output.line(context.displayPath(folder, vault: vault))
    }
}

/// `quire folder rename OLD NEW` — renames a folder with its notes and settings.
struct FolderRenameCommand: Command {
    static let configuration = CommandConfiguration(
        name: "folder rename",
        abstract: "Rename a folder; its notes, subfolders and settings move with it, and links to its notes follow.",
        usage: "folder rename OLD NEW [--dry-run] [--no-links]",
        discussion: "Every link to a note in the folder, and every relative link in them whose path changes, is rewritten in its own style (Docs/links.md).",
        examples: ["quire folder rename Drafts Scenes", "quire folder rename Drafts Scenes --dry-run"],
        options: MoveOutput.options,
        positionals: 2...2)

    let old: String
    let new: String
    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws {
        old = arguments.positionals[0]
        new = arguments.positionals[1]
        self.arguments = arguments
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let source = try NoteFolder.resolve(old, in: vault)
        let destination = try NoteFolder.resolve(new, in: vault)
        guard !source.isEmpty, !destination.isEmpty else { throw CLIError.usage("the vault root cannot be renamed") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: vault.url(for: source).path, isDirectory: &isDirectory),
              isDirectory.boolValue else {
            throw CLIError("no such folder (\(source))", hint: "'quire folders' lists the folders")
        }
        guard !FileManager.default.fileExists(atPath: vault.url(for: destination).path) else {
            throw CLIError("the folder already exists (\(destination))", hint: "choose a new name, or move notes with 'quire mv'")
        }
        guard !(destination + "/").hasPrefix(source + "/") else {
            throw CLIError("cannot move a folder into itself (\(source))")
        }
        let all = try VaultNotes(context: context)
        var moves: [ExactPath: String] = [:]
        for note in all.notes where ExactPath.isWithin(note.path, source) {
            moves[ExactPath(note.path)] = destination + String(decoding: note.path.utf8.dropFirst(source.utf8.count), as: UTF8.self)
        }
        let report = try NoteMover.run(vault: vault, notes: all.notes, plan: MovePlan(notes: moves, folder: (source, destination)),
                                       options: MoveOutput.options(arguments, context: context))
        MoveOutput.print(report, shown: destination, arguments: arguments, vault: vault, context: context)
        guard !arguments.has("--dry-run") else { return }
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
    }
}

/// `quire folder rm PATH` — removes a folder; its notes move to the vault root (never deleted).
struct FolderRemoveCommand: Command {
    static let configuration = CommandConfiguration(
        name: "folder rm",
        abstract: "Remove a folder: its notes move to the vault root (no note is ever deleted).",
        usage: "folder rm PATH",
        discussion: """
        Notes in the folder and its subfolders move to the root (a name collision gets -2, -3, …), and
        the links to them follow (Docs/links.md).
        Other files (attachments) are left where they are, so the folder stays if it holds any.
        """,
        examples: ["quire folder rm Pitches"],
        positionals: 1...1)

    let path: String

    init(_ arguments: ParsedArguments) throws {
        path = arguments.positionals[0]
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let folder = try NoteFolder.resolve(path, in: vault)
        guard !folder.isEmpty else { throw CLIError.usage("the vault root cannot be removed") }
        var config = try vault.config()
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: vault.url(for: folder).path, isDirectory: &isDirectory)
            && isDirectory.boolValue
        guard exists || config.folder(folder) != nil else {
            throw CLIError("no such folder (\(folder))", hint: "'quire folders' lists the folders")
        }
        // The notes move to the root with the links to them (Docs/links.md, "Renames").
        let all = try VaultNotes(context: context)
        var moves: [ExactPath: String] = [:]
        for note in all.notes.map(\.path) where ExactPath.isWithin(note, folder) {
            moves[ExactPath(note)] = try FileMover.freePath(in: vault, folder: "", fileName: (note as NSString).lastPathComponent,
                                                            avoiding: Set(moves.values))
        }
        let report = try NoteMover.run(vault: vault, notes: all.notes, plan: MovePlan(notes: moves),
                                       options: MoveOptions(now: try context.now()))
        for move in report.moves {
            context.output.line("moved \(context.displayPath(move.from, vault: vault)) → \(context.displayPath(move.to, vault: vault))")
        }
        MoveOutput.printLinks(report, dryRun: false, vault: vault, context: context)
        if exists { Self.removeEmptyFolders(vault.url(for: folder)) }
        if config.folder(folder) != nil {
            try config.removeFolder(folder)
            try vault.save(config)
        }
        let left = FileManager.default.fileExists(atPath: vault.url(for: folder).path)
        context.output.line(left ? "kept \(folder): it still holds files that are not notes" : "removed \(folder)")
    }

    /// Removes empty folders bottom-up; a folder holding any file stays.
    static func removeEmptyFolders(_ url: URL) {
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
