import Foundation
import Testing
@testable import QuireLSP
import QuireCore

/// The language server finds front matter by QuireCore's fence rule: the lines it takes for the
/// front matter hold exactly the text the note parser reads as front matter, TOML included.
@Suite struct FrontMatterLinesTests {
    @Test func serverAndParserAgreeOnTheFences() {
        let texts = [
            "---\ntitle: A\ntags: [x]\n---\nBody\n",
            "+++\ntitle = \"T\"\ndraft = true\n+++\nBody\n",
            "\u{FEFF}---\r\ntitle: B\r\n...\r\nBody\r\n",
            "---\ntitle: open\nno closing fence\n",
            "  ---\ntitle: indented fence\n---\n",
            "# Just a body\n",
            "---\n---\nEmpty front matter\n",
        ]
        for text in texts {
            let document = TextDocument(text: text, version: 1, encoding: .utf16)
            let lines = FrontMatterLines(document)
            let parsed = NoteDocument(data: Data(text.utf8))
            let between = lines.contentLines.map { document.lineText($0) + "\n" }.joined()
            #expect(lines.format == parsed.format, "\(text)")
            #expect(between.replacingOccurrences(of: "\r", with: "")
                    == parsed.frontMatterText.replacingOccurrences(of: "\r", with: ""), "\(text)")
        }
        let toml = FrontMatterLines(TextDocument(text: texts[1], version: 1, encoding: .utf16))
        #expect(toml.keyLines == ["title": 1, "draft": 2])
    }
}
