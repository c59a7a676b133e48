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
    /// linking note, each with its line read from disk.
    public func backlinks(of path: String) throws -> [BacklinkEntry] {
        let found = table?.backlinks(of: path, in: catalog) ?? catalog.backlinks(of: path, attachments: attachments)
        var files: [String: NoteLines] = [:]
        var entries: [BacklinkEntry] = []
        for backlink in found {
            if files[backlink.source] == nil { files[backlink.source] = NoteLines(try vault.readData(backlink.source)) }
            let text = files[backlink.source]?.line(backlink.link.line) ?? ""
            entries.append(BacklinkEntry(source: backlink.source,
                                         sourceTitle: catalog.record(path: backlink.source)?.title ?? backlink.source,
                                         link: backlink.link, context: Self.context(text, around: backlink.link.label ?? backlink.link.target)))
        }
        return entries
    }

    /// The line `text` trimmed, shortened to about `contextLength` characters around the
    /// first occurrence of `focus`.
    static func context(_ text: String, around focus: String) -> String {
        asciiContext(text, around: focus) ?? unicodeContext(text, around: focus)
    }

    /// `context(_:around:)` of any line, by characters (Foundation's trimming and case folding).
    static func unicodeContext(_ text: String, around focus: String) -> String {
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard line.count > contextLength else { return line }
        let center = line.range(of: focus, options: .caseInsensitive).map { line.distance(from: line.startIndex, to: $0.lowerBound) } ?? 0
        let start = max(0, min(center - contextLength / 3, line.count - contextLength))
        let lower = line.index(line.startIndex, offsetBy: start)
        let upper = line.index(lower, offsetBy: contextLength)
        return (start > 0 ? "…" : "") + line[lower..<upper].trimmingCharacters(in: .whitespaces) + (upper < line.endIndex ? "…" : "")
    }

    /// `context(_:around:)` of an ASCII line (nil for any other): one byte a character, so
    /// it is trimmed and cut by bytes, without Foundation's Unicode tables. The same text.
    static func asciiContext(_ text: String, around focus: String) -> String? {
        let bytes = Array(text.utf8)
        // "\r\n" is one character; any other ASCII byte is one.
        guard bytes.allSatisfy({ $0 < 0x80 && $0 != 0x0D }), focus.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        var first = 0, end = bytes.count
        while first < end, isSpace(bytes[first]) { first += 1 }
        while end > first, isSpace(bytes[end - 1]) { end -= 1 }
        let line = bytes[first..<end]
        guard line.count > contextLength else { return String(decoding: line, as: UTF8.self) }
        let center = asciiRange(of: Array(focus.utf8), in: line).map { $0 - first } ?? 0
        let start = max(0, min(center - contextLength / 3, line.count - contextLength))
        var lower = first + start, upper = lower + contextLength
        let cutEnd = upper < end
        // `.whitespaces` holds, of ASCII, the space and the tab.
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return (start > 0 ? "…" : "") + String(decoding: bytes[lower..<upper], as: UTF8.self) + (cutEnd ? "…" : "")
    }

    /// Where `focus` first occurs in `line`, ignoring ASCII case (nil for none or an empty focus).
    private static func asciiRange(of focus: [UInt8], in line: ArraySlice<UInt8>) -> Int? {
        guard !focus.isEmpty, focus.count <= line.count else { return nil }
        func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
        let wanted = focus.map(lower)
        for position in line.startIndex...(line.endIndex - focus.count)
        where wanted.indices.allSatisfy({ lower(line[position + $0]) == wanted[$0] }) {
            return position
        }
        return nil
    }
}
