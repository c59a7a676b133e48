import Foundation
import QuireCore
import QuireKit
import QuireSearch

/// The options `quire list` and `quire search` share, and how they print results.
struct QueryOutput {
    static let options: [OptionSpec] = [
        .value("--sort", name: "KEY", help: "Order by updated, created, title, project, path, relevance or words."),
        .flag("--reverse", help: "Reverse the order."),
        .value("--limit", name: "N", help: "Show at most N notes."),
        .flag("--json", help: "Print the notes as a JSON array."),
        .flag("--paths", help: "Print paths only, one per line (for editors, fzf, xargs)."),
        .flag("--null", "-0", help: "With --paths: separate paths with NUL instead of newlines."),
        .value("--format", name: "TEMPLATE", help: "Print each note with a template, e.g. '{title}\\t{path}' (any field or front-matter key)."),
    ]

    enum Style { case table, json, paths(separator: String), template(String) }

    let style: Style
    /// Whether a progress line may be drawn while the catalog opens (not under `--json`).
    var showsProgress: Bool {
        if case .json = style { return false }
        return true
    }
    let options: SearchOptions
    let queryArguments: [String]

    init(_ arguments: ParsedArguments) throws {
        var sort: SortKey?
        if let text = arguments.value("--sort") {
            guard let key = SortKey(rawValue: text) else {
                throw CLIError.usage("unknown sort key '\(text)'",
                                     hint: "use one of: \(SortKey.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            sort = key
        }
        var limit: Int?
        if let text = arguments.value("--limit") {
            guard let number = Int(text), number >= 0 else {
                throw CLIError.usage("--limit takes a number of notes, not '\(text)'")
            }
            limit = number
        }
        let chosen = ["--json", "--paths", "--format"].filter { arguments.has($0) || arguments.value($0) != nil }
        guard chosen.count <= 1 else {
            throw CLIError.usage("\(chosen.joined(separator: " and ")) cannot be used together")
        }
        if arguments.has("--null") && !arguments.has("--paths") {
            throw CLIError.usage("-0 works with --paths only")
        }
        if arguments.has("--json") {
            style = .json
        } else if arguments.has("--paths") {
            style = .paths(separator: arguments.has("--null") ? "\0" : "\n")
        } else if let template = arguments.value("--format") {
            style = .template(template.replacingOccurrences(of: "\\t", with: "\t").replacingOccurrences(of: "\\n", with: "\n"))
        } else {
            style = .table
        }
        options = SearchOptions(sort: sort, reverse: arguments.has("--reverse"), limit: limit)
        queryArguments = arguments.positionals
    }

    /// Opens the catalog, runs the query and prints the hits: `list` (`ranked` false) keeps the
    /// list order (pinned, then newest) even when the query has words; `search` sorts by
    /// relevance unless `--sort` says otherwise and prints a matching line under each hit.
    func run(_ context: CommandContext, ranked: Bool) throws {
        let query = try self.query(context)
        let catalog = try VaultCatalog.open(context, showProgress: showsProgress, attachments: query.usesLinkFilters)
        catalog.warnAboutProblems(context.output)
        try checkTemplate(catalog.catalog)
        var options = self.options
        if !ranked {
            options.ranksWords = false
        } else if options.sort == nil {
            options.sort = .relevance
        }
        options.attachments = try Self.attachments(for: query, catalog: catalog)
        if query.usesLinkFilters {
            // links-to: and linked-from: alone answer at query time without a kept table.
            options.links = catalog.session.linkTable(attachments: options.attachments, resolvingWhole: query.readsEveryLink)
        }
        let hits = catalog.catalog.results(query, options: options)
        print(hits, query: query, catalog: catalog, context: context, snippets: ranked)
    }

    /// The vault's attachments when the query has link filters (they resolve links to files),
    /// else none (no walk): those the opening walk listed, when it walked.
    private static func attachments(for query: NoteQuery, catalog: VaultCatalog) throws -> [String] {
        guard query.usesLinkFilters else { return [] }
        return try catalog.session.attachmentPaths()
    }

    /// Parses the query; a malformed one is a usage error pointing at the character.
    func query(_ context: CommandContext) throws -> NoteQuery {
        do {
            return try NoteQuery.parse(arguments: queryArguments, now: context.now())
        } catch let error as QueryError where error.kind == .nothingToSearch {
            throw CLIError.usage("bad query: \(error.message)",
                                 hint: "look for a word, a symbol such as an emoji, or a filter (tag:idea); "
                                     + "'quire list' without a query lists every note (see Docs/search.md)")
        } catch let error as QueryError {
            let text = queryArguments.joined(separator: " ")
            throw CLIError.usage("bad query: \(error.description)",
                                 hint: "\(text)\n      \(String(repeating: " ", count: error.offset))^  (see Docs/search.md)")
        }
    }

    /// Prints hits; `snippets` adds a matching line under each (search).
    func print(_ hits: SearchResults, query: NoteQuery, catalog: VaultCatalog, context: CommandContext, snippets: Bool) {
        let output = context.output
        let vault = catalog.vault
        switch style {
        case .json:
            // Written hit by hit, each record decoded for its object alone: no tree of every
            // hit's object nor every record is held (100,000 hits).
            output.jsonArray(count: hits.count, level: 0) { position in
                let hit = hits[position]
                var object = NoteJSON.object(Note(record: hit.transientRecord))
                if snippets, case .object(var pairs) = object {
                    pairs.append(("score", .double((hit.score * 1000).rounded() / 1000)))
                    pairs.append(("snippet", .string(catalog.session.snippet(for: hit, query: query)?.text)))
                    object = .object(pairs)
                }
                return object
            }
            output.write("\n")
        case .paths(let separator):
            Self.printPaths(hits, separator: separator, context: context, vault: vault)
        case .template(let template):
            for hit in hits { output.line(Self.fill(template, hit: hit, context: context, vault: vault)) }
        case .table:
            let notes = hits.map { Note(record: $0.recordHead, withFrontMatter: false) }
            let table = NoteTable(notes, context: context, vault: vault)
            for (hit, note) in zip(hits, notes) {
                output.line(table.line(note))
                if snippets, let snippet = catalog.session.snippet(for: hit, query: query) {
                    output.line("    " + Self.highlight(snippet, output: output, columns: table.detailColumns))
                }
            }
        }
    }

    /// Prints the hits' paths, each followed by `separator`: as `displayPath` shows them (a
    /// name with a newline quoted), or byte for byte with `--null` (`rawDisplayPath`). A path
    /// below the current folder whose rest is plain ASCII, as almost all are, shows as that
    /// rest: its bytes go from the catalog to the output as they are (no `String` per hit).
    static func printPaths(_ hits: SearchResults, separator: String, context: CommandContext, vault: Vault) {
        let output = context.output
        let raw = separator == "\0"
        let prefix = Array(context.displayPrefix(vault).utf8)
        let end = Array(separator.utf8)
        for position in hits.indices {
            hits.withPath(position) { path in
                if let shown = plainDisplay(path, below: prefix, raw: raw) {
                    output.write(bytes: shown)
                    output.write(bytes: end)
                    return
                }
                let text = String(decoding: path, as: UTF8.self)
                output.write((raw ? context.rawDisplayPath(text, vault: vault) : context.displayPath(text, vault: vault)) + separator)
            }
        }
    }

    /// The part of `path` after `prefix` (the current folder, `""` at the root) when the path
    /// starts with it and that part is printable ASCII (any ASCII when `raw`): what
    /// `displayPath` (`rawDisplayPath`) shows for it. Nil for any other path.
    static func plainDisplay(_ path: UnsafeRawBufferPointer, below prefix: [UInt8], raw: Bool) -> UnsafeRawBufferPointer? {
        guard path.count > prefix.count, path.starts(with: prefix) else { return nil }
        let rest = UnsafeRawBufferPointer(rebasing: path[prefix.count...])
        let plain = raw ? ASCIIChunk.allInRange(rest, 0, 0x7F) : ASCIIChunk.allInRange(rest, 0x20, 0x7E)
        return plain ? rest : nil
    }

    /// The snippet with its matches in bold yellow (when color is on), cut to `columns`.
    static func highlight(_ snippet: Snippet, output: Output, columns: Int? = nil) -> String {
        let full = snippet.text
        var end = full.endIndex
        if let columns {
            let cut = TerminalText.cut(full, to: columns)
            if cut != full { end = full.index(full.startIndex, offsetBy: cut.count - 1) }
        }
        let marks = output.useColor ? snippet.highlights.sorted { $0.lowerBound < $1.lowerBound } : []
        var text = ""
        var position = full.startIndex
        for range in marks where range.lowerBound >= position && range.upperBound <= end {
            text += shown(full[position..<range.lowerBound])
            text += output.styled(shown(full[range]), "1;33")
            position = range.upperBound
        }
        return text + shown(full[position..<end]) + (end < full.endIndex ? "…" : "")
    }

    /// A piece of a snippet as a line shows it: a tab as a space, other control characters as
    /// escapes (`TerminalText.visible`).
    private static func shown(_ piece: Substring) -> String {
        TerminalText.visible(piece.utf8.contains(0x09) ? piece.replacingOccurrences(of: "\t", with: " ") : String(piece))
    }

    /// The fields every note has for `--format`: the keys of `--json`, and `score`.
    static let templateFields = ["path", "id", "title", "folder", "tags", "project", "draft", "pinned", "color", "mood",
                                 "priority", "createdAt", "updatedAt", "createdAtSource", "updatedAtSource", "words",
                                 "frontMatter", "score"]

    /// Refuses a `--format` template naming a field that is neither a note field nor a
    /// front-matter key of any note (a typo would print blank lines).
    func checkTemplate(_ catalog: Catalog) throws {
        guard case .template(let template) = style else { return }
        for name in Self.placeholders(template) where !Self.templateFields.contains(name) {
            guard !catalog.hasFrontMatterKey(name) else { continue }
            let keys = catalog.frontMatterKeys().filter { !Self.templateFields.contains($0) }
            throw CLIError.usage("unknown field '{\(name)}' in --format",
                                 hint: "fields: \(Self.templateFields.joined(separator: ", "))"
                                     + (keys.isEmpty ? "" : "; front-matter keys: \(keys.joined(separator: ", "))"))
        }
    }

    /// The names inside `{…}` in a template, in order.
    static func placeholders(_ template: String) -> [String] {
        var names: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// Fills `{field}` placeholders: note fields (`title`, `path`, `tags`, …) or front-matter keys.
    static func fill(_ template: String, hit: SearchHit, context: CommandContext, vault: Vault) -> String {
        let note = Note(record: hit.record)
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            result += field(name, note: note, score: hit.score, context: context, vault: vault)
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    static func field(_ name: String, note: Note, score: Double, context: CommandContext, vault: Vault) -> String {
        switch name {
        case "path": return context.displayPath(note.path, vault: vault)
        case "score": return String(format: "%.3f", score)
        default:
            guard case .object(let pairs) = NoteJSON.object(note),
                  let value = pairs.first(where: { $0.0 == name })?.1 ?? note.value(forKey: name).map(NoteJSON.value) else {
                return ""
            }
            return plain(value)
        }
    }

    static func plain(_ value: JSON) -> String {
        switch value {
        case .null: return ""
        case .string(let text): return text
        case .array(let items): return items.map(plain).joined(separator: ",")
        default: return value.rendered(.outputLine)
        }
    }
}
