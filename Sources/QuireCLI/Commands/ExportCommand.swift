import Foundation
import QuireCore
import QuireKit

/// `quire export --json [FILE]` and `quire export --html DIR` — the vault's notes in another
/// format. One branch per format, each calling one QuireKit function.
struct ExportCommand: Command {
    static let configuration = CommandConfiguration(
        name: "export",
        abstract: "Export the vault's notes (JSON, or a static HTML site).",
        usage: "export (--json [FILE [--attachments]] | --html DIR [--no-drafts] [--title TEXT] [--raw-html])",
        discussion: """
        --json writes every note as one object of a JSON array: path, id, title, createdAt,
        updatedAt, tags, project, mood, draft, every front-matter key under frontMatter, the body,
        and the file itself as content (contentBase64 when it is not UTF-8). 'quire import FILE'
        into an empty vault writes every note back byte for byte. Without FILE the JSON goes to
        standard output; FILE is written atomically. Attachments (images, PDFs…) are not in the JSON:
        the export says how many it left out, and with --attachments they are copied beside FILE,
        into FILE's name less .json plus .attachments/ at their vault paths ('quire import
        notes.attachments --from plain' brings them back).

        --html writes a static site to DIR: a page per note (tables, task lists, code, footnotes),
        wikilinks, embeds and Markdown links leading to the pages, the attachments notes link to
        copied under files/, backlinks on every page, an index by folder (index.html) and by tag
        (tags.html), and a search over every note that runs in the browser (search.html). Every
        link is relative and nothing is loaded from elsewhere: open index.html from disk or
        publish the folder as it is. DIR is created, or replaced when it holds a site quire wrote
        before; any other non-empty folder is refused. Links that lead nowhere are shown as text
        on the pages and listed on standard error. See Docs/publishing.md.
        """,
        examples: ["quire export --json notes.json", "quire export --json notes.json --attachments", "quire export --json | jq '.[].title'",
                   "quire export --html site", "quire export --html /srv/www/notes --no-drafts --title \"Writers' room\""],
        options: [
            .flag("--json", help: "Export as JSON (to FILE, else standard output)."),
            .flag("--attachments", help: "With --json FILE: copy the attachments beside FILE (into NAME.attachments/)."),
            .value("--html", name: "DIR", help: "Write a static site to DIR."),
            .flag("--no-drafts", help: "With --html: leave out notes marked draft: true (links to them show as text)."),
            .value("--title", name: "TEXT", help: "With --html: the site's name (default: the vault folder's name)."),
            .flag("--raw-html", help: "With --html: keep raw HTML written in notes (script-like tags are still disarmed)."),
        ],
        positionals: 0...1)

    /// The formats `quire export` writes.
    enum Format {
        case json(file: String?)
        case html(directory: String)
    }

    let format: Format
    let includeDrafts: Bool
    let title: String?
    let rawHTML: Bool
    let attachments: Bool

    init(_ arguments: ParsedArguments) throws {
        let json = arguments.has("--json")
        let html = arguments.value("--html")
        switch (json, html) {
        case (true, nil):
            format = .json(file: arguments.positionals.first)
        case (false, let directory?):
            guard arguments.positionals.isEmpty else {
                throw CLIError.usage("--html takes its folder as its value", hint: "quire export --html DIR")
            }
            format = .html(directory: directory)
        case (true, _?):
            throw CLIError.usage("choose one format", hint: "quire export --json [FILE], or quire export --html DIR")
        case (false, nil):
            throw CLIError.usage("choose a format", hint: "quire export --json [FILE], or quire export --html DIR")
        }
        includeDrafts = !arguments.has("--no-drafts")
        title = arguments.value("--title")
        rawHTML = arguments.has("--raw-html")
        attachments = arguments.has("--attachments")
        if attachments, case .json(file: nil) = format {
            throw CLIError.usage("--attachments needs the FILE the JSON goes to", hint: "quire export --json notes.json --attachments")
        }
        if attachments, case .html = format {
            throw CLIError.usage("--attachments goes with --json FILE", hint: "--html copies the attachments notes link to by itself")
        }
    }

    /// Where `--attachments` copies the attachments: `notes.json` → `notes.attachments`.
    static func attachmentFolder(for file: String) -> String {
        (file.lowercased().hasSuffix(".json") ? String(file.dropLast(5)) : file) + ".attachments"
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let output = context.output
        switch format {
        case .json(let file):
            let report = try VaultExport.json(vault, options: ExportOptions(environment: context.environment))
            let leftOut = Count.of(report.attachments.count, "attachment")
            guard let file else {
                output.write(bytes: [UInt8](report.data))
                if !report.attachments.isEmpty {
                    output.error("quire: note: \(leftOut) left out (the JSON holds notes only); "
                                 + "'quire export --json FILE --attachments' copies them beside FILE")
                }
                return
            }
            let url = context.absoluteURL(file)
            try AtomicFile.write(report.data, to: url, displayPath: file)
            if attachments {
                let folder = Self.attachmentFolder(for: file)
                let copied = try VaultExport.copyAttachments(report.attachments, of: vault, to: context.absoluteURL(folder))
                output.line("exported \(Count.of(report.notes, "note")) to \(file) and \(Count.of(copied, "attachment")) to \(folder)/")
            } else if report.attachments.isEmpty {
                output.line("exported \(Count.of(report.notes, "note")) to \(file)")
            } else {
                output.line("exported \(Count.of(report.notes, "note")) to \(file); \(leftOut) left out (--attachments copies them beside it)")
            }
        case .html(let directory):
            let options = SiteExportOptions(destination: context.absoluteURL(directory), title: title, includeDrafts: includeDrafts, rawHTML: rawHTML)
            let report = try SiteExport.run(vault: vault, environment: context.environment, options: options)
            for link in report.brokenLinks {
                output.error("quire: warning: \(context.displayPath(link.source, vault: vault)):\(link.line): \(link.text) leads nowhere (\(link.reason))")
            }
            var summary = "exported \(Count.of(report.pages, "page")) and \(Count.of(report.attachments, "attachment")) to \(directory)"
            if report.draftsLeftOut > 0 { summary += " (\(Count.of(report.draftsLeftOut, "draft")) left out)" }
            output.line(summary)
            if report.keptFiles > 0 { output.line("kept \(Count.of(report.keptFiles, "file")) in \(directory) that quire did not write") }
            output.line("open \((directory as NSString).appendingPathComponent("index.html"))")
        }
    }
}
