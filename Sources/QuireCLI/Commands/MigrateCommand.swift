import Foundation
import QuireCore
import QuireKit

/// `quire migrate [--dry-run]` — brings the vault's format to this quire's version
/// (QuireKit's `VaultMigrator`), as one commit.
struct MigrateCommand: Command {
    static let configuration = CommandConfiguration(
        name: "migrate",
        abstract: "Bring the vault's format up to date (one commit listing the migrations).",
        usage: "migrate [--dry-run] [--json] [-q]",
        discussion: """
        .quire/config.yml records the vault's format version. quire migrate runs the migrations
        registered after it, in order, over every note: other tools' date keys renamed to
        createdAt/updatedAt with epoch numbers written as ISO 8601, tags trimmed with
        case-duplicates merged, an id added where a note with front matter has none. Each edit
        is surgical (only the keys concerned change) and every device makes the same edits, so
        two devices migrating at once converge at their next sync. The new version is written,
        and everything is committed as one commit listing the migrations. Notes whose front
        matter cannot be edited (TOML, invalid YAML) are left as they are and listed. A tag
        value that is not text or a list of strings (a mapping, a nested list, a number, a
        boolean) is kept as it is, byte for byte, and named ("kept tags in …").
        --dry-run prints the diff of every change and writes nothing.

        A vault at an older version still works; commands say on standard error that a migration
        is available. A vault at a newer version than this quire knows is read-only here: every
        command that writes refuses (exit 1).
        """,
        examples: ["quire migrate --dry-run | less", "quire migrate"],
        options: [
            .flag("--dry-run", help: "Print the diff of the changes; write and commit nothing."),
            .flag("--json", help: "Print the report as JSON: {\"from\", \"to\", \"steps\", \"changed\", \"skipped\", \"commit\", \"kept\"}."),
            .quiet,
        ])

    let dryRun: Bool
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        dryRun = arguments.has("--dry-run")
        json = arguments.has("--json")
    }

    func run(_ context: CommandContext) throws {
        context.announcesMigrations = false
        let vault = try context.vault()
        let options = MigrateOptions(dryRun: dryRun, device: vault.deviceName(environment: context.environment),
                                     now: try context.now(), environment: context.environment)
        let report = try VaultMigrator.run(vault, options: options)
        let output = context.output
        if json {
            let steps = report.steps.map { JSON.object([("name", .string($0.name)), ("version", .int($0.version)),
                                                             ("summary", .string($0.summary)), ("notes", .int($0.notes))]) }
            let skipped = report.skipped.map { JSON.object([("path", .string($0.path)), ("reason", .string($0.reason))]) }
            output.line(JSON.object([
                ("from", .int(report.fromVersion)), ("to", .int(report.toVersion)), ("steps", .array(steps)),
                ("changed", .array(report.changed.map { .string($0) })), ("skipped", .array(skipped)),
                ("commit", .string(report.commit)), ("kept", KeptValueOutput.json(report.kept)),
                ("diff", dryRun ? .string(report.diff) : .null),
            ]).rendered(.output))
            return
        }
        for item in report.skipped {
            output.error("quire: warning: \(context.displayPath(item.path, vault: vault)) left as it is: \(item.reason)")
        }
        KeptValueOutput.print(report.kept, vault: vault, context: context)
        guard !report.steps.isEmpty else {
            output.line("the vault's format is up to date (version \(report.fromVersion))")
            return
        }
        if dryRun {
            output.write(report.diff)
            output.error("dry run: version \(report.fromVersion) → \(report.toVersion), \(Count.of(report.changed.count, "file")) would change; nothing written")
            return
        }
        output.line("migrated the vault from version \(report.fromVersion) to \(report.toVersion)"
                    + " (\(Count.of(report.changed.count, "file")) changed, commit \(report.commit.map { String($0.prefix(7)) } ?? "none"))")
        for step in report.steps {
            output.line("  \(step.name): \(Count.of(step.notes, "note"))")
        }
    }
}
