import Foundation
import QuireCore
import QuireKit

/// `quire check` — lists every problem in the vault; exits 1 when it finds any.
struct CheckCommand: Command {
    static let configuration = CommandConfiguration(
        name: "check",
        abstract: "List every problem: bad front matter, duplicate ids and titles, names that differ only in case or Unicode form, broken and ambiguous links, LFS pointers, stray temporary files, entries skipped.",
        usage: "check [--json] [--journals] [--fix [--dry-run]]",
        discussion: """
            Exits with 1 when it finds a problem, 0 when the vault is clean. Nothing is changed, but with --fix: \
            links whose target moved (history follows the note through renames, or finds it by id) are rewritten \
            to its path now, in their own style, and each repair is printed (--dry-run: printed only). \
            A note without a title is not a problem: its file name is its title (as in Obsidian). \
            Notes sharing a title are one finding per group; journals (notes named by a date, or in the \
            daily folder) may share titles ("Daily log") unless --journals is given. \
            Entries the vault walk skips are listed too: folders that cannot be read, symlinks that \
            lead outside the vault or nowhere, and *.md names that are not regular files (FIFOs, sockets). \
            Links that lead nowhere (with the closest note names), to several files (with them), or to \
            a heading or block their note lacks are listed too (Docs/links.md).
            """,
        examples: ["quire check", "quire check --json", "quire check --fix --dry-run"],
        options: [.flag("--json", help: "Print the problems as JSON."),
                  .flag("--journals", help: "Report journals sharing a title too (notes named by a date, or in the daily folder).")]
            + CheckFix.options)

    let json: Bool
    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws {
        json = arguments.has("--json")
        self.arguments = arguments
        if arguments.has("--dry-run") && !arguments.has("--fix") { throw CLIError.usage("--dry-run goes with --fix") }
    }

    func run(_ context: CommandContext) throws {
        if arguments.has("--fix") { try CheckFix.run(context, dryRun: arguments.has("--dry-run"), json: json) }
        let opened = try VaultCatalog.open(context, walk: true)
        let vault = opened.vault
        let report = try VaultCheck.run(vault: vault, catalog: opened.catalog, skipped: opened.skipped,
                                        journals: arguments.has("--journals"), links: try opened.links())
        let output = context.output
        if json {
            output.line(JSON.array(report.problems.map {
                .object([("path", .string($0.path)), ("line", .int($0.line)), ("kind", .string($0.kind.rawValue)),
                         ("message", .string($0.message)), ("related", .array($0.related.map { .string($0) }))])
            }).rendered(.output))
        } else if report.isClean {
            output.line("no problems in \(Count.of(report.noteCount, "note"))")
        } else {
            for problem in report.problems {
                let location = context.displayPath(problem.path, vault: vault) + (problem.line.map { ":\($0)" } ?? "")
                output.line("\(location): \(problem.message)")
            }
            let fileProblems = report.fileProblems
            let notes = Count.of(report.noteCount, "note")
            var summary = fileProblems.isEmpty
                ? "no problems in \(notes)"
                : "\(Count.of(fileProblems.count, "problem")) in \(report.notesWithProblems) of \(notes)"
            let others = report.otherFilesWithProblems
            if others > 0 && !fileProblems.isEmpty { summary += " and \(Count.of(others, "other file"))" }
            let skipped = report.skipped.count
            if skipped > 0 { summary += "; \(skipped) \(skipped == 1 ? "entry" : "entries") skipped" }
            // The number every command's warning gives (`VaultCatalog.warnAboutProblems`).
            if report.notesWithContentProblems > 0 { summary += "; " + ProblemCount.phrase(report.notesWithContentProblems) }
            output.line(summary)
        }
        if !report.isClean { context.exitCode = .failure }
    }
}
