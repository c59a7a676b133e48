import Foundation
import QuireCore
import QuireKit

/// `quire restore NOTE [--at REV | --conflict ID]` — brings back an older or losing version.
struct RestoreCommand: Command {
    static let configuration = CommandConfiguration(
        name: "restore",
        abstract: "Bring back a note: a deleted one, an older version (--at), or a conflict's losing version.",
        usage: "restore NOTE [--at REV | --conflict ID [--whole]] [--force]",
        discussion: """
        Without options NOTE is a deleted note: its path ('quire history --deleted' lists them),
        or its title, an alias or its file name when no note of the vault has that name; its last
        version is written back — or, for a note removed before it was ever committed,
        its copy in .quire/local/trash/. --at REV writes the note as it was in commit REV (see
        'quire history NOTE'). --conflict ID applies the changes of the version that lost an
        automatic merge ('quire conflicts' lists them) onto the note as it is now, three ways: where
        they collide with the current text the losing version's text wins, everything else of the
        current note stays; --whole writes the losing version over the whole note instead. A note
        with changes not synced yet is never overwritten unasked: --at and --whole refuse, and with
        --force keep your version in .quire/local/trash/ first. The restored note gets a fresh
        updatedAt, so the next sync carries it to every device. Nothing is committed until 'quire sync'.
        """,
        examples: ["quire restore Drafts/old-idea.md", "quire restore \"Woody's last ride\" --at 3f2b9c1",
                   "quire restore \"Woody's last ride\" --conflict 8c41e2a9"],
        options: [
            .value("--at", name: "REV", help: "A commit (id, prefix, HEAD~2, …) to take the note from."),
            .value("--conflict", name: "ID", help: "A conflict id from 'quire conflicts'."),
            .flag("--whole", help: "With --conflict: write the whole losing version instead of applying its changes."),
            .flag("--force", help: "Overwrite changes not synced yet (they are kept in .quire/local/trash/), or a read-only note."),
        ],
        positionals: 1...1)

    let note: String
    let revision: String?
    let conflict: String?
    let whole: Bool
    let force: Bool

    init(_ arguments: ParsedArguments) throws {
        note = arguments.positionals[0]
        revision = arguments.value("--at")
        conflict = arguments.value("--conflict")
        whole = arguments.has("--whole")
        force = arguments.has("--force")
        if revision != nil && conflict != nil { throw CLIError.usage("--at and --conflict cannot be used together") }
        if whole && conflict == nil { throw CLIError.usage("--whole goes with --conflict ID") }
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let path = try HistoryCommand.notePath(note, context: context, vault: vault)
        let source: NoteRestore.Source
        if let conflict {
            source = .conflict(id: conflict, whole: whole)
        } else if let revision {
            source = .revision(revision)
        } else {
            source = .deleted
        }
        let shown = context.displayPath(path, vault: vault)
        let report: NoteRestore.Report
        do {
            report = try NoteRestore.run(NoteRestore.Options(path: path, source: source, force: force, now: context.now(),
                                                             environment: context.environment), vault: vault)
        } catch KitError.unsyncedChanges {
            throw ErrorTranslator.translate(kit: .unsyncedChanges(path: shown))  // named as the user sees it
        }
        if let kept = report.keptCopy {
            context.output.line("kept your unsynced version of \(shown) in \(context.displayPath(kept, vault: vault))")
        }
        if report.path != path {
            context.output.line("\(shown) is another note now (its id differs): the restored version is \(context.displayPath(report.path, vault: vault))")
        }
        context.output.line("restored \(context.displayPath(report.path, vault: vault)) from \(Self.describe(report.origin))")
        if report.ignored {
            context.output.error("quire: warning: git ignores \(context.displayPath(report.path, vault: vault)) (a .gitignore rule): "
                                     + "it is back on this device only, and no sync will carry it\n"
                                     + "hint: move it out of the ignored folder ('quire mv'), or change the rule")
        }
    }

    /// Where a restored version came from, in words.
    static func describe(_ origin: NoteRestore.Origin) -> String {
        switch origin {
        case .trash: return "the trash"
        case .lastCommit(let commit): return "the last commit (\(commit.short()))"
        case .commit(let commit): return "commit \(commit.short())"
        case .beforeDeletion(let commit): return "commit \(commit.short()), before it was deleted"
        case let .conflict(id, side, applied):
            return applied ? "conflict \(id) (the changes of the version from \(side), applied onto the current note)"
                : "conflict \(id) (the version from \(side))"
        }
    }
}
