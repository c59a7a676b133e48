import Foundation
import Testing
@testable import QuireCore

@Suite("Markdown blocks: code in lists and quotes")
struct MarkdownBlocksTests {
    /// The 1-based numbers of the lines read as code.
    func codeLines(_ text: String) -> [Int] {
        var text = text
        return text.withUTF8 { bytes in
            var lines: [Int] = []
            var number = 0
            MarkdownBlocks.forEachLine(of: bytes) { line in
                number += 1
                if line.kind == .code { lines.append(number) }
                return true
            }
            return lines
        }
    }

    @Test func fencesInsideListItemsAndQuotes() {
        // A fence indented as the item's content, in a quote, in a quote inside a list item.
        #expect(codeLines("- install:\n\n    ```css\n    a { color: #002b5c; }\n    ```\n\nafter\n") == [3, 4, 5])
        #expect(codeLines("> ```\n> [[ghost]] #quoted\n> ```\n> text\n") == [1, 2, 3])
        #expect(codeLines("1. item\n   > ```\n   > code\n   > ```\n   > text\n") == [2, 3, 4])
        #expect(codeLines("- a\n  - b\n\n    ~~~\n    deep\n    ~~~\n") == [4, 5, 6])
        // The container's end closes the fence: a line outside the quote or less indented.
        #expect(codeLines("> ```\n> code\nnot code\n") == [1, 2])
        #expect(codeLines("- ```\n  code\nnot code\n```\n") == [1, 2, 4])
        // `>` followed by a tab, and a fence two columns into a quote's content.
        #expect(codeLines(">\t```\n>\tcode\n>  ```\n") == [1, 2, 3])
    }

    @Test func indentedCodeCountsFromTheContainersContent() {
        // Four columns past the item's content is code; the item's own indentation is not.
        #expect(codeLines("- item\n\n    text of the item\n\n      code\n") == [5])
        #expect(codeLines(">     code\n> text\n") == [1])
        #expect(codeLines("-     code after the marker\n") == [1])
        // A paragraph continues over an indented line (no code interrupts a paragraph).
        #expect(codeLines("text\n    more text\n\n    code\n") == [4])
        // A lazy continuation line stays in the quote's paragraph; a fence after it is in no quote.
        #expect(codeLines("> quoted\nlazy\n```\ncode\n```\n") == [3, 4, 5])
    }

    @Test func whatIsNoFence() {
        // A backtick fence's info string holds no backtick: that is a code span.
        #expect(codeLines("``` a ` b\ntext\n") == [])
        #expect(codeLines("    - not a list\n") == [1])
        #expect(codeLines("2. item\n\n   ```\n   x\n   ```\n") == [3, 4, 5])
        #expect(codeLines("* * *\n    code after a thematic break\n") == [2])
    }
}
