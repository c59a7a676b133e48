import Foundation
import QuireCore
import QuireKit

/// `quire rm NOTE` — deletes a note; one never committed goes to the trash instead.
struct RemoveCommand: Command {
    static let configuration = CommandConfiguration(
        name: "rm",
        abstract: "Remove a note (restorable: from history if committed, else from .quire/local/trash/).",
        usage: "rm NOTE",
        discussion: """
        A note that was committed stays in the vault's history: 'quire restore PATH' brings it back,
        and 'quire history --deleted' lists it once the deletion is committed (by the next sync). A
        note never committed is moved to .quire/local/trash/.
        """,
        examples: ["quire rm \"Woody's last ride\""],
        positionals: 1...1)

    let note: String

    init(_ arguments: ParsedArguments) throws {
        note = arguments.positionals[0]
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let found = try VaultNotes(context: context).resolve(note, context: context)
        let shown = context.displayPath(found.path, vault: vault)
        let report: NoteRemoval.Report
        do {
            report = try NoteRemoval.run(path: found.path, vault: vault, now: context.now())
        } catch KitError.removeFailed(_, let reason) {
            throw ErrorTranslator.translate(kit: .removeFailed(path: shown, reason: reason))  // named as the user sees it
        }
        switch report {
        case .removed:
            // 'quire history --deleted' lists it once the deletion is committed (by the next sync):
            // the path is what brings it back now.
            context.output.line("removed \(shown) (it stays in history: 'quire restore \(shown)' brings it back)")
        case let .trashed(_, trashPath, committed):
            context.output.line("moved \(shown) to \(context.displayPath(trashPath, vault: vault)) (\(committed ? "changes never committed" : "never committed"))")
        }
    }
}
