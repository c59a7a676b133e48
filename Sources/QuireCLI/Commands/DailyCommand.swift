import Foundation
import QuireCore
import QuireKit

/// `quire daily [DATE]` — the note of a day (QuireKit's `DailyNote`), created when missing and
/// opened in the editor as `quire edit` opens a note.
struct DailyCommand: Command {
    static let configuration = CommandConfiguration(
        name: "daily",
        abstract: "Open (creating it if needed) the note of a day.",
        usage: "daily [DATE] [--no-edit]",
        discussion: """
        DATE is today (the default), yesterday, tomorrow, +N or -N days, or a date such as
        2026-11-29. The note is Journal/2026-11-29.md unless .quire/config.yml says otherwise:
          daily:
            folder: Journal        # from the vault root
            format: YYYY-MM-DD     # YYYY, MM, DD, dddd (Monday), ddd (Mon); may hold folders
            template: daily        # .quire/templates/daily.md
        A missing note is made from the daily template when there is one ({{date}} and
        {{weekday}} are the day's, {{time}} is now), else with the title of its file name and
        the tag daily. On a terminal it then opens in $VISUAL or $EDITOR (as 'quire edit' does);
        with --no-edit, or when standard output is not a terminal, its path is printed instead.
        """,
        examples: ["quire daily", "quire daily yesterday", "quire daily 2026-11-29 --no-edit"],
        options: [.flag("--no-edit", help: "Print the note's path instead of opening it.")],
        positionals: 0...1)

    let date: String?
    let noEdit: Bool

    init(_ arguments: ParsedArguments) throws {
        date = arguments.positionals.first
        noEdit = arguments.has("--no-edit")
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let now = try context.now()
        let day: Date
        do {
            day = try DailyNote.day(date, now: now, timeZone: .current)
        } catch let error as DailyDateError {
            throw CLIError.usage(error.description, hint: "give today, yesterday, tomorrow, +N, -N or a date like 2026-11-29")
        }
        let outcome = try DailyNote.open(in: vault, day: day, now: now)
        for name in outcome.unknownVariables {
            context.output.error("quire: warning: the template's {{\(name)}} names no variable; it is left as written")
        }
        let shown = context.displayPath(outcome.path, vault: vault)
        guard !noEdit, context.output.stdoutIsTerminal else {
            context.output.line(shown)
            return
        }
        var arguments = ParsedArguments()
        arguments.positionals = [shown]
        try EditCommand(arguments).run(context)
    }
}
