import Foundation
import QuireTestSupport
import Testing
@testable import QuireSearch

/// A snippet tokenizes a stretch of the body from its start and grows it only when the snippet
/// may reach past it: the snippet is that of the whole body, whatever the stretch.
@Suite struct SnippetStretchTests {
    static let words = ["alpha", "beta", "gamma", "Café", "cafe", "C++", ".NET", "net", "日本", "語", "สวัสดีครับ",
                        "x", "node.js", "don't", "**bold**", "[[Alpha|beta gamma]]", "[link](https://e.com/alpha)",
                        "%%", "<b>", "alphabet", "Ångström", "🙂", "data:text/plain;base64,QUFB", "<img src=\"a\">",
                        "![alt](p.png)", "[[x]]", "__", "[ref][1]"]
    static let queries = ["alpha", "beta gamma", "alph*", "cafe", "c++", "net", "日本 語", "x", "gamma -beta",
                          "title:alpha", "nothing", "alpha beta gamma", "\"gamma alpha\"", "ångström", "tag:x"]

    static func body(_ random: inout SeededGenerator) -> String {
        var lines: [String] = []
        for _ in 0..<random.next(0...60) {
            var line = ["", "- [x] ", "- [ ] ", "# ", "> ", "  "][random.next(0...5)]
            for index in 0..<random.next(0...30) {
                if index > 0 { line += [" ", " ", " ", "\t", ", "][random.next(0...4)] }
                line += words[random.next(0...(words.count - 1))]
            }
            lines.append(line)
        }
        return lines.joined(separator: random.next(0...3) == 0 ? "\r\n" : "\n") + (random.next(0...1) == 0 ? "\n" : "")
    }

    @Test func everyStretchGivesTheWholeBodysSnippet() throws {
        var random = SeededGenerator(seed: 0x5A1B_7E7C)
        var grown = 0
        for round in 0..<600 {
            let body = Self.body(&random)
            let query = try NoteQuery.parse(Self.queries[random.next(0...(Self.queries.count - 1))], now: Date())
            let words = random.next(1...40)
            let whole = Snippet.make(body: body, query: query, words: words, firstStretch: Int.max)
            for stretch in [1, 7, 64, 300, Snippet.firstStretch] {
                let snippet = Snippet.make(body: body, query: query, words: words, firstStretch: stretch)
                #expect(snippet.text == whole.text, "round \(round), stretch \(stretch)")
                #expect(snippet.highlights.map { snippet.text.utf8.distance(from: snippet.text.startIndex, to: $0.lowerBound) }
                        == whole.highlights.map { whole.text.utf8.distance(from: whole.text.startIndex, to: $0.lowerBound) },
                        "round \(round), stretch \(stretch)")
            }
            if body.utf8.count > 64 { grown += 1 }
        }
        #expect(grown > 200)
    }
}
