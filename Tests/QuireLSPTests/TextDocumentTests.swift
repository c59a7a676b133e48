import Testing
@testable import QuireLSP
import QuireCore

/// Open buffers edited incrementally, with UTF-16 and UTF-8 positions.
@Suite struct TextDocumentTests {
    @Test func incrementalEditsKeepLinesAndCountUTF16Units() {
        var document = TextDocument(text: "a😀b\r\nCafé\nend", version: 1, encoding: .utf16)
        #expect(document.lineCount == 3)
        // 😀 is two UTF-16 units: "b" is at character 3.
        #expect(document.offset(of: Position(line: 0, character: 3)) == 5)
        #expect(document.position(of: 5) == Position(line: 0, character: 3))
        #expect(document.lineText(0) == "a😀b")
        document.apply(range: TextRange(start: Position(line: 0, character: 3), end: Position(line: 1, character: 2)), text: "X\nY\nZ")
        #expect(document.text == "a😀X\nY\nZfé\nend")
        #expect(document.lineCount == 4)
        #expect(document.lineText(2) == "Zfé")
        // Positions past a line's end are clamped to it.
        document.apply(range: TextRange(start: Position(line: 3, character: 99), end: Position(line: 3, character: 99)), text: "!")
        #expect(document.text.hasSuffix("end!"))
        document.apply(range: nil, text: "new")
        #expect(document.lineCount == 1 && document.text == "new")
    }

    @Test func utf8PositionsCountBytes() {
        let document = TextDocument(text: "Café x", version: 1, encoding: .utf8)
        #expect(document.offset(of: Position(line: 0, character: 6)) == 6)
        // Inside a scalar: back to its start.
        #expect(document.offset(of: Position(line: 0, character: 4)) == 3)
    }

    /// Two changes far apart are two edits, the lines between them untouched (one edit from the
    /// first change to the last re-inserted every line between); applied, they give the new text.
    @Test func minimalEditsAreOnePerRunOfChangedLines() throws {
        let old = "---\nupdatedAt: 1\ntitle: T\n---\none\ntwo\nsee [[Old]] here\nthree\nfour\n"
        let new = "---\nupdatedAt: 2\ntitle: T\n---\none\ntwo\nsee [[New]] here\ninserted\nthree\nfour\n"
        let document = TextDocument(text: old, version: 1, encoding: .utf16)
        let edits = document.minimalEdits(to: Array(new.utf8))
        #expect(edits.count == 2)
        #expect(edits.map(\.text) == ["2\n", "see [[New]] here\ninserted"])
        #expect(edits.first?.range == TextRange(start: Position(line: 1, character: 11), end: Position(line: 2, character: 0)))
        #expect(edits.last?.range == TextRange(start: Position(line: 6, character: 0), end: Position(line: 6, character: 16)))
        let json = edits.map { JSON.object([("range", $0.range.json), ("newText", .string($0.text))]) }
        #expect(applying(json, to: old) == new)
        #expect(document.minimalEdits(to: document.bytes).isEmpty)
        // A change inside one line is one edit, as `minimalEdit` gives it.
        #expect(document.minimalEdits(to: Array(old.replacingOccurrences(of: "two", with: "tww").utf8)).count == 1)
    }

    @Test func theMinimalEditTouchesOnlyWhatDiffers() throws {
        let document = TextDocument(text: "---\nupdated: 1700\n---\nbody é\n", version: 1, encoding: .utf16)
        let edit = try #require(document.minimalEdit(to: Array("---\nupdated: 1799\n---\nbody é\n".utf8)))
        #expect(edit.text == "99")
        #expect(edit.range == TextRange(start: Position(line: 1, character: 11), end: Position(line: 1, character: 13)))
        #expect(document.minimalEdit(to: document.bytes) == nil)
        // A change inside a multi-byte character replaces the whole character.
        let accent = try #require(document.minimalEdit(to: Array("---\nupdated: 1700\n---\nbody è\n".utf8)))
        #expect(accent.text == "è")
    }
}
