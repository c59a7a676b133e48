import Foundation
import QuireCore
import QuireKit

/// `quire show [NOTE]` — prints one note (without NOTE on a terminal, the note picked with
/// `TerminalNotePicker`).
struct ShowCommand: Command {
    static let configuration = CommandConfiguration(
        name: "show",
        abstract: "Print a note: its metadata and body, the raw file, or JSON.",
        usage: "show [NOTE] [--json] [--raw] [--render] [--at REV]",
        discussion: """
        NOTE is a path, an id, an exact title (case-insensitive), an id prefix of at least
        4 characters, or words (else letters in order) of a title only one note has. --at REV
        shows the note as it was in a commit ('quire history NOTE' lists them; a deleted note's
        path works too). Without NOTE, on a terminal, quire offers a picker of the vault's notes,
        as 'quire edit' does (fzf when it is on PATH, else a numbered list; see
        'quire edit --help'); elsewhere NOTE is required. --render shows the body as formatted
        text: headings, emphasis, lists, task lists, code, quotes and tables, wrapped to the
        terminal's width (COLUMNS, else the window, else 80), links numbered and listed at the
        end; styled on a terminal, plain text in a pipe or with NO_COLOR.
        """,
        examples: ["quire show \"Woody's last ride\"", "quire show 3f2b --json", "quire show Drafts/woodys-last-ride.md --raw",
                   "quire show \"Toy Story 5 one-pager\" --render | less -R"],
        options: [
            .flag("--json", help: "Print the note as JSON, with its body."),
            .flag("--raw", help: "Print the file exactly as it is on disk."),
            .flag("--render", help: "Format the Markdown for reading, wrapped to the terminal's width."),
            .value("--at", name: "REV", help: "Show the note as it was in commit REV (id, prefix, HEAD~2, …)."),
        ],
        positionals: 0...1)

    let note: String?
    let json: Bool
    let raw: Bool
    let render: Bool
    let revision: String?

    init(_ arguments: ParsedArguments) throws {
        note = arguments.positionals.first
        revision = arguments.value("--at")
        json = arguments.has("--json")
        raw = arguments.has("--raw")
        render = arguments.has("--render")
        if json && raw { throw CLIError.usage("--json and --raw cannot be used together") }
        if render && (json || raw) { throw CLIError.usage("--render cannot be used with \(json ? "--json" : "--raw")") }
        if note == nil { try TerminalNotePicker.requireTerminal() }
    }

    func run(_ context: CommandContext) throws {
        let output = context.output
        if let revision {
            let vault = try context.vault()
            let argument = try note ?? TerminalNotePicker(context: context).choose(VaultNotes(context: context)).path
            let path = try HistoryCommand.notePath(argument, context: context, vault: vault)
            let (data, commit) = try VaultHistory(vault: vault).version(of: path, at: revision)
            if raw {
                output.write(bytes: Array(data))
            } else {
                let old = NoteParser.parse(data, path: path)
                if render {
                    output.line("\(old.title) (at \(commit.short()))\n")
                    writeBody(old, data: data, context: context)
                } else {
                    output.line(json ? NoteJSON.object(old, includeBody: true).rendered(.output) : "\(old.title) (at \(commit.short()))\n\n\(old.body)")
                }
            }
            return
        }
        let all = try VaultNotes(context: context)
        let listed = try note.map { try all.resolve($0, context: context) } ?? TerminalNotePicker(context: context).choose(all)
        var found = try all.vault.readNote(path: listed.path)
        // Dates the front matter lacks, as the catalog found them (the file's time).
        if found.updatedAt == nil { (found.updatedAt, found.updatedAtSource) = (listed.updatedAt, listed.updatedAtSource) }
        if found.createdAt == nil { (found.createdAt, found.createdAtSource) = (listed.createdAt, listed.createdAtSource) }
        if raw {
            let data = try all.vault.readData(found.path)
            output.write(bytes: Array(data))
            return
        }
        if json {
            output.line(NoteJSON.object(found, includeBody: true).rendered(.output))
            return
        }
        output.line(output.styled(found.title, "1"))
        var facts: [String] = [context.displayPath(found.path, vault: all.vault)]
        if let project = found.project { facts.append("project: \(project)") }
        if !found.tags.isEmpty { facts.append(found.tags.map { "#\($0)" }.joined(separator: " ")) }
        if found.draft { facts.append("draft") }
        if found.pinned { facts.append("pinned") }
        if let color = found.color { facts.append("color: \(color)") }
        if let mood = found.mood { facts.append("mood: \(mood)") }
        output.line(output.styled(facts.joined(separator: " · "), "2"))
        var dates: [String] = []
        if let created = found.createdAt { dates.append("created \(DateText.short(created))") }
        if let updated = found.updatedAt { dates.append("updated \(DateText.short(updated))") }
        dates.append("\(found.words) words")
        output.line(output.styled(dates.joined(separator: " · "), "2"))
        for problem in found.problems {
            output.error("quire: warning: \(found.path)\(problem.line.map { ":\($0)" } ?? ""): \(problem.message)")
        }
        output.line()
        if render {
            writeBody(found, data: try all.vault.readData(found.path), context: context)
        } else {
            output.write(found.body.hasSuffix("\n") || found.body.isEmpty ? found.body : found.body + "\n")
        }
    }

    /// The body rendered for reading (--render), wrapped to the terminal's width.
    private func writeBody(_ note: Note, data: Data, context: CommandContext) {
        let output = context.output
        let width = TerminalText.columns(environment: context.environment, output: output) ?? 80
        output.write(NoteRendering.terminal(note, data: data, width: width, color: output.useColor))
    }
}
