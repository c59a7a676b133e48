import Foundation
import QuireCore
import QuireKit

/// `quire history NOTE` and `quire history --deleted`.
struct HistoryCommand: Command {
    static let configuration = CommandConfiguration(
        name: "history",
        abstract: "The commits that touched a note (following renames), or the deleted notes.",
        usage: "history (NOTE | --deleted) [--limit N] [--json]",
        discussion: """
        Each line shows the commit, its time and what happened on which device ("edited on laptop",
        "merged from phone (on laptop)"; a commit quire did not make adds its message). Bring an old
        version back with 'quire restore NOTE --at COMMIT'; look at one with 'quire show NOTE --at COMMIT'.
        With --deleted, NOTE is not needed: it lists notes deleted in history, restorable with
        'quire restore PATH'.
        """,
        examples: ["quire history \"Woody's last ride\"", "quire history --deleted", "quire history 3f2b --json"],
        options: [
            .flag("--deleted", help: "List notes deleted in history instead."),
            .value("--limit", name: "N", help: "Show at most N commits."),
            .flag("--json", help: "Print as JSON."),
        ],
        positionals: 0...1)

    let note: String?
    let deleted: Bool
    let limit: Int?
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        note = arguments.positionals.first
        deleted = arguments.has("--deleted")
        json = arguments.has("--json")
        if let text = arguments.value("--limit") {
            guard let number = Int(text), number > 0 else { throw CLIError.usage("--limit takes a positive number, not '\(text)'") }
            limit = number
        } else {
            limit = nil
        }
        if deleted == (note != nil) { throw CLIError.usage("give either NOTE or --deleted") }
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let history = try VaultHistory(vault: vault)
        let output = context.output
        if deleted {
            let notes = try history.deletedNotes(limit: limit)
            if json {
                output.line(JSON.array(notes.map {
                    .object([("path", .string($0.path)), ("deletedIn", .string($0.deletedIn.hex)),
                             ("lastCommit", .string($0.lastCommit.hex)), ("time", .string(DateText.iso($0.time))),
                             ("device", .string($0.device))])
                }).rendered(.output))
                return
            }
            if notes.isEmpty { output.line("no deleted notes in history") }
            for note in notes {
                output.line("\(note.deletedIn.short()) \(DateText.short(note.time))  \(context.displayPath(note.path, vault: vault))  deleted on \(note.device)")
            }
            return
        }
        let path = try Self.notePath(note ?? "", context: context, vault: vault)
        let entries = try history.changes(of: path, limit: limit)
        if json {
            output.line(JSON.array(entries.map { (entry: VaultHistory.Change) -> JSON in
                let mergedFrom: JSON = .string(entry.mergedFrom)
                return .object([("commit", .string(entry.commit.hex)), ("path", .string(entry.path)),
                                ("change", .string(entry.change.rawValue)), ("time", .string(DateText.iso(entry.time))),
                                ("device", .string(entry.device)), ("summary", .string(entry.summary)),
                                ("what", .string(entry.what)), ("mergedFrom", mergedFrom)])
            }).rendered(.output))
            return
        }
        if entries.isEmpty { output.line("\(context.displayPath(path, vault: vault)) has no committed history yet (run 'quire sync')") }
        for entry in entries {
            let renamed = entry.path != path ? "  (as \(entry.path))" : ""
            output.line("\(output.styled(entry.commit.short(), "33")) \(DateText.short(entry.time))  \(entry.what)\(renamed)")
        }
    }

    /// A NOTE argument as a vault path: a live note, else a path that only history knows, else the
    /// one deleted note with that title, alias or file name (`NoteRestore.deletedNotes(named:)`).
    static func notePath(_ argument: String, context: CommandContext, vault: Vault) throws -> String {
        do {
            return try VaultNotes(context: context).resolveExactly(argument, context: context).path
        } catch CoreError.noteNotFound(let query) {
            let candidate = try vault.relativePath(of: context.absoluteURL(argument))
            if candidate.hasSuffix(".md") { return candidate }
            // No note of the vault has that name: a deleted one may have had it.
            let deleted = try NoteRestore.deletedNotes(named: argument, vault: vault)
            guard let first = deleted.first else {
                throw CLIError(CoreError.noteNotFound(query: query).description,
                               hint: "no note and no deleted note has that title, alias or file name: 'quire list' shows the "
                                   + "notes, 'quire history --deleted' the deleted ones")
            }
            guard deleted.count == 1 else {
                let listed = deleted.map { context.displayPath($0, vault: vault) }.joined(separator: ", ")
                throw CLIError("'\(argument)' names \(deleted.count) deleted notes: \(listed)",
                               hint: "name one by its path (\(context.displayPath(first, vault: vault)), as 'quire history --deleted' lists them")
            }
            return first
        }
    }
}
