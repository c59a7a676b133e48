/// The folded tokens of a note's searchable fields, packed without a string per token: all
/// term bytes back to back, each token's end offset, and each field's end (in tokens).
struct TokenStream: Sendable, TokenSink {
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

    mutating func appendToken(_ token: UnsafeBufferPointer<UInt8>, isASCII: Bool, isCJK: Bool) {
        Tokenizer.appendFolded(token, isASCII: isASCII, isCJK: isCJK, to: &bytes)
        ends.append(UInt32(bytes.count))
    }

    /// Appends one already folded term to the current field (close it with `endField`).
    mutating func appendTerm(_ term: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: term)
        ends.append(UInt32(bytes.count))
    }

    mutating func endField() {
        fieldEnds.append(UInt32(ends.count))
    }

    /// Tokens in the first field (the title).
    var titleCount: Int { Int(fieldEnds.first ?? 0) }

    /// Feeds these tokens, field by field, to another sink.
    func replay<Sink: TokenSink>(into sink: inout Sink) {
        bytes.withUnsafeBufferPointer { all in
            var token = 0
            var start = 0
            for fieldEnd in fieldEnds {
                while token < Int(fieldEnd) {
                    let end = Int(ends[token])
                    sink.appendTerm(UnsafeBufferPointer(rebasing: all[start..<end]))
                    start = end
                    token += 1
                }
                sink.endField()
            }
        }
    }
}
