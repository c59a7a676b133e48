import Foundation
import Testing
@testable import QuireCore

/// git's conflict markers left in a note are a problem of the note (`quire check` names it);
/// markers shown inside fenced code, or only some of them, are not.
@Suite struct ConflictMarkersTests {
    static func line(_ text: String) -> Int? {
        Array(text.utf8).withUnsafeBufferPointer { ConflictMarkers.firstLine(in: $0) }
    }

    @Test func aCompleteSetIsFoundAtItsFirstLine() {
        #expect(Self.line("intro\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> other\n") == 2)
        #expect(Self.line("<<<<<<< ours\r\na\r\n||||||| base\r\nb\r\n=======\r\nc\r\n>>>>>>> theirs\r\n") == 1)
        #expect(Self.line("---\ntitle: x\n---\n<<<<<<<\na\n=======\nb\n>>>>>>>\n") == 4)
    }

    @Test func partsAndCodeAreNotConflicts() {
        #expect(Self.line("no markers at all\n") == nil)
        #expect(Self.line("<<<<<<< only the start\ntext\n") == nil)
        #expect(Self.line("<<<<<<< a\n>>>>>>> b\n") == nil)  // no separator
        #expect(Self.line("=======\n>>>>>>> b\n") == nil)
        #expect(Self.line("```\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n```\n") == nil)
        #expect(Self.line("text <<<<<<< inline\n=======\n>>>>>>> x\n") == nil)
        #expect(Self.line("<<<<<<<<< longer\n=======\n>>>>>>> x\n") == nil)
    }

    @Test func theParserReportsThem() {
        let note = NoteParser.parse(Data("---\ntitle: T\n---\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n".utf8), path: "t.md")
        #expect(note.problems.map(\.kind) == [.conflictMarkers])
        #expect(note.problems.first?.line == 4)
    }
}
