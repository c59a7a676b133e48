/// The folded tokens of a note's searchable fields, packed without a string per token: all
/// term bytes back to back, each token's end offset, and each field's end (in tokens).
struct TokenStream: Sendable {
    var bytes: [UInt8] = []
    var ends: [UInt32] = []
    var fieldEnds: [UInt32] = []

    /// Number of tokens.
    var count: Int { ends.count }

    /// Number of tokens of the text fields (what BM25 calls the document's length): the
    /// attribute terms (see `Attribute`) do not count.
    var textCount: Int {
        var total = 0
        var start = 0
        for end in ends {
            if Int(end) == start || bytes[start] != Attribute.marker { total += 1 }
            start = Int(end)
        }
        return total
    }

    /// Tokenizes `text` as the next field.
    mutating func appendField(_ text: String) {
        Tokenizer.scan(text) { token, _, isASCII, isCJK in
            Tokenizer.appendFolded(token, isASCII: isASCII, isCJK: isCJK, to: &bytes)
            ends.append(UInt32(bytes.count))
        }
        fieldEnds.append(UInt32(ends.count))
    }

    /// Appends one already folded term to the current field (close it with `endField`).
    mutating func appendTerm<C: Collection>(_ term: C) where C.Element == UInt8 {
        bytes.append(contentsOf: term)
        ends.append(UInt32(bytes.count))
    }

    mutating func endField() {
        fieldEnds.append(UInt32(ends.count))
    }

    /// Tokens in the first field (the title).
    var titleCount: Int { Int(fieldEnds.first ?? 0) }
}
