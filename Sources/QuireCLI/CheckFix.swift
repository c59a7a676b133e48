import Foundation
import QuireCore
import QuireKit

/// `quire check --fix [--dry-run]`: repairs links whose target moved (QuireKit `LinkRepair`),
/// printing each repair (`fixed file:line: old → new`, or `would fix` in a dry run); the links it
/// cannot repair stay broken, and `check` lists them as it lists every broken link.
enum CheckFix {
    /// The options `check` takes for it.
    static let options: [OptionSpec] = [
        .flag("--fix", help: "Repair links whose target moved (known from history or by id), as surgical edits."),
        .flag("--dry-run", help: "With --fix: print the repairs, change nothing."),
    ]

    static func run(_ context: CommandContext, dryRun: Bool, json: Bool) throws {
        let all = try VaultNotes(context: context)
        let moved = try LinkRepair.movedNotes(vault: all.vault, notes: { all.notes })
        let report = try LinkRepair.run(vault: all.vault, notes: all.notes, moved: moved,
                                        options: MoveOptions(now: try context.now(), dryRun: dryRun))
        let vault = all.vault
        for edit in report.edits where !json {
            context.output.line("\(dryRun ? "would fix" : "fixed") \(context.displayPath(edit.path, vault: vault)):\(edit.line): \(edit.old) → \(edit.new)")
        }
        // Links left broken are listed by `check` itself with the closest names; here only why
        // a repair history did find could not be written.
        for left in report.left where !json && left.reason != .unresolved {
            context.output.line("cannot repair \(context.displayPath(left.path, vault: vault)):\(left.line): \(left.text): "
                                + MoveOutput.reason(left.reason, vault: vault, context: context))
        }
    }
}
