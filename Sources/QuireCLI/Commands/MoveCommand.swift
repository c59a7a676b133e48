import Foundation
import QuireCore
import QuireKit

/// `quire mv NOTE FOLDER` — moves a note to another folder (does not stamp updatedAt).
struct MoveCommand: Command {
    static let configuration = CommandConfiguration(
        name: "mv",
        abstract: "Move a note to another folder (created if missing); links to it follow.",
        usage: "mv NOTE FOLDER [--dry-run] [--no-links]",
        discussion: """
            FOLDER is relative to the vault root; '' or '/' is the root. The file name is kept (a collision gets -2); \
            a FOLDER named like a note (b.md) that does not exist is refused: 'quire rename' changes a file name. \
            Every link to the note, and every relative link in it, is rewritten in its own style (Docs/links.md); \
            the moved note itself is not stamped, notes whose links change are.
            """,
        examples: ["quire mv \"Woody's last ride\" Pitches", "quire mv 3f2b / --dry-run"],
        options: MoveOutput.options,
        positionals: 2...2)

    let note: String
    let folder: String
    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws {
        note = arguments.positionals[0]
        folder = arguments.positionals[1]
        self.arguments = arguments
    }

    func run(_ context: CommandContext) throws {
        let all = try VaultNotes(context: context)
        let found = try all.resolve(note, context: context)
        let target = try NoteFolder.resolve(folder, in: all.vault)
        try FileMover.checkDestination(folder: target, in: all.vault)
        let name = (found.path as NSString).lastPathComponent
        guard target != found.folder else {
            context.output.line(context.displayPath(found.path, vault: all.vault))
            return
        }
        let destination = try FileMover.freePath(in: all.vault, folder: target, fileName: name)
        let report = try NoteMover.run(vault: all.vault, notes: all.summaries, plan: MovePlan(notes: [ExactPath(found.path): destination]),
                                       options: MoveOutput.options(arguments, context: context, notes: all))
        MoveOutput.print(report, shown: destination, arguments: arguments, vault: all.vault, context: context)
    }
}

/// `quire rename NOTE NEW-TITLE` — changes the title; the file name follows.
struct RenameCommand: Command {
    static let configuration = CommandConfiguration(
        name: "rename",
        abstract: "Change a note's title; its file name and the links to it follow.",
        usage: "rename NOTE NEW-TITLE [--force] [--dry-run] [--no-links]",
        discussion: """
            The file is renamed as fileNames in .quire/config.yml says: the title's slug, or the title itself \
            (made safe for every OS). With fileNames: title a note without a title key keeps none: its file name is its title. \
            Every link to the note is rewritten in its own style (Docs/links.md). \
            A title another note has already is refused (it could no longer name one note) unless --force is given.
            """,
        examples: ["quire rename \"Woody's last ride\" \"Woody's last stand\"", "quire rename 3f2b \"New name\" --dry-run"],
        options: [.flag("--force", help: "Rename even when another note has the title, or the note is read-only.")]
            + MoveOutput.options,
        positionals: 2...2)

    let note: String
    let title: String
    let force: Bool
    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws {
        note = arguments.positionals[0]
        force = arguments.has("--force")
        title = arguments.positionals[1].trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw CLIError.usage("the new title is empty") }
        self.arguments = arguments
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let all = try VaultNotes(context: context)
        let found = try all.resolve(note, context: context)
        let namesakes = all.namingResolver(context).notes(titled: title).filter { $0.path != found.path }
        if !force, let other = namesakes.first {
            throw CLIError("another note is titled '\(other.title)' (\(context.displayPath(other.path, vault: vault)))",
                           hint: "choose another title, or add --force to share it (a shared title no longer names one note)")
        }
        if !force { try NoteEdit.refuseWriteProtected(vault: vault, path: found.path) }
        // The title must be settable before anything moves (this probe changes nothing).
        try NoteEdit.apply(vault: vault, path: found.path, now: context.now(), force: true) { document in
            var probe = document
            try probe.set("title", .string(title))
        }
        let plan = try NoteRetitle.plan(vault: vault, path: found.path, folder: found.folder, title: title, current: found.title)
        let destination = plan.notes[ExactPath(found.path)] ?? found.path
        var options = try MoveOutput.options(arguments, context: context, notes: all)
        options.force = force
        let report = try NoteMover.run(vault: vault, notes: all.summaries, plan: plan, options: options)
        MoveOutput.print(report, shown: destination, arguments: arguments, vault: vault, context: context)
    }
}
