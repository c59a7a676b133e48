import Foundation
import QuireTestSupport
import Testing
@testable import QuireCore

/// `NoteParser` reads a body's words, inline tags, links and anchors in one pass over its
/// lines; each must come out as its own scanner finds it walking the body alone.
@Suite struct NoteParserBodyTests {
    /// Pieces of Markdown whose readers disagree most easily: code spans and fences (in lists
    /// and quotes too), `%%` comments, HTML blocks and tags over several lines, links in
    /// headings, tags in code, setext headings, block ids, CJK, right-to-left text and emoji.
    static let pieces: [String] = [
        "word ", "Two words. ", "#tag ", "#nested/tag/ ", "#123 ", "#日本 ", "#émoji🎉 ", "C# ", "x#y ",
        "`#code` ", "`` [[x]] `` ", "`unclosed ", "[[Target]] ", "[[Other|label]] ", "![[image.png]] ",
        "[[Note#Heading]] ", "[[#^block]] ", "[label](notes/a.md) ", "[web](https://x.org/#tag) ",
        "![img](<a b.png> \"t\") ", "[bad](unclosed ", "\\[[escaped]] ", "<https://x.org/a#b> ",
        "data:image/png;base64,AAAA ", "<span style=\"color: #ccc\">hi</span> ", "<a\n", "href=\"#x\">",
        "%%hidden #no [[no]]%% ", "%% ", "日本語のテキスト ", "עברית ", "العربية ", "👨‍👩‍👧 ", "❤️ ",
        "^block-id", " ^id2", "Ünïcödé ", "\t", "*em* ", "**bold** ",
    ]

    /// How lines start.
    static let starts: [String] = [
        "", "", "", "# ", "## ", "> ", "- ", "1. ", "    ", "  - ", "> - ", "```\n", "~~~md\n", "```\n",
        "<div>\n", "</div>\n", "<!--\n", "-->\n", "%%\n", "===\n", "---\n", "\n", "\n", "| a | b |\n",
    ]

    static func randomNote(_ random: inout SeededGenerator) -> String {
        var text = ""
        if Int.random(in: 0..<3, using: &random) == 0 {
            text += "---\ntitle: T\ntags: [front, \"#Tag\"]\nrelated: \"[[Front Link]]\"\n---\n"
        }
        for _ in 0..<Int.random(in: 0...30, using: &random) {
            text += starts.randomElement(using: &random) ?? ""
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                text += pieces.randomElement(using: &random) ?? ""
            }
            text += Int.random(in: 0..<8, using: &random) == 0 ? "\r\n" : "\n"
        }
        return text
    }

    /// What the separate scanners find in a whole note file.
    static func separately(_ data: Data) -> (words: Int, tags: [String], links: LinkScan) {
        let frontTags = NoteParser.parseFrontMatter(data, path: "n.md").tags
        let start = NoteParser.bodyOffset(of: data)
        let body = String(decoding: data[start...], as: UTF8.self)
        let words = data[start...].withUnsafeBytes { WordCounter.countReadable(utf8: $0.bindMemory(to: UInt8.self)) }
        return (words, NoteFields.merging(frontTags, MarkdownBody.inlineTags(in: body)), LinkExtractor.scan(data))
    }

    @Test func onePassFindsWhatEachScannerFinds() {
        var random = SeededGenerator(seed: 35)
        for round in 0..<3000 {
            let data = Data(Self.randomNote(&random).utf8)
            let note = NoteParser.parse(data, path: "n.md", timeZone: TimeZone(identifier: "UTC") ?? .current)
            let expected = Self.separately(data)
            let text = String(decoding: data, as: UTF8.self)
            #expect(note.words == expected.words, "round \(round): \(text)")
            #expect(note.tags == expected.tags, "round \(round): \(text)")
            #expect(note.links == expected.links.links, "round \(round): \(text)")
            #expect(note.anchors == expected.links.anchors, "round \(round): \(text)")
            if note.words != expected.words || note.tags != expected.tags || note.links != expected.links.links {
                return
            }
        }
    }

    /// The same with bytes that are not UTF-8 in the body (tags then come from the repaired text).
    @Test func aBodyThatIsNotUTF8ReadsAsBefore() {
        var random = SeededGenerator(seed: 36)
        for _ in 0..<300 {
            var bytes = Array(Self.randomNote(&random).utf8)
            bytes.insert(0xFF, at: Int.random(in: (bytes.count / 2)...bytes.count, using: &random))
            let data = Data(bytes)
            let note = NoteParser.parse(data, path: "n.md", timeZone: TimeZone(identifier: "UTC") ?? .current)
            let expected = Self.separately(data)
            #expect(note.words == expected.words)
            #expect(note.links == expected.links.links)
        }
    }
}
