import Foundation
import QuireCore
import QuireSearch

/// One link of a note with where it leads (`quire links`).
public struct OutgoingLink: Sendable, Equatable {
    /// The link as written.
    public var link: NoteLink
    /// Where it leads.
    public var resolution: LinkResolution
    /// Whether its heading or block exists in the target.
    public var anchor: AnchorStatus
}

/// One link into a note, with the line it is on (`quire backlinks`).
public struct BacklinkEntry: Sendable, Equatable {
    /// The vault path of the linking note.
    public var source: String
    /// The title of the linking note.
    public var sourceTitle: String
    /// The link as written.
    public var link: NoteLink
    /// The line the link is on, trimmed (at most `VaultLinks.contextLength` characters around
    /// the link).
    public var context: String
}

/// A note that names another one without linking to it (`quire backlinks --unlinked`).
public struct UnlinkedMention: Sendable, Equatable {
    /// The vault path of the mentioning note.
    public var source: String
    /// The title of the mentioning note.
    public var sourceTitle: String
    /// The title or alias found, as written in the mentioning note.
    public var text: String
    /// The 1-based line of the file it is on.
    public var line: Int
    /// The line, trimmed (shortened around the mention).
    public var context: String
}

/// A link that does not lead where it should (`quire check`).
public struct LinkProblem: Sendable, Equatable {
    /// What is wrong.
    public enum Kind: String, Sendable, Equatable {
        /// No file fits the target.
        case unresolved
        /// Several files fit: `candidates` lists them.
        case ambiguous
        /// The target note has no such heading or block.
        case missingAnchor
    }
    /// The vault path of the note the link is written in.
    public var source: String
    /// The link.
    public var link: NoteLink
    /// What is wrong.
    public var kind: Kind
    /// For an ambiguous link, the files that fit; for an unresolved one, the closest note
    /// names (by edit distance), best first; for a missing anchor, the target's path.
    public var candidates: [String]
    /// For an unresolved bare name, the notes that have it as an alias (`[[Alias]]`, which
    /// Obsidian leaves unresolved: it links an alias as `[[File|Alias]]`).
    public var aliasHolders: [String] = []
}

/// The links of a vault, over its catalog: the one set of functions the CLI, the language
/// server and the HTML export call for outgoing links, backlinks, unlinked mentions, the graph
/// and link problems. Attachments (files that are not notes) are listed once, when made.
public struct VaultLinks: Sendable {
    /// The vault.
    public let vault: Vault
    /// Its catalog (fresh, as the caller opened it).
    public let catalog: Catalog
    /// The vault's attachments (vault paths), which links to files resolve against.
    public let attachments: [String]
    /// The catalog's resolved links (`VaultSession.linkTable`), read instead of resolving them
    /// when given.
    public let table: LinkTable?
    /// Context snippets are cut to about this many characters around the link.
    public static let contextLength = 120

    /// Links over `catalog`; the attachments are listed with the vault's git ignore rules.
    public init(vault: Vault, catalog: Catalog) throws {
        let rules = GitIgnoreRules.of(vault)
        let matcher = try rules?.ignoreMatcher()
        let attachments = try vault.attachmentPaths(ignore: matcher)
        rules?.walkFinished()
        self.init(vault: vault, catalog: catalog, attachments: attachments)
    }

    /// Links over `catalog` with the attachments given, and the link table resolved over them.
    public init(vault: Vault, catalog: Catalog, attachments: [String], table: LinkTable? = nil) {
        self.vault = vault
        self.catalog = catalog
        self.attachments = attachments
        self.table = table
    }

    /// The resolver every function here uses.
    public var resolver: LinkResolver { catalog.linkResolver(attachments: attachments) }

    /// The links written in the note at `path`, in file order, each resolved; empty when the
    /// catalog has no such note.
    public func outgoing(of path: String) -> [OutgoingLink] {
        if let table, let written = table.outgoing(of: path, in: catalog) {
            return written.map { OutgoingLink(link: $0.link, resolution: table.resolution($0.edge), anchor: table.anchor($0.edge)) }
        }
        guard let record = catalog.record(path: path) else { return [] }
        let resolver = resolver
        return record.links.map { link in
            let resolution = resolver.resolve(link, from: path)
            let anchors = resolution.notePath.flatMap { catalog.record(path: $0)?.anchors }
            return OutgoingLink(link: link, resolution: resolution, anchor: LinkResolver.anchorStatus(of: link, in: anchors))
        }
    }

    /// The links into the note at `path` (from the index: `Catalog.backlinks(of:)`), by
    /// linking note, each with its line: the context the link table keeps for it
    /// (`LinkTable.storedContext`) when it keeps one for each link of that note, else read from
    /// disk (the linking notes are read and their lines cut on every core: `VaultFileReader`,
    /// `LineContext`). When at least `keptContextsFrom` lines were read, `keepContexts` is
    /// handed them by edge, with the table, to keep (`VaultSession.keepLinkContexts`): the next
    /// answer opens none of those notes.
    public func backlinks(of path: String,
                          keepContexts: ((_ texts: [Int: String], _ table: LinkTable) -> Void)? = nil) throws -> [BacklinkEntry] {
        let edged = table?.backlinkEdges(of: path, in: catalog)
        let found = edged?.map(\.backlink) ?? catalog.backlinks(of: path, attachments: attachments)
        // The backlinks come by linking note: one run of them a note.
        var runs: [Range<Int>] = []
        for index in found.indices where index == 0 || !ExactPath.same(found[index - 1].source, found[index].source) {
            if let last = runs.last { runs[runs.count - 1] = last.lowerBound..<index }
            runs.append(index..<found.count)
        }
        // Each linking note's title and kept lines from the table, which holds every note's
        // title, found by the edge (no path looked up, no record decoded for it). The table is
        // unwrapped once: a copy of it per linking note retained and released each of its columns.
        var contexts = [Result<[String], CoreError>?](repeating: nil, count: runs.count)
        var titles = [String?](repeating: nil, count: runs.count)
        if let table, let edged {
            for (position, run) in runs.enumerated() {
                titles[position] = table.title(table.source(ofEdge: edged[run.lowerBound].edge))
                var texts: [String] = []
                texts.reserveCapacity(run.count)
                for index in run {
                    guard let text = table.storedContext(edged[index].edge) else { break }
                    texts.append(text)
                }
                if texts.count == run.count { contexts[position] = .success(texts) }
            }
        }
        let unread = runs.indices.filter { contexts[$0] == nil }
        let reader = VaultFileReader(vault: vault, paths: unread.map { found[runs[$0].lowerBound].source })
        let read = ParallelMap.map(unread.map { runs[$0] }, chunkSize: 16) { run -> Result<[String], CoreError> in
            do {
                var lines = NoteLines(try reader.read(found[run.lowerBound].source))
                return .success(found[run].map { backlink in
                    lines.withLine(backlink.link.line) { LineContext.cut($0, around: backlink.link.label ?? backlink.link.target) }
                })
            } catch let error as CoreError {
                return .failure(error)
            } catch {
                return .failure(.readFailed(path: found[run.lowerBound].source, reason: "\(error)"))
            }
        }
        var texts: [Int: String] = [:]
        for (position, result) in zip(unread, read) {
            contexts[position] = result
            if let edged, case .success(let lines) = result {
                for (index, line) in zip(runs[position], lines) { texts[edged[index].edge] = line }
            }
        }
        var entries: [BacklinkEntry] = []
        entries.reserveCapacity(found.count)
        for (position, run) in runs.enumerated() {
            guard let context = contexts[position] else { continue }
            let source = found[run.lowerBound].source
            let title = titles[position] ?? catalog.record(path: source)?.title ?? source
            for (backlink, text) in zip(found[run], try context.get()) {
                entries.append(BacklinkEntry(source: source, sourceTitle: title, link: backlink.link, context: text))
            }
        }
        if let keepContexts, let table, texts.count >= Self.keptContextsFrom {
            keepContexts(texts, table)
        }
        return entries
    }

    /// How many lines a backlinks answer reads before it keeps them
    /// (`backlinks(of:keepContexts:)`): reading fewer linking notes costs less than writing the
    /// link table back (so a note changed since does not rewrite it).
    public static let keptContextsFrom = 16

    /// The line `text` trimmed, shortened to about `contextLength` characters around the
    /// first occurrence of `focus` (`LineContext`).
    static func context(_ text: String, around focus: String) -> String {
        var text = text
        return text.withUTF8 { LineContext.cut(UnsafeRawBufferPointer($0), around: focus) }
    }

    /// `context(_:around:)` of any line, by characters (Foundation's trimming and case folding):
    /// what `LineContext` gives the same text as, and falls back on.
    static func unicodeContext(_ text: String, around focus: String) -> String {
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard line.count > contextLength else { return line }
        let center = line.range(of: focus, options: .caseInsensitive).map { line.distance(from: line.startIndex, to: $0.lowerBound) } ?? 0
        let start = max(0, min(center - contextLength / 3, line.count - contextLength))
        let lower = line.index(line.startIndex, offsetBy: start)
        let upper = line.index(lower, offsetBy: contextLength)
        return (start > 0 ? "…" : "") + line[lower..<upper].trimmingCharacters(in: .whitespaces) + (upper < line.endIndex ? "…" : "")
    }
}
