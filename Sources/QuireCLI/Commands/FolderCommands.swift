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

    func run(_ context: CommandContext) throws {
        let rows = try VaultFolders.list(VaultCatalog.open(context, showProgress: !json).session)
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
        try VaultFolders.add(folder, in: vault, emoji: emoji, order: order)
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
        let all = try VaultNotes(context: context)
        let report = try VaultFolders.rename(source, to: destination, in: vault, notes: all.notes,
                                             options: MoveOutput.options(arguments, context: context))
        MoveOutput.print(report, shown: destination, arguments: arguments, vault: vault, context: context)
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
        let all = try VaultNotes(context: context)
        let removal = try VaultFolders.remove(folder, in: vault, notes: all.notes, now: try context.now())
        for move in removal.moves.moves {
            context.output.line("moved \(context.displayPath(move.from, vault: vault)) → \(context.displayPath(move.to, vault: vault))")
        }
        MoveOutput.printLinks(removal.moves, dryRun: false, vault: vault, context: context)
        context.output.line(removal.kept ? "kept \(folder): it still holds files that are not notes" : "removed \(folder)")
    }
}
