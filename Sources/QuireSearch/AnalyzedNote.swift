import Foundation
import QuireCore

/// A note ready to be indexed: its metadata and the folded tokens of each searchable field.
struct AnalyzedNote: Sendable {
    /// The metadata.
    var record: NoteRecord
    /// Token fields: the title first, then each tag, the project, each alias, the body last.
    /// A phrase never spans two fields.
    var stream: TokenStream

    init(record: NoteRecord, stream: TokenStream) {
        self.record = record
        self.stream = stream
    }

    /// Tokenizes a parsed note.
    init(note: Note) {
        record = NoteRecord(note: note)
        stream = TokenStream()
        stream.appendFields(of: record, body: note.body, headingTitle: note.headingTitle)
    }
}

/// Metadata filters answered from the index: each note carries, in a last field of its own,
/// terms that start with a byte no word has (0x01), so `tag:work` or `draft:true` is a
/// dictionary lookup and a posting list instead of a scan of every note. They count in no
/// document length, and no text query can reach them.
enum Attribute {
    static let marker: UInt8 = 0x01
    static let tag = "\u{1}t:"
    static let folder = "\u{1}f:"
    static let project = "\u{1}p:"
    static let color = "\u{1}c:"
    static let mood = "\u{1}m:"
    static let draft = "\u{1}d"
    static let pinned = "\u{1}n"
    /// The title and each alias as folded words joined by spaces (`Tokenizer.foldedPhrase`):
    /// exact and leading-words matches of a query rank first.
    static let name = "\u{1}N:"
    /// Longer titles and aliases get no name term (a query is never that long).
    static let maximumNameBytes = 256

    /// A value as it is compared: lowercased (as the query parser stores filter values), in
    /// canonical composition so that equal strings have equal bytes.
    static func key(_ value: String) -> String {
        LinkResolver.key(value)
    }

    /// The attribute terms of a note (`headingTitle` names it too).
    static func terms(of record: NoteRecord, headingTitle: String? = nil) -> [String] {
        var terms: [String] = []
        terms.reserveCapacity(record.tags.count + record.aliases.count + 7)
        // Tags of one key count once; few tags are compared with those taken, not hashed.
        var seen = Set<String>()
        for tag in record.tags {
            let key = key(tag)
            let term = Self.tag + key
            if record.tags.count <= 16 ? !terms.contains(term) : seen.insert(key).inserted { terms.append(term) }
        }
        terms.append(folder + key(record.folder))
        if let value = record.project { terms.append(project + key(value)) }
        if let value = record.color { terms.append(color + key(value)) }
        if let value = record.mood { terms.append(mood + String(value)) }
        if record.draft { terms.append(draft) }
        if record.pinned { terms.append(pinned) }
        for text in [record.title] + (headingTitle.map { [$0] } ?? []) + record.aliases {
            let phrase = Tokenizer.foldedPhrase(text)
            guard !phrase.isEmpty, phrase.utf8.count <= maximumNameBytes else { continue }
            let term = name + phrase
            if !terms.contains(term) { terms.append(term) }
        }
        terms += linkTerms(of: record)
        return terms
    }
}
