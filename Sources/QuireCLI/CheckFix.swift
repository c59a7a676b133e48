import Foundation
import QuireCore
import QuireKit

/// `quire check --fix [--dry-run]`: repairs links whose target moved (QuireKit `LinkRepair`),
/// printing each repair (`fixed file:line: old → new`, or `would fix` in a dry run) and each broken
/// link it cannot repair; the latter make `check` exit 1.
enum CheckFix {
    /// The options `check` takes for it.
    static let options: [OptionSpec] = [
        .flag("--fix", help: "Repair links whose target moved (known from history or by id), as surgical edits."),
        .flag("--dry-run", help: "With --fix: print the repairs, change nothing."),
    ]

    static func run(_ context: CommandContext, dryRun: Bool, json: Bool) throws {
        let all = try VaultNotes(context: context)
        let moved = try LinkRepair.movedNotes(vault: all.vault, notes: all.notes)
        let report = try LinkRepair.run(vault: all.vault, notes: all.notes, moved: moved,
                                        options: MoveOptions(now: try context.now(), dryRun: dryRun))
        let vault = all.vault
        for edit in report.edits where !json {
            context.output.line("\(dryRun ? "would fix" : "fixed") \(context.displayPath(edit.path, vault: vault)):\(edit.line): \(edit.old) → \(edit.new)")
        }
        for left in report.left where !json {
            let reason = left.reason == .unresolved ? "it leads to no note, and history knows of no note that left that name"
                : MoveOutput.reason(left.reason, vault: vault, context: context)
            context.output.line("cannot repair \(context.displayPath(left.path, vault: vault)):\(left.line): \(left.text): " + reason)
        }
        if !report.left.isEmpty { context.exitCode = .failure }
    }
}
