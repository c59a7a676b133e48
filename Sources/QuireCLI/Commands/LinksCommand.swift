import Foundation
import QuireCore
import QuireKit
import QuireSearch

/// `quire links NOTE` — the links a note writes, each with where it leads.
struct LinksCommand: Command {
    static let configuration = CommandConfiguration(
        name: "links",
        abstract: "List the links a note writes, each resolved: note, attachment, ambiguous or unresolved.",
        usage: "links NOTE [--json]",
        discussion: """
        Wikilinks ([[target]], [[target|label]], [[target#heading]], ![[embed]]) and Markdown
        links ([label](path.md)) in the body and in front-matter values such as
        related: "[[X]]", in file order, not those inside code. Each is resolved as Obsidian does:
        relative path, vault path, file name, then title and aliases, ignoring case (Docs/links.md).
        A note without links is no error: nothing is printed ([] with --json) and the exit code
        is 0, as for 'quire backlinks' and a search that finds nothing.
        """,
        examples: ["quire links \"Woody's last ride\"", "quire links Drafts/woody.md --json"],
        options: [.flag("--json", help: "Print as JSON: [{\"line\", \"style\", \"embed\", \"target\", \"heading\", \"block\", \"label\", \"status\", \"path\", \"candidates\", \"anchor\"}].")],
        positionals: 1...1)

    let note: String
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        note = arguments.positionals[0]
        json = arguments.has("--json")
    }

    func run(_ context: CommandContext) throws {
        let (notes, path, links) = try Self.open(note, context)
        let outgoing = links.outgoing(of: path)
        let output = context.output
        if json {
            output.line(JSON.array(outgoing.map { Self.json($0) }).rendered(.output))
            return
        }
        for entry in outgoing {
            let place: String
            switch entry.resolution {
            case .note(let target), .attachment(let target): place = "→ " + context.displayPath(target, vault: notes.vault)
            case .ambiguous(let candidates): place = "ambiguous: " + candidates.map { context.displayPath($0, vault: notes.vault) }.joined(separator: ", ")
            case .unresolved: place = "unresolved"
            }
            let anchor = entry.anchor == .missing ? " (no such " + (entry.link.heading != nil ? "heading)" : "block)") : ""
            output.line("\(entry.link.line): \(entry.link.displayText)  \(place)\(anchor)")
        }
    }

    /// The vault's notes, the path NOTE names and the vault's links: what `links` and
    /// `backlinks` start with.
    static func open(_ note: String, _ context: CommandContext) throws -> (VaultCatalog, String, VaultLinks) {
        let notes = try VaultCatalog.open(context, attachments: true)
        notes.warnAboutProblems(context.output)
        let path = try VaultNotes.resolvePath(note, in: notes, context: context)
        return (notes, path, try notes.links(resolvingWhole: false))
    }

    /// A link as JSON (shared with `backlinks`).
    static func linkFields(_ link: NoteLink) -> [(String, JSON)] {
        var fields: [(String, JSON)] = [
            ("line", .int(link.line)), ("column", .int(link.column)), ("style", .string(link.style.rawValue)),
            ("embed", .bool(link.isEmbed)), ("target", .string(link.target)), ("heading", .string(link.heading)),
            ("block", .string(link.blockID)), ("label", .string(link.label)),
        ]
        if case .frontMatter(let key) = link.location { fields.append(("frontMatterKey", .string(key))) }
        return fields
    }

    private static func json(_ entry: OutgoingLink) -> JSON {
        var candidates: [String] = []
        if case .ambiguous(let paths) = entry.resolution { candidates = paths }
        return .object(linkFields(entry.link) + [
            ("status", .string(entry.resolution.status)), ("path", .string(entry.resolution.path)),
            ("candidates", .array(candidates.map { .string($0) })), ("anchor", .string(entry.anchor.rawValue)),
        ])
    }
}

/// `quire backlinks NOTE` — the links into a note, or with `--unlinked` its unlinked mentions.
struct BacklinksCommand: Command {
    static let configuration = CommandConfiguration(
        name: "backlinks",
        abstract: "List the links into a note, each with its line; --unlinked: notes that name it without a link.",
        usage: "backlinks NOTE [--unlinked] [--json]",
        discussion: """
        A backlink is any link (wikilink, embed, Markdown link, front-matter link) that resolves
        to the note (Docs/links.md). With --unlinked, lists instead the notes that mention the
        note's title or one of its aliases as whole words (ignoring case and accents) without
        linking to it, outside code and front matter. No backlinks or mentions is no error:
        nothing is printed ([] with --json) and the exit code is 0.
        """,
        examples: ["quire backlinks \"Woody's last ride\"", "quire backlinks woody --unlinked --json"],
        options: [
            .flag("--unlinked", help: "List unlinked mentions instead of links."),
            .flag("--json", help: "Print as JSON: [{\"path\", \"title\", \"line\", \"context\", …}]."),
        ],
        positionals: 1...1)

    let note: String
    let json: Bool
    let unlinked: Bool

    init(_ arguments: ParsedArguments) throws {
        note = arguments.positionals[0]
        json = arguments.has("--json")
        unlinked = arguments.has("--unlinked")
    }

    func run(_ context: CommandContext) throws {
        let (notes, path, links) = try LinksCommand.open(note, context)
        let output = context.output
        if unlinked {
            let mentions = try links.unlinkedMentions(of: path)
            if json {
                output.line(JSON.array(mentions.map {
                    .object([("path", .string($0.source)), ("title", .string($0.sourceTitle)), ("line", .int($0.line)),
                             ("text", .string($0.text)), ("context", .string($0.context))])
                }).rendered(.output))
            } else {
                for mention in mentions {
                    output.line("\(context.displayPath(mention.source, vault: notes.vault)):\(mention.line): \(mention.context)")
                }
            }
            return
        }
        let backlinks = try links.backlinks(of: path, keepContexts: notes.session.keepLinkContexts)
        if json {
            output.line(JSON.array(backlinks.map {
                .object([("path", .string($0.source)), ("title", .string($0.sourceTitle))]
                        + LinksCommand.linkFields($0.link) + [("context", .string($0.context))])
            }).rendered(.output))
        } else {
            for entry in backlinks {
                output.line("\(context.displayPath(entry.source, vault: notes.vault)):\(entry.link.line): \(entry.context)")
            }
        }
    }
}

/// `quire graph [QUERY…]` — the link graph of the matching notes, as DOT or JSON.
struct GraphCommand: Command {
    static let configuration = CommandConfiguration(
        name: "graph",
        abstract: "Print the link graph of the notes matching a query (all by default), for Graphviz or other tools.",
        usage: "graph [QUERY…] [--dot | --json]",
        discussion: """
        Nodes are the matching notes; an edge joins two of them when the first links to the
        second (counted once per pair, with the number of links). Links to notes outside the
        query, to attachments, to nowhere and to the note itself are left out. --dot (the
        default) prints Graphviz: quire graph | dot -Tsvg > graph.svg. The query language is
        'quire search''s (Docs/search.md).
        """,
        examples: ["quire graph | dot -Tsvg > vault.svg", "quire graph tag:project --json", "quire graph orphan:false"],
        options: [
            .flag("--dot", help: "Print Graphviz DOT (the default)."),
            .flag("--json", help: "Print {\"nodes\": [{\"path\", \"title\"}], \"edges\": [{\"source\", \"target\", \"count\"}]}."),
        ],
        dashPositionals: true,
        positionals: 0...Int.max)

    let json: Bool
    let queryArguments: [String]

    init(_ arguments: ParsedArguments) throws {
        if arguments.has("--dot") && arguments.has("--json") { throw CLIError.usage("--dot and --json cannot be used together") }
        json = arguments.has("--json")
        queryArguments = arguments.positionals
    }

    func run(_ context: CommandContext) throws {
        let query: NoteQuery?
        do {
            query = queryArguments.isEmpty ? nil : try NoteQuery.parse(arguments: queryArguments, now: context.now())
        } catch let error as QueryError {
            throw CLIError.usage("bad query: \(error.message)", hint: "see 'quire help search' and Docs/search.md")
        }
        let catalog = try VaultCatalog.open(context, showProgress: !json, attachments: true)
        catalog.warnAboutProblems(context.output)
        let links = try catalog.links()
        let output = context.output
        if json, let indices = links.graphIndices(matching: query) {
            Self.writeJSON(indices, to: output)
            return
        }
        let report = links.graphReport(matching: query)
        if json {
            // As `JSON.object([("nodes", …), ("edges", …)]).rendered(.output)`, element by element.
            output.write("{\n  \"nodes\": ")
            output.jsonArray(count: report.nodes.count, level: 1) { index in
                .object([("path", .string(report.nodes[index].path)), ("title", .string(report.nodes[index].title))])
            }
            output.write(",\n  \"edges\": ")
            output.jsonArray(count: report.edges.count, level: 1) { index in
                let edge = report.edges[index]
                return .object([("source", .string(edge.source)), ("target", .string(edge.target)), ("count", .int(edge.count))])
            }
            output.write("\n}\n")
            return
        }
        output.line("digraph vault {")
        for node in report.nodes { output.line("  \(Self.quoted(node.path)) [label=\(Self.quoted(node.title))];") }
        for edge in report.edges {
            output.line("  \(Self.quoted(edge.source)) -> \(Self.quoted(edge.target))" + (edge.count > 1 ? " [weight=\(edge.count)];" : ";"))
        }
        output.line("}")
    }

    /// `{"nodes": […], "edges": […]}` as `JSON.Style.output` writes it, written from the link
    /// table's bytes a megabyte at a time (no string or JSON value per node or edge).
    static func writeJSON(_ graph: LinkGraphIndices, to output: Output) {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 20)
        func flush(_ force: Bool = false) {
            guard force || out.count >= 1 << 20 else { return }
            output.write(bytes: out)
            out.removeAll(keepingCapacity: true)
        }
        func append(_ text: String) { out.append(contentsOf: text.utf8) }
        func list(_ count: Int, _ element: (Int) -> Void) {
            guard count > 0 else { return append("[]") }
            append("[")
            for index in 0..<count {
                append(index > 0 ? ",\n    {\n      " : "\n    {\n      ")
                element(index)
                append("\n    }")
                flush()
            }
            append("\n  ]")
        }
        let table = graph.table
        append("{\n  \"nodes\": ")
        list(graph.nodes.count) { index in
            append("\"path\": ")
            table.withPath(graph.nodes[index]) { JSON.writeString(utf8: $0, into: &out) }
            append(",\n      \"title\": ")
            table.withTitle(graph.nodes[index]) { JSON.writeString(utf8: $0, into: &out) }
        }
        append(",\n  \"edges\": ")
        list(graph.edges.count) { index in
            let edge = graph.edges[index]
            append("\"source\": ")
            table.withPath(edge.source) { JSON.writeString(utf8: $0, into: &out) }
            append(",\n      \"target\": ")
            table.withPath(edge.target) { JSON.writeString(utf8: $0, into: &out) }
            append(",\n      \"count\": \(edge.count)")
        }
        append("\n}\n")
        flush(true)
    }

    /// A DOT string literal.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }
}
