import Foundation
import QuireCore

/// The link terms of a note (see `Attribute`): `\u{1}L:` + the name key of each link's target
/// (`LinkTarget.nameKey`), and `\u{1}S:` + the key of the note's own file name. A note's
/// backlinks are among the notes holding `L:` + its file name, title or an alias; a link's
/// target is among the notes holding `S:` + its name (or `N:` + its words, for a title).
extension Attribute {
    static let link = "\u{1}L:"
    static let stem = "\u{1}S:"

    static func linkTerms(of record: NoteRecord) -> [String] {
        var terms = [stem + LinkResolver.key(NoteParser.stem(of: record.path))]
        for written in record.links {
            guard let key = LinkTarget.nameKey(of: written.target), key.utf8.count <= maximumNameBytes else { continue }
            let term = link + key
            if !terms.contains(term) { terms.append(term) }
        }
        return terms
    }
}

/// One link into a note: the note it is written in and the link.
public struct Backlink: Sendable, Equatable {
    /// The vault path of the linking note.
    public var source: String
    /// The link, as written there.
    public var link: NoteLink

    /// Creates a backlink.
    public init(source: String, link: NoteLink) {
        self.source = source
        self.link = link
    }
}

/// The catalog as a `LinkTargetIndex`: file names and titles found through the index (no
/// record decoded but those of the few candidates), plus the attachments given.
public struct CatalogLinkTargets: LinkTargetIndex, Sendable {
    /// The catalog looked in.
    public let catalog: Catalog
    private let attachments: LinkTargetTable

    /// Looks up the notes of `catalog` and the files of `attachments` (vault paths).
    public init(catalog: Catalog, attachments: [String] = []) {
        self.catalog = catalog
        self.attachments = LinkTargetTable(notes: [], attachments: attachments)
    }

    /// See `LinkTargetIndex`.
    public func files(atPathKey key: String) -> [String] {
        guard let nameKey = LinkTarget.nameKey(of: key) else { return [] }
        let notes = key.hasSuffix(".md")
            ? catalog.documents(withAttribute: Attribute.stem + nameKey).map(catalog.path).filter { LinkResolver.key($0) == key }
            : []
        return notes + attachments.files(atPathKey: key)
    }

    /// See `LinkTargetIndex`.
    public func files(withNameKey key: String) -> [String] {
        catalog.documents(withAttribute: Attribute.stem + key).map(catalog.path) + attachments.files(withNameKey: key)
    }

    /// See `LinkTargetIndex`.
    public func notes(withTitleKey key: String) -> [String] {
        named(key) { record in LinkResolver.key(record.title) == key }
    }

    /// See `LinkTargetIndex`.
    public func notes(withAliasKey key: String) -> [String] {
        named(key) { record in record.aliases.contains { LinkResolver.key($0) == key } }
    }

    /// The notes whose name terms hold `key` (a title or an alias) and that `matches`.
    private func named(_ key: String, _ matches: (NoteRecord) -> Bool) -> [String] {
        let phrase = Tokenizer.foldedPhrase(key)
        guard !phrase.isEmpty else { return [] }
        let documents = catalog.documents(withAttribute: Attribute.name + phrase)
        return catalog.mapRecords(documents) { record in matches(record.pointee) ? record.pointee.path : nil }.compactMap { $0 }
    }
}

extension Catalog {
    /// The live documents holding the attribute term `term`, ascending.
    func documents(withAttribute term: String) -> [Int] {
        var documents: [Int] = []
        for (segment, offset) in [(base, 0), (delta, base.count)] {
            for id in segment.terms.range(of: term, isPrefix: false) {
                for posting in segment.postings(id) {
                    let document = Int(segment.postingDocs[posting])
                    guard document < segment.count, offset > 0 || baseLive[document] else { continue }
                    documents.append(offset + document)
                }
            }
        }
        return documents
    }

    /// Every link into the note at `path`, in the order of the linking notes' paths, then of
    /// the links in each; a note's links into itself count. Answered from the index: only the
    /// notes that hold a link whose name could be this note's (its file name, title or an
    /// alias) are read, and only their links of that name are resolved (`LinkResolver`, over
    /// `CatalogLinkTargets`). Empty when the catalog has no such note.
    public func backlinks(of path: String, attachments: [String] = []) -> [Backlink] {
        backlinkDocuments(of: path, attachments: attachments).map(\.backlink)
    }

    /// The live document of the note at `path` (found through its file-name term).
    func document(path: String) -> Int? {
        let key = LinkResolver.key(NoteParser.stem(of: path))
        return documents(withAttribute: Attribute.stem + key).first { ExactPath.same(self.path($0), path) }
    }

    /// `backlinks(of:)` with the document of each linking note.
    func backlinkDocuments(of path: String, attachments: [String]) -> [(document: Int, backlink: Backlink)] {
        // Found through its file-name term: `record(path:)` may look through every path.
        guard let targetDocument = document(path: path) else { return [] }
        let target = record(targetDocument)
        var keys = Set([LinkResolver.key(NoteParser.stem(of: target.path)), LinkResolver.key(target.title)])
        for alias in target.aliases { keys.insert(LinkResolver.key(alias)) }
        var candidates = Set<Int>()
        for key in keys where key.utf8.count <= Attribute.maximumNameBytes {
            candidates.formUnion(documents(withAttribute: Attribute.link + key))
        }
        let resolver = LinkResolver(index: CatalogLinkTargets(catalog: self, attachments: attachments))
        var found: [(document: Int, backlink: Backlink)] = []
        let documents = Array(candidates)
        let sources = zip(documents, zip(documents.map(self.path), links(of: documents)))
        // Where a link leads depends only on its target text and its note's folder: a name many
        // notes link to is resolved once per folder, not once per link.
        var resolved: [String: Bool] = [:]
        for (document, (source, links)) in sources.sorted(by: { $0.1.0 < $1.1.0 }) {
            let folder = source.lastIndex(of: "/").map { String(source[..<$0]) } ?? ""
            for link in links {
                guard let key = LinkTarget.nameKey(of: link.target), keys.contains(key) else { continue }
                let memo = folder + "\u{0}" + link.target
                let leadsHere: Bool
                if !link.target.isEmpty, let known = resolved[memo] {
                    leadsHere = known
                } else {
                    leadsHere = resolver.resolve(link, from: source).notePath == target.path
                    resolved[memo] = leadsHere
                }
                if leadsHere { found.append((document, Backlink(source: source, link: link))) }
            }
        }
        return found
    }

    /// The vault paths of the live notes that hold a link whose name key (`LinkTarget.nameKey`:
    /// its file name, title or alias, lowercased) is one of `keys`, found through the index's
    /// link terms; nil when a key is too long for the index to hold (any note may then).
    public func notesLinking(toNameKeys keys: Set<String>) -> Set<String>? {
        guard keys.allSatisfy({ $0.utf8.count <= Attribute.maximumNameBytes }) else { return nil }
        var paths = Set<String>()
        for key in keys {
            for document in documents(withAttribute: Attribute.link + key) { paths.insert(path(document)) }
        }
        return paths
    }

    /// The links written in the note of each of `documents`, in order, read from the encoded
    /// records (`RecordTable.links`): no record decoded or kept for them.
    func links(of documents: [Int]) -> [[NoteLink]] {
        documents.map { document in
            document < base.count ? base.records.links(document) : delta.records.links(document - base.count)
        }
    }

    /// The links at `ordinals` (ascending places in file order) of the note of `document`,
    /// each with its ordinal (`RecordTable.links(_:at:)`: the others skipped over, no record
    /// decoded or kept).
    func links(of document: Int, at ordinals: [Int]) -> [(ordinal: Int, link: NoteLink)] {
        document < base.count ? base.records.links(document, at: ordinals) : delta.records.links(document - base.count, at: ordinals)
    }

    /// A resolver over this catalog's notes and `attachments` (vault paths of other files).
    public func linkResolver(attachments: [String] = []) -> LinkResolver {
        LinkResolver(index: CatalogLinkTargets(catalog: self, attachments: attachments))
    }
}
