import Foundation
import Testing
import QuireCore
import QuireRender

/// quire's reader of code blocks (what links, tags and renames skip) against cmark-gfm's parse
/// of the same tricky documents: every word `cN` is in code for both, every `tN` in text.
@Suite struct CodeBlocksAgreeWithCmarkTests {
    static let documents = [
        "- install:\n\n    ```css\n    c1 { color: #002b5c; }\n    ```\n\nt1\n",
        "> ```\n> c1\n> ```\n> t1\n",
        "1. t1\n   > ```\n   > c1\n   > ```\n   > t2\n",
        "- t1\n  - t2\n\n    ~~~\n    c1\n    ~~~\n  t3\n",
        "> ```\n> c1\nt1\n",
        "- ```\n  c1\nt1\n",
        ">\t```\n>\tc1\n>  ```\n> t1\n",
        "- t1\n\n    t2\n\n      c1\n",
        ">     c1\n> t1\n",
        "-     c1\n",
        "t1\n    t2\n\n    c1\n",
        "> t1\nt2\n```\nc1\n```\n",
        "``` t1 ` t2\nt3\n",
        "    - c1\n",
        "2. t1\n\n   ```\n   c1\n   ```\n",
        "* * *\n    c1\n",
        "- t1\n- ```\n  c1\n  ```\n- t2\n",
        "> - t1\n>   ```\n>   c1\n>   ```\n> t2\n",
        "- > - t1\n  >   ```\n  >   c1\n  >   ```\nt2\n",
        "t1\n```\nc1\n```\nt2\n",
        "10) t1\n    ```\n    c1\n    ```\n",
        "- t1\n\n        c1\n",
        "````\nc1\n```\nc2\n````\nt1\n",
    ]

    /// The marker words of `text` in code according to quire.
    func quireCodeWords(_ text: String) -> Set<String> {
        var readable = Set<String>()
        var source = text
        source.withUTF8 { bytes in
            MarkdownBody.forEachReadableLine(of: bytes, from: 0) { line in
                readable.formUnion(words(String(decoding: UnsafeBufferPointer(rebasing: bytes[line]), as: UTF8.self)))
                return true
            }
        }
        return words(text).subtracting(readable)
    }

    /// The marker words of `text` in code according to cmark-gfm.
    func cmarkCodeWords(_ text: String) -> Set<String> {
        func code(_ blocks: [MarkdownBlock]) -> Set<String> {
            blocks.reduce(into: Set<String>()) { found, block in
                switch block {
                case .code(_, let text): found.formUnion(words(text))
                case .quote(let inner), .footnoteDefinition(_, let inner): found.formUnion(code(inner))
                case .list(_, _, _, let items): for item in items { found.formUnion(code(item.blocks)) }
                default: break
                }
            }
        }
        return code(MarkdownParser.blocks(text))
    }

    func words(_ text: String) -> Set<String> {
        var found = Set<String>()
        for word in text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
            guard word.count > 1, word.first == "c" || word.first == "t", word.dropFirst().allSatisfy(\.isNumber) else { continue }
            found.insert(String(word))
        }
        return found
    }

    static let headingDocuments = [
        "intro\n\nFirst Big\n=========\n\nSecond Small\n------------\ntext\n",
        "a\n\n---\n\nb\n---\n# c #\n## d\n",
        "- item\n---\npara\n  ===\n",
        "    not\n---\nt\n    ===\n",
        "```\nx\n---\n```\ny\n= z\n",
    ]

    /// Top-level headings as quire reads them for anchors and as cmark-gfm parses them.
    @Test(arguments: headingDocuments) func headingsAgree(_ document: String) {
        let cmark = MarkdownParser.blocks(document).compactMap { block -> String? in
            guard case .heading(_, let inlines) = block else { return nil }
            return inlines.map { if case .text(let text) = $0 { text } else { " " } }.joined()
        }
        #expect(LinkExtractor.scan(text: document).anchors.headings == cmark, "\(document.debugDescription)")
    }

    @Test(arguments: documents) func codeWordsAgree(_ document: String) {
        #expect(quireCodeWords(document) == cmarkCodeWords(document), "\(document.debugDescription)")
        #expect(cmarkCodeWords(document) == words(document).filter { $0.hasPrefix("c") }, "\(document.debugDescription)")
    }
}
