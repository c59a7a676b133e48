import Foundation
import QuireCore
import QuireKit

/// `quire export --html DIR` — the vault's notes in another format. One branch per format,
/// each calling one QuireKit function.
struct ExportCommand: Command {
    static let configuration = CommandConfiguration(
        name: "export",
        abstract: "Export the vault's notes (a static HTML site).",
        usage: "export --html DIR [--no-drafts] [--title TEXT] [--raw-html]",
        discussion: """
        --html writes a static site to DIR: a page per note (tables, task lists, code, footnotes),
        wikilinks, embeds and Markdown links leading to the pages, the attachments notes link to
        copied under files/, backlinks on every page, an index by folder (index.html) and by tag
        (tags.html), and a search over every note that runs in the browser (search.html). Every
        link is relative and nothing is loaded from elsewhere: open index.html from disk or
        publish the folder as it is. DIR is created, or replaced when it holds a site quire wrote
        before; any other non-empty folder is refused. Links that lead nowhere are shown as text
        on the pages and listed on standard error. See Docs/publishing.md.
        """,
        examples: ["quire export --html site", "quire export --html /srv/www/notes --no-drafts --title \"Writers' room\""],
        options: [
            .value("--html", name: "DIR", help: "Write a static site to DIR."),
            .flag("--no-drafts", help: "Leave out notes marked draft: true (links to them show as text)."),
            .value("--title", name: "TEXT", help: "The site's name (default: the vault folder's name)."),
            .flag("--raw-html", help: "Keep raw HTML written in notes (script-like tags are still disarmed)."),
        ],
        positionals: 0...0)

    /// The formats `quire export` writes.
    enum Format {
        case html(directory: String)
    }

    let format: Format
    let includeDrafts: Bool
    let title: String?
    let rawHTML: Bool

    init(_ arguments: ParsedArguments) throws {
        guard let directory = arguments.value("--html") else {
            throw CLIError.usage("choose a format", hint: "quire export --html DIR")
        }
        format = .html(directory: directory)
        includeDrafts = !arguments.has("--no-drafts")
        title = arguments.value("--title")
        rawHTML = arguments.has("--raw-html")
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let output = context.output
        switch format {
        case .html(let directory):
            let options = SiteExportOptions(destination: context.absoluteURL(directory), title: title, includeDrafts: includeDrafts, rawHTML: rawHTML)
            let report = try SiteExport.run(vault: vault, rules: GitIgnoreRules.of(vault), options: options)
            for link in report.brokenLinks {
                output.error("quire: warning: \(context.displayPath(link.source, vault: vault)):\(link.line): \(link.text) leads nowhere (\(link.reason))")
            }
            var summary = "exported \(Count.of(report.pages, "page")) and \(Count.of(report.attachments, "attachment")) to \(directory)"
            if report.draftsLeftOut > 0 { summary += " (\(Count.of(report.draftsLeftOut, "draft")) left out)" }
            output.line(summary)
            output.line("open \((directory as NSString).appendingPathComponent("index.html"))")
        }
    }
}
