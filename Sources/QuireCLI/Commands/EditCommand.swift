import Foundation
import QuireCore

/// `quire edit NOTE` — opens the note in `$VISUAL` / `$EDITOR`.
struct EditCommand: Command {
    static let configuration = CommandConfiguration(
        name: "edit",
        abstract: "Open a note in $VISUAL or $EDITOR; stamps updatedAt if the content changed.",
        usage: "edit NOTE",
        discussion: """
        The editor command is run through the shell (VISUAL first, then EDITOR, else vi), so
        EDITOR="code --wait" works; a terminal editor gets the terminal, and Ctrl-C goes to the
        editor, not quire. If you change updatedAt yourself, your value is kept.
        """,
        examples: ["EDITOR=vim quire edit \"Woody's last ride\""],
        options: [NoteEditor.forceOption],
        positionals: 1...1)

    let note: String
    let force: Bool

    init(_ arguments: ParsedArguments) throws {
        note = arguments.positionals[0]
        force = arguments.has("--force")
    }

    func run(_ context: CommandContext) throws {
        let all = try VaultNotes(context: context)
        let found = try all.resolve(note, context: context)
        let url = all.vault.root.appendingPathComponent(found.path)
        // Refused before the editor opens: the stamp after it would rewrite the note.
        if !force { try NoteEditor.refuseWriteProtected(vault: all.vault, path: found.path) }
        let editor = EditorLauncher(environment: context.environment)
        let before = try Data(contentsOf: url)
        context.output.flush()
        let outcome = try editor.edit(path: url.path, environment: context.environment)
        guard outcome == .exited(0) else {
            let ending: String
            switch outcome {
            case .exited(let status): ending = "exited with status \(status)"
            case .signaled(let signal): ending = "was ended by signal \(signal)"
            }
            throw CLIError("the editor \(ending), the note is left as the editor wrote it (\(editor.command))",
                           hint: "the note is \(context.displayPath(found.path, vault: all.vault)); run 'quire edit' again to retry")
        }
        guard let after = FileManager.default.contents(atPath: url.path) else {
            throw CLIError("the note is gone after editing (\(context.displayPath(found.path, vault: all.vault)))",
                           hint: "the editor removed or renamed the file; 'quire rm' removes notes restorably")
        }
        // `NoteStamp`'s rule: the user's own updatedAt wins; unreadable front matter is not stamped.
        guard let stamped = try NoteStamp.stampingEdit(after, original: before, path: found.path, at: context.now()) else { return }
        try all.vault.write(stamped, to: found.path)
    }
}
