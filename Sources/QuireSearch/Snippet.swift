import QuireCore

/// A short excerpt of a note's body around the first match, with the matched words marked.
public struct Snippet: Equatable, Sendable {
    /// The excerpt: white space runs holding a line break become one space; `…` marks a cut.
    public var text: String
    /// Where the matched words stand in `text`.
    public var highlights: [Range<String.Index>]

    /// Creates a snippet.
    public init(text: String, highlights: [Range<String.Index>]) {
        self.text = text
        self.highlights = highlights
    }

    /// How much of a body a snippet looks at, in bytes.
    public static let maxBodyBytes = 1 << 20

    /// Builds the snippet of `body` for the query's text terms (not those under a negation):
    /// up to `words` tokens starting a few words before the first match (the beginning of the
    /// body when nothing matches). Only the first `maxBodyBytes` of the body are looked at.
    public static func make(body fullBody: String, query: NoteQuery, words: Int = 30) -> Snippet {
        make(body: fullBody, query: query, words: words, firstStretch: firstStretch)
    }

    /// `make(body:query:words:)` tokenizing `firstStretch` bytes first (tests compare stretches).
    static func make(body fullBody: String, query: NoteQuery, words: Int, firstStretch: Int) -> Snippet {
        let cut = fullBody.utf8.count > maxBodyBytes
            ? String(decoding: fullBody.utf8.prefix(maxBodyBytes), as: UTF8.self) : fullBody
        let terms = query.positiveTerms.filter { $0.scope == .all }
        let (bytes, tokens, matched) = matches(in: MarkdownBody.withoutComments(cut), terms: terms, words: words,
                                               firstStretch: firstStretch)
        guard !tokens.isEmpty else { return Snippet(text: "", highlights: []) }
        let first = matched.firstIndex(of: true) ?? 0
        let begin = max(0, first - leadingWords)
        let end = min(tokens.count, begin + max(words, 1))
        var text: [UInt8] = []
        var marks: [Range<Int>] = []
        // Whole words: a token inside a longer word (`js` of `node.js`) shows the whole word.
        let head = wordStart(bytes, tokens[begin].utf8Range.lowerBound)
        let tail = wordEnd(bytes, tokens[end - 1].utf8Range.upperBound)
        if begin > 0 { text.append(contentsOf: "… ".utf8) }
        text.append(contentsOf: bytes[head..<tokens[begin].utf8Range.lowerBound])
        for index in begin..<end {
            let range = tokens[index].utf8Range
            if index > begin {
                // The end of a line keeps its punctuation, not the next line's list or heading
                // marks; a run of white space is one space.
                var gap = bytes[tokens[index - 1].utf8Range.upperBound..<range.lowerBound]
                if let lineEnd = gap.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) { gap = gap[..<lineEnd] + [0x20] }
                for byte in gap where !(isSpace(byte) && text.last.map(isSpace) == true) {
                    text.append(isSpace(byte) ? 0x20 : byte)
                }
            }
            let start = text.count
            text.append(contentsOf: bytes[range])
            if matched[index] { marks.append(start..<text.count) }
        }
        text.append(contentsOf: bytes[tokens[end - 1].utf8Range.upperBound..<tail])
        if end < tokens.count { text.append(contentsOf: " …".utf8) }
        let string = String(decoding: text, as: UTF8.self)
        let highlights = marks.map { mark in
            string.utf8.index(string.startIndex, offsetBy: mark.lowerBound)..<string.utf8.index(string.startIndex, offsetBy: mark.upperBound)
        }
        return Snippet(text: string, highlights: highlights)
    }

    /// How many tokens before the first match a snippet starts.
    static let leadingWords = 6

    /// How many bytes of a readable body are tokenized first; each further try takes four times
    /// as many.
    static let firstStretch = 1024

    /// What a reader sees of a stretch of `body` (without `%%` comments) from its start
    /// (`ReadableText`: no link syntax, images, HTML or data URLs), its tokens (without task
    /// marks) and whether each is part of a match of `terms`: a stretch cut after a line break
    /// that holds the first match and the snippet's `words` after it with room for the longest
    /// term; else the stretch grows and, at worst, the whole body is read. Neither a token nor
    /// a construct `ReadableText` reads spans a line break, so a stretch's readable text and
    /// tokens begin the whole body's, and every match that can mark a token of the snippet lies
    /// inside it (`SnippetStretchTests` compares with the whole body's).
    static func matches(in body: String, terms: [TextTerm], words: Int,
                        firstStretch: Int) -> (bytes: [UInt8], tokens: [Token], matched: [Bool]) {
        let source = Array(body.utf8)
        let longest = terms.map(\.tokens.count).max() ?? 0
        var stretch = max(firstStretch, 1)
        while true {
            var cut = min(stretch, source.count)
            while cut < source.count, source[cut - 1] != 0x0A { cut += 1 }
            let whole = cut == source.count
            let text = String(decoding: ReadableText.readable(whole ? source : Array(source[..<cut])), as: UTF8.self)
            let bytes = Array(text.utf8)
            // A done task's `x` in `- [x]` is a token; the snippet drops it as it drops `- [ ]`.
            let tokens = Tokenizer.tokens(in: text).filter { !isTaskMark($0.utf8Range, in: bytes) }
            var matched = [Bool](repeating: false, count: tokens.count)
            for start in tokens.indices {
                for term in terms where start + term.tokens.count <= tokens.count {
                    let hit = term.tokens.indices.allSatisfy { term.accepts(tokens[start + $0].term, at: $0) }
                    if hit { for offset in term.tokens.indices { matched[start + offset] = true } }
                }
            }
            if whole { return (bytes, tokens, matched) }
            // The snippet ends before `end`; a match starting before it is seen whole.
            let first = matched.firstIndex(of: true)
            let end = max(0, (first ?? 0) - leadingWords) + max(words, 1)
            if (first != nil || terms.isEmpty) && end + longest < tokens.count { return (bytes, tokens, matched) }
            stretch = cut * 4
        }
    }

    /// How far a snippet reaches past its first or last token for the rest of a word, in bytes.
    static let maxWordReach = 24

    /// The start of the white-space-separated word holding `index` (`index` itself when the
    /// word reaches further back than `maxWordReach`).
    static func wordStart(_ bytes: [UInt8], _ index: Int) -> Int {
        var start = index
        while start > 0, index - start < maxWordReach, !isSpace(bytes[start - 1]) { start -= 1 }
        return start == 0 || isSpace(bytes[start - 1]) ? start : index
    }

    /// The end of the white-space-separated word ending at or after `index` (`index` itself
    /// when it goes on further than `maxWordReach`).
    static func wordEnd(_ bytes: [UInt8], _ index: Int) -> Int {
        var end = index
        while end < bytes.count, end - index < maxWordReach, !isSpace(bytes[end]) { end += 1 }
        return end == bytes.count || isSpace(bytes[end]) ? end : index
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Whether the bytes at `range` are the `x` or `X` of a task list item, `- [x]` (also with
    /// `*` or `+`, indented), at the start of its line.
    static func isTaskMark(_ range: Range<Int>, in bytes: [UInt8]) -> Bool {
        guard range.count == 1, bytes[range.lowerBound] | 0x20 == UInt8(ascii: "x"),
              range.lowerBound >= 3, range.upperBound < bytes.count, bytes[range.upperBound] == UInt8(ascii: "]"),
              bytes[range.lowerBound - 1] == UInt8(ascii: "["), bytes[range.lowerBound - 2] == UInt8(ascii: " "),
              [UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+")].contains(bytes[range.lowerBound - 3]) else { return false }
        var index = range.lowerBound - 4
        while index >= 0, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index -= 1 }
        return index < 0 || bytes[index] == 0x0A || bytes[index] == 0x0D
    }
}
