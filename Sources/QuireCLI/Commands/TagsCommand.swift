import Foundation
import QuireCore
import QuireSearch

/// `quire tags` and `quire projects` — names with their note counts.
struct TagsCommand: NameCountCommand {
    static let configuration = CommandConfiguration(
        name: "tags",
        abstract: "List tags with the number of notes carrying each.",
        usage: "tags [--json]",
        examples: ["quire tags", "quire tags --json"],
        options: [.flag("--json", help: "Print as JSON: [{\"name\", \"count\"}].")])

    let json: Bool
    static let prefix = "#"

    static func counts(_ catalog: Catalog) -> [NameCount] { catalog.tags() }
}

/// `quire projects`.
struct ProjectsCommand: NameCountCommand {
    static let configuration = CommandConfiguration(
        name: "projects",
        abstract: "List projects with the number of notes in each.",
        usage: "projects [--json]",
        examples: ["quire projects"],
        options: [.flag("--json", help: "Print as JSON: [{\"name\", \"count\"}].")])

    let json: Bool
    static let prefix = ""

    static func counts(_ catalog: Catalog) -> [NameCount] { catalog.projects() }
}

/// `quire tags` and `quire projects`: names from the catalog with their note counts, as a table
/// or `--json`; the two differ only in what they count and what stands before a name.
protocol NameCountCommand: Command {
    /// Print JSON rather than a table.
    var json: Bool { get }
    /// The command printing as `json` says.
    init(json: Bool)
    /// What stands before each name in the table (`#` before a tag).
    static var prefix: String { get }
    /// The names and their counts.
    static func counts(_ catalog: Catalog) -> [NameCount]
}

extension NameCountCommand {
    init(_ arguments: ParsedArguments) throws {
        self.init(json: arguments.has("--json"))
    }

    func run(_ context: CommandContext) throws {
        let catalog = try VaultCatalog.open(context, showProgress: !json)
        catalog.warnAboutProblems(context.output)
        NameCountOutput.print(Self.counts(catalog.catalog), json: json, prefix: Self.prefix, context: context)
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
