import Foundation
import QuireCore
import QuireKit

/// The options and output shared by the commands that move notes (`mv`, `rename`,
/// `folder rename`): the new path on standard output, each rewritten link on standard error
/// (`--dry-run`: on standard output, nothing written), links left alone as warnings.
enum MoveOutput {
    /// `--dry-run` and `--no-links`.
    static let options: [OptionSpec] = [
        .flag("--dry-run", help: "Print the link edits (file:line: old → new) and change nothing."),
        .flag("--no-links", help: "Move only: leave every link as it is."),
    ]

    /// The workflow's options from the arguments; with `notes`, a move of notes reads only those
    /// that may link to them (their catalog's link terms, `MoveOptions.linkingNotes`).
    static func options(_ arguments: ParsedArguments, context: CommandContext, notes: VaultNotes? = nil) throws -> MoveOptions {
        var options = MoveOptions(now: try context.now(), dryRun: arguments.has("--dry-run"), rewritesLinks: !arguments.has("--no-links"),
                                  force: arguments.has("--force"))
        if let catalog = notes?.catalog.catalog {
            options.linkingNotes = MoveOptions.linkingNotes(in: catalog)
        }
        return options
    }

    /// Prints `shown` (the new path) and what happened to the links.
    static func print(_ report: MoveReport, shown: String, arguments: ParsedArguments, vault: Vault, context: CommandContext) {
        let output = context.output
        let dryRun = arguments.has("--dry-run")
        if dryRun {
            for move in report.moves {
                output.line("move \(context.displayPath(move.from, vault: vault)) → \(context.displayPath(move.to, vault: vault))")
            }
        } else {
            output.line(context.displayPath(shown, vault: vault))
        }
        printLinks(report, dryRun: dryRun, vault: vault, context: context)
    }

    /// Prints each rewritten link (standard output in a dry run, else standard error) and each
    /// link left alone (a warning).
    static func printLinks(_ report: MoveReport, dryRun: Bool, vault: Vault, context: CommandContext) {
        let output = context.output
        for edit in report.edits {
            let line = "\(context.displayPath(edit.path, vault: vault)):\(edit.line): \(edit.old) → \(edit.new)"
            if dryRun { output.line(line) } else { output.error("updated " + line) }
        }
        for left in report.left {
            output.error("quire: warning: link left as it is (\(context.displayPath(left.path, vault: vault)):\(left.line): \(left.text)): "
                         + reason(left.reason, vault: vault, context: context))
        }
    }

    /// Why a link was left alone, in words.
    static func reason(_ reason: LeftLink.Reason, vault: Vault, context: CommandContext) -> String {
        switch reason {
        case .ambiguous(let paths): return "it was ambiguous (" + paths.map { context.displayPath($0, vault: vault) }.joined(separator: ", ") + ")"
        case .unresolved: return "it led to no note before"
        case .unspellable(let path): return "no spelling of it leads to \(context.displayPath(path, vault: vault))"
        case .readOnly: return "the note is read-only (--force changes it)"
        case .unreadable: return "the note's front matter is unreadable"
        case .editedMeanwhile: return "the note was saved by someone else meanwhile"
        }
    }
}
