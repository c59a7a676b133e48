import QuireCore

/// A note ready to be indexed: its metadata and the folded tokens of each searchable field.
struct AnalyzedNote: Sendable {
    /// The metadata.
    var record: NoteRecord
    /// Token streams: the title first, then each tag, the project, each alias, the body last.
    /// A phrase never spans two fields.
    var fields: [[String]]

    init(record: NoteRecord, fields: [[String]]) {
        self.record = record
        self.fields = fields
    }

    /// Tokenizes a parsed note.
    init(note: Note) {
        record = NoteRecord(note: note)
        fields = Self.fieldTexts(of: record).map(Tokenizer.terms(in:))
        fields.append(Tokenizer.terms(in: note.body))
    }

    /// The texts of the searchable metadata fields, title first (the body follows them).
    static func fieldTexts(of record: NoteRecord) -> [String] {
        [record.title] + record.tags + (record.project.map { [$0] } ?? []) + record.aliases
    }
}
