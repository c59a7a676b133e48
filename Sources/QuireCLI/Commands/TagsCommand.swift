import Foundation
import QuireCore
import QuireSearch

/// `quire tags` and `quire projects` — names with their note counts.
struct TagsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "tags",
        abstract: "List tags with the number of notes carrying each.",
        usage: "tags [--json]",
        examples: ["quire tags", "quire tags --json"],
        options: [.flag("--json", help: "Print as JSON: [{\"name\", \"count\"}].")])

    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments.has("--json")
    }

    func run(_ context: CommandContext) throws {
        let catalog = try VaultCatalog.open(context, showProgress: !json)
        catalog.warnAboutProblems(context.output)
        NameCountOutput.print(catalog.catalog.tags(), json: json, prefix: "#", context: context)
    }
}

/// `quire projects`.
struct ProjectsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "projects",
        abstract: "List projects with the number of notes in each.",
        usage: "projects [--json]",
        examples: ["quire projects"],
        options: [.flag("--json", help: "Print as JSON: [{\"name\", \"count\"}].")])

    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments.has("--json")
    }

    func run(_ context: CommandContext) throws {
        let catalog = try VaultCatalog.open(context, showProgress: !json)
        catalog.warnAboutProblems(context.output)
        NameCountOutput.print(catalog.catalog.projects(), json: json, prefix: "", context: context)
    }
}

/// Prints names with counts as a table or JSON.
enum NameCountOutput {
    static func print(_ rows: [NameCount], json: Bool, prefix: String, context: CommandContext) {
        let output = context.output
        if json {
            output.line(JSON.array(rows.map { .object([("name", .string($0.name)), ("count", .int($0.count))]) }).rendered(.output))
            return
        }
        let width = String(rows.map(\.count).max() ?? 0).count
        for row in rows {
            let count = String(row.count)
            output.line(String(repeating: " ", count: width - count.count) + count + "  " + prefix + TerminalText.visible(row.name))
        }
    }
}
