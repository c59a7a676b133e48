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
        let cut = fullBody.utf8.count > maxBodyBytes
            ? String(decoding: fullBody.utf8.prefix(maxBodyBytes), as: UTF8.self) : fullBody
        // What a reader sees: no `%%` comments, link syntax, images, HTML or data URLs
        // (`MarkdownBody.withoutComments`, `ReadableText`).
        let body = String(decoding: ReadableText.of(MarkdownBody.withoutComments(cut)), as: UTF8.self)
        let bytes = Array(body.utf8)
        // A done task's `x` in `- [x]` is a token; the snippet drops it as it drops `- [ ]`.
        let tokens = Tokenizer.tokens(in: body).filter { !isTaskMark($0.utf8Range, in: bytes) }
        guard !tokens.isEmpty else { return Snippet(text: "", highlights: []) }
        let terms = query.positiveTerms.filter { $0.scope == .all }
        var matched = [Bool](repeating: false, count: tokens.count)
        for start in tokens.indices {
            for term in terms where start + term.tokens.count <= tokens.count {
                let hit = term.tokens.indices.allSatisfy { term.accepts(tokens[start + $0].term, at: $0) }
                if hit { for offset in term.tokens.indices { matched[start + offset] = true } }
            }
        }
        let first = matched.firstIndex(of: true) ?? 0
        let begin = max(0, first - 6)
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
