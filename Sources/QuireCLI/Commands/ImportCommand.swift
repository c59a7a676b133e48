import Foundation
import QuireCore
import QuireKit

/// `quire import FILE.json` / `quire import DIR --from TOOL` — brings notes in (QuireKit's
/// `JSONImport` and `FolderImport`), prints the summary.
struct ImportCommand: Command {
    static let configuration = CommandConfiguration(
        name: "import",
        abstract: "Import journal entries from JSON, or another tool's folder of notes.",
        usage: "import FILE.json [--folder F] [--json] [-q] | import DIR --from obsidian|dendron|jekyll|hugo|nb|zk|joplin|plain [--folder F] [--json] [-q]",
        discussion: """
        FILE holds an array of objects, JSON Lines (one object a line), or Day One's export (an
        object with an array under "entries"; uuid, creationDate, modifiedDate, text and starred
        read as id, createdAt, updatedAt, body and pinned). The keys title, body,
        tags, createdAt, updatedAt, project, mood, draft, pinned, color and id become the note's
        canonical front matter; any other key is kept as it is; path names the note's file.
        quire export --json writes such a file: imported into an empty vault it gives back every
        note byte for byte. An entry that is already in the vault is skipped (the same file, or a
        journal entry whose id the vault holds; an entry without id gets one derived from its
        content), so importing a file again adds nothing. Entries that only share an id are all
        imported.
        A bad entry is reported with its index and the rest go on; every note is written whole.

        DIR --from TOOL copies another tool's folder into the vault, its layout kept (so
        relative links keep working), its notes' date and tag keys mapped to quire's and every
        other key kept, attachments copied (Docs/format.md, "Importing folders"). A tag key
        whose value is not text or a list of strings (Hugo categories of mappings, keywords as
        a mapping) stays where it is, byte for byte, and is named ("kept categories in …").
        --from joplin takes the folder of Joplin's "Markdown + Front Matter" export or a JEX file
        (FILE.jex): notebooks become folders, resources go to _resources/ with the links to them
        rewritten, tags are kept, and to-dos get todo: true, completed: true|false and due, so
        'quire list todo:true completed:false due:<7d' lists what is due within a week.

        Notes go in --folder (default: the vault root). Nothing is committed: 'quire sync'
        commits them, as it does a note made with 'quire new'. Exit 1 when an entry failed.
        """,
        examples: [
            "quire import journal.json --folder Journal",
            "quire import ~/Dendron/notes --from dendron --folder Dendron",
            "quire import ~/Downloads/notes.jex --from joplin --folder Joplin",
        ],
        options: [
            .value("--from", name: "TOOL", help: "Import a folder written by TOOL: obsidian, dendron, jekyll, hugo, nb, zk, joplin (also a .jex file) or plain."),
            .value("--folder", name: "F", help: "The vault folder to import into (default: the root)."),
            .flag("--json", help: "Print the report as JSON: {\"imported\", \"skipped\", \"failed\", \"attachments\", \"kept\"}."),
            .quiet,
        ],
        positionals: 1...1)

    let source: String
    let tool: FolderImport.Tool?
    let folder: String
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        source = arguments.positionals[0]
        if let name = arguments.value("--from") {
            guard let tool = FolderImport.Tool(rawValue: name) else {
                throw CLIError.usage("unknown --from '\(name)'",
                                     hint: "one of " + FolderImport.Tool.allCases.map(\.rawValue).joined(separator: ", "))
            }
            self.tool = tool
        } else {
            tool = nil
        }
        folder = arguments.value("--folder") ?? ""
        json = arguments.has("--json")
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let url = context.absoluteURL(source)
        let line = ImportProgressLine.start(context, shown: !json)
        let report: ImportReport
        do {
            defer { line?.stop() }
            if let tool {
                let options = FolderImport.Options(tool: tool, folder: folder, now: try context.now(),
                                                   environment: context.environment)
                report = try FolderImport.run(from: url, into: vault, options: options, progress: line?.report)
            } else {
                let data: Data
                do {
                    data = try Data(contentsOf: url)
                } catch {
                    throw CLIError("cannot read \(source)", hint: "give a JSON file, or a folder with --from TOOL")
                }
                let options = JSONImportOptions(folder: folder, now: try context.now(), environment: context.environment)
                report = try JSONImport.run(data, path: source, into: vault, options: options, progress: line?.report)
            }
        }
        ImportOutput.print(report, json: json, vault: vault, context: context)
        if !report.failed.isEmpty { context.exitCode = .failure }
    }
}

/// An import report as text (summary on standard output, each failure on standard error) or JSON.
enum ImportOutput {
    static func print(_ report: ImportReport, json: Bool, vault: Vault, context: CommandContext) {
        let output = context.output
        if json {
            let imported = report.imported.map { JSON.object([("index", .int($0.index)), ("path", .string($0.path)),
                                                                   ("id", .string($0.id))]) }
            let skipped = report.skipped.map { JSON.object([("index", .int($0.index)), ("id", .string($0.id)),
                                                                 ("existingPath", .string($0.existingPath)),
                                                                 ("earlierIndex", .int($0.earlierIndex))]) }
            let failed = report.failed.map { JSON.object([("index", .int($0.index)), ("source", .string($0.source)),
                                                               ("reason", .string($0.reason))]) }
            let attachments = report.attachments.map { JSON.object([("source", .string($0.source)), ("path", .string($0.path))]) }
            output.line(JSON.object([("imported", .array(imported)), ("skipped", .array(skipped)),
                                          ("failed", .array(failed)), ("attachments", .array(attachments)),
                                          ("kept", KeptValueOutput.json(report.kept))]).rendered(.output))
            return
        }
        for failure in report.failed {
            let what = failure.source.map { "\(failure.index) (\($0))" } ?? String(failure.index)
            output.error("quire: warning: entry \(what) not imported: \(failure.reason)")
        }
        KeptValueOutput.print(report.kept, vault: vault, context: context)
        var parts = ["imported \(Count.of(report.imported.count, "note"))"]
        if !report.attachments.isEmpty || report.attachmentsUnchanged > 0 {
            parts.append("copied \(Count.of(report.attachments.count, "attachment"))")
        }
        let repeated = report.skipped.filter { $0.earlierIndex != nil }.count
        parts.append("skipped \(report.skipped.count - repeated) already in the vault")
        if repeated > 0 { parts.append("skipped \(repeated) repeated in the input") }
        parts.append("\(report.failed.count) failed")
        output.line(parts.joined(separator: ", "))
    }
}
