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
        for text in Self.fieldTexts(of: record) { stream.appendField(text) }
        stream.appendField(note.body)
    }

    /// The texts of the searchable metadata fields, title first (the body follows them).
    static func fieldTexts(of record: NoteRecord) -> [String] {
        [record.title] + record.tags + (record.project.map { [$0] } ?? []) + record.aliases
    }
}
