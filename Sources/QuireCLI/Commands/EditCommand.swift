import Foundation
import QuireCore

/// `quire edit NOTE` — opens the note in `$VISUAL` / `$EDITOR`.
struct EditCommand: Command {
    static let configuration = CommandConfiguration(
        name: "edit",
        abstract: "Open a note in $VISUAL or $EDITOR; stamps updatedAt if the content changed.",
        usage: "edit NOTE",
        discussion: """
        The editor command is run through the shell, so EDITOR="code --wait" works. If you change
        updatedAt yourself, your value is kept.
        """,
        examples: ["EDITOR=vim quire edit \"Woody's last ride\""],
        positionals: 1...1)

    let note: String

    init(_ arguments: ParsedArguments) throws {
        note = arguments.positionals[0]
    }

    func run(_ context: CommandContext) throws {
        let all = try VaultNotes(context: context)
        let found = try all.resolve(note, context: context)
        let url = all.vault.root.appendingPathComponent(found.path)
        let editor = [context.environment["VISUAL"], context.environment["EDITOR"]]
            .compactMap { $0 }.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? "vi"
        let before = try Data(contentsOf: url)
        context.output.flush()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(editor) \"$1\"", "quire-edit", url.path]
        process.environment = context.environment
        do {
            try process.run()
        } catch {
            throw CLIError("cannot start the editor '\(editor)' (\(error.localizedDescription))",
                           hint: "set VISUAL or EDITOR to an editor command")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CLIError("the editor exited with status \(process.terminationStatus), the note is left as the editor wrote it (\(editor))",
                           hint: "the note is \(context.displayPath(found.path, vault: all.vault)); run 'quire edit' again to retry")
        }
        guard let after = FileManager.default.contents(atPath: url.path) else {
            throw CLIError("the note is gone after editing (\(context.displayPath(found.path, vault: all.vault)))",
                           hint: "the editor removed or renamed the file; 'quire rm' removes notes restorably")
        }
        guard after != before else { return }
        let old = NoteParser.parse(before, path: found.path)
        let new = NoteParser.parse(after, path: found.path)
        // The user's own updatedAt wins; notes without readable YAML front matter are not stamped.
        guard new.updatedAt == old.updatedAt, new.format == .yaml, new.problems.isEmpty else { return }
        try NoteEditor.apply(vault: all.vault, path: found.path, now: context.now(), setsUpdatedAt: true) { document in
            try document.setUpdatedAt(context.now())
        }
    }
}
