import Foundation
import QuireCore
import QuireKit

/// `quire export --json [FILE]` — the vault's notes in another format. One branch per format,
/// each calling one QuireKit function.
struct ExportCommand: Command {
    static let configuration = CommandConfiguration(
        name: "export",
        abstract: "Export the vault's notes (JSON).",
        usage: "export --json [FILE]",
        discussion: """
        --json writes every note as one object of a JSON array: path, id, title, createdAt,
        updatedAt, tags, project, mood, draft, every front-matter key under frontMatter, the body,
        and the file itself as content (contentBase64 when it is not UTF-8). 'quire import FILE'
        into an empty vault writes every note back byte for byte. Without FILE the JSON goes to
        standard output; FILE is written atomically. Attachments are not part of the export.
        """,
        examples: ["quire export --json notes.json", "quire export --json | jq '.[].title'"],
        options: [.flag("--json", help: "Export as JSON.")],
        positionals: 0...1)

    /// The formats `quire export` writes.
    enum Format {
        case json(file: String?)
    }

    let format: Format

    init(_ arguments: ParsedArguments) throws {
        guard arguments.has("--json") else {
            throw CLIError.usage("choose a format", hint: "quire export --json [FILE]")
        }
        format = .json(file: arguments.positionals.first)
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        switch format {
        case .json(let file):
            let report = try VaultExport.json(vault, options: ExportOptions(environment: context.environment))
            guard let file else {
                context.output.write(bytes: [UInt8](report.data))
                return
            }
            let url = context.absoluteURL(file)
            try AtomicFile.write(report.data, to: url, displayPath: file)
            context.output.line("exported \(Count.of(report.notes, "note")) to \(file)")
        }
    }
}
