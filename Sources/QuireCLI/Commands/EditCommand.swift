import Foundation
import QuireCore
import QuireKit

/// `quire edit [NOTE]` — opens the note in `$VISUAL` / `$EDITOR` (without NOTE on a terminal,
/// the note picked with `TerminalNotePicker`).
struct EditCommand: Command {
    static let configuration = CommandConfiguration(
        name: "edit",
        abstract: "Open a note in $VISUAL or $EDITOR; stamps updatedAt if the content changed.",
        usage: "edit [NOTE]",
        discussion: """
        Without NOTE, on a terminal, quire offers a picker of the vault's notes (most recently
        updated first): fzf when it is on PATH, else a numbered list of 20 that takes a number or
        words of a title (matched as a NOTE argument is; several matches narrow the list). An
        empty answer, Ctrl-D or Ctrl-C (Esc in fzf) chooses nothing: exit 1, nothing changed.
        Elsewhere (a script, a pipe) NOTE is required.

        The editor command is run through the shell (VISUAL first, then EDITOR, else vi), so
        EDITOR="code --wait" works; a terminal editor gets the terminal, and Ctrl-C goes to the
        editor, not quire. If you change updatedAt yourself, your value is kept.
        """,
        examples: ["EDITOR=vim quire edit \"Woody's last ride\"", "quire edit          # pick the note on a terminal"],
        options: [NoteEditor.forceOption],
        positionals: 0...1)

    let note: String?
    let force: Bool

    init(_ arguments: ParsedArguments) throws {
        note = arguments.positionals.first
        if note == nil { try TerminalNotePicker.requireTerminal() }
        force = arguments.has("--force")
    }

    func run(_ context: CommandContext) throws {
        let all = try VaultNotes(context: context)
        let found = try note.map { try all.resolve($0, context: context) } ?? TerminalNotePicker(context: context).choose(all)
        // Refused before the editor opens: the stamp after it would rewrite the note.
        let edit = try ExternalEdit(vault: all.vault, path: found.path, force: force)
        let editor = EditorLauncher(environment: context.environment)
        context.output.flush()
        let outcome = try editor.edit(path: edit.url.path, environment: context.environment)
        guard outcome == .exited(0) else {
            let ending: String
            switch outcome {
            case .exited(let status): ending = "exited with status \(status)"
            case .signaled(let signal): ending = "was ended by signal \(signal)"
            }
            throw CLIError("the editor \(ending), the note is left as the editor wrote it (\(editor.command))",
                           hint: "the note is \(context.displayPath(found.path, vault: all.vault)); run 'quire edit' again to retry")
        }
        let finished: ExternalEdit.Outcome
        do {
            finished = try edit.finish(now: context.now())
        } catch KitError.noteGone {
            throw CLIError("the note is gone after editing (\(context.displayPath(found.path, vault: all.vault)))",
                           hint: "the editor removed or renamed the file; 'quire rm' removes notes restorably")
        }
        // Front matter that read before and no longer does: said now, not by a later command's summary.
        if let problem = finished.brokeFrontMatter {
            let shown = context.displayPath(found.path, vault: all.vault)
            context.output.error("quire: warning: \(shown)\(problem.line.map { ":\($0)" } ?? ""): \(problem.message); "
                                 + "the note was left as written and updatedAt was not stamped")
            context.output.error("hint: run 'quire edit \(shown)' again to mend it; 'quire check' lists the problem")
        }
    }
}
