/// Receives the tokens of a note's searchable fields, in order: a `TokenStream` keeps them, a
/// `SegmentSlice` folds them straight into its part of an index.
protocol TokenSink {
    /// Takes one token of the current field as the tokenizer found it (unfolded); the sink
    /// folds it (see `Tokenizer.appendFolded`).
    mutating func appendToken(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool, isCJK: Bool)
    /// Takes one already folded term into the current field.
    mutating func appendTerm(_ term: UnsafeBufferPointer<UInt8>)
    /// Closes the current field.
    mutating func endField()
}

extension TokenSink {
    /// Tokenizes `text` as the next field.
    mutating func appendField(_ text: String) {
        appendTokens(of: text)
        endField()
    }

    /// Tokenizes `text` into the current field (left open).
    mutating func appendTokens(of text: String) {
        Tokenizer.scan(text) { token, _, isASCII, isCJK in
            appendToken(token, isASCII: isASCII, isCJK: isCJK)
        }
    }

    /// Feeds the fields of a note: the title (and `headingTitle`, the first `# heading` of a
    /// note without a title of its own), each tag, the project, each alias, the body, and a
    /// last field of attribute terms (see `Attribute`). A phrase never spans two fields.
    mutating func appendFields(of record: NoteRecord, body: String, headingTitle: String? = nil) {
        appendTokens(of: record.title)
        if let headingTitle { appendTokens(of: headingTitle) }
        endField()
        for tag in record.tags { appendField(tag) }
        if let project = record.project { appendField(project) }
        for alias in record.aliases { appendField(alias) }
        appendField(body)
        // `Attribute.terms`, made as bytes (no string per term).
        AttributeTerms(of: record, headingTitle: headingTitle).forEach { appendTerm($0) }
        endField()
    }
}
