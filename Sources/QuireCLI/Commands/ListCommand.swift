import Foundation
import QuireCore

/// `quire list` — lists notes, pinned first, then newest first.
struct ListCommand: Command {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List notes: pinned first, then the most recently updated.",
        usage: "list [--json]",
        examples: ["quire list", "quire list --json"],
        options: [.flag("--json", help: "Print the notes as a JSON array.")])

    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments.has("--json")
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let all = try VaultNotes(vault: vault)
        all.warnAboutProblems(context.output)
        let notes = all.notes.sorted(by: VaultNotes.defaultOrder)
        if json {
            context.output.line(JSONValue.array(notes.map { NoteJSON.object($0) }).rendered())
            return
        }
        NoteTable.print(notes, context: context, vault: vault)
    }
}

/// The human table of notes: pin mark, updated date, title, folder/tags.
enum NoteTable {
    static func print(_ notes: [Note], context: CommandContext, vault: Vault) {
        let output = context.output
        for note in notes {
            let pin = note.pinned ? "★" : " "
            let date = note.updatedAt.map(DateText.short) ?? String(repeating: " ", count: 16)
            var line = "\(pin) \(output.styled(date, "2"))  \(output.styled(note.title, "1"))"
            if note.draft { line += output.styled(" (draft)", "33") }
            let tags = note.tags.map { "#\($0)" }.joined(separator: " ")
            line += "  " + output.styled(context.displayPath(note.path, vault: vault), "2")
            if !tags.isEmpty { line += "  " + output.styled(tags, "36") }
            output.line(line)
        }
    }
}
