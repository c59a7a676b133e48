import Foundation
import QuireCore
import QuireKit

/// `quire mv NOTE FOLDER` — moves a note to another folder (does not stamp updatedAt).
struct MoveCommand: Command {
    static let configuration = CommandConfiguration(
        name: "mv",
        abstract: "Move a note to another folder (created if missing).",
        usage: "mv NOTE FOLDER",
        discussion: "FOLDER is relative to the vault root; '' or '/' is the root. The file name is kept (a collision gets -2).",
        examples: ["quire mv \"Woody's last ride\" Pitches", "quire mv 3f2b /"],
        positionals: 2...2)

    let note: String
    let folder: String

    init(_ arguments: ParsedArguments) throws {
        note = arguments.positionals[0]
        folder = arguments.positionals[1]
    }

    func run(_ context: CommandContext) throws {
        let all = try VaultNotes(context: context)
        let found = try all.resolve(note, context: context)
        let target = try NoteFolder.resolve(folder, in: all.vault)
        let name = (found.path as NSString).lastPathComponent
        guard target != found.folder else {
            context.output.line(context.displayPath(found.path, vault: all.vault))
            return
        }
        let destination = try FileMover.freePath(in: all.vault, folder: target, fileName: name)
        try FileMover.move(in: all.vault, from: found.path, to: destination)
        context.output.line(context.displayPath(destination, vault: all.vault))
    }
}

/// `quire rename NOTE NEW-TITLE` — changes the title; the file name follows.
struct RenameCommand: Command {
    static let configuration = CommandConfiguration(
        name: "rename",
        abstract: "Change a note's title; its file name follows the title.",
        usage: "rename NOTE NEW-TITLE",
        discussion: "A title another note has already is refused (it could no longer name one note) unless --force is given.",
        examples: ["quire rename \"Woody's last ride\" \"Woody's last stand\""],
        options: [.flag("--force", help: "Rename even when another note has the title, or the note is read-only.")],
        positionals: 2...2)

    let note: String
    let title: String
    let force: Bool

    init(_ arguments: ParsedArguments) throws {
        note = arguments.positionals[0]
        force = arguments.has("--force")
        title = arguments.positionals[1].trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw CLIError.usage("the new title is empty") }
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let all = try VaultNotes(context: context)
        let found = try all.resolve(note, context: context)
        let namesakes = all.resolver(context).notes(titled: title).filter { $0.path != found.path }
        if !force, let other = namesakes.first {
            throw CLIError("another note is titled '\(other.title)' (\(context.displayPath(other.path, vault: vault)))",
                           hint: "choose another title, or add --force to share it (a shared title no longer names one note)")
        }
        try NoteEditor.apply(vault: vault, path: found.path, now: context.now(), force: force) { document in
            try document.set("title", .string(title))
        }
        let name = Slug.fileName(forTitle: title)
        var destination = found.path
        if name != (found.path as NSString).lastPathComponent {
            destination = try FileMover.freePath(in: vault, folder: found.folder, fileName: name)
            try FileMover.move(in: vault, from: found.path, to: destination)
        }
        context.output.line(context.displayPath(destination, vault: vault))
    }
}
