import Foundation
import Testing
@testable import QuireCore

/// The picker's candidates (most recently updated first) and how typed answers resolve.
@Suite struct NotePickerTests {
    static func picker() throws -> (TemporaryDirectory, NotePicker) {
        let temp = try TemporaryDirectory()
        try temp.mkdir("v/.quire")
        try temp.write("v/old.md", "---\ntitle: Old list\nupdatedAt: 2026-01-01T00:00:00Z\n---\n")
        try temp.write("v/Work/b.md", "---\ntitle: Meeting\tnotes\nupdatedAt: 2026-03-01T00:00:00Z\n---\n")
        try temp.write("v/a.md", "---\ntitle: Meeting agenda\nupdatedAt: 2026-03-01T00:00:00Z\n---\n")
        try temp.write("v/created.md", "---\ntitle: Created only\ncreatedAt: 2026-02-01T00:00:00Z\n---\n")
        try temp.write("v/undated.md", "---\ntitle: Undated\n---\n")
        let vault = try Vault(at: temp.url.appendingPathComponent("v"))
        let notes = try vault.notePaths().map { try vault.readNote(path: $0) }
        return (temp, NotePicker(resolver: NoteResolver(vault: vault, notes: notes, currentDirectory: vault.root)))
    }

    @Test func candidatesAreMostRecentFirstTiesByPathUndatedLast() throws {
        let (_, picker) = try Self.picker()
        #expect(picker.recent.map(\.path) == ["Work/b.md", "a.md", "created.md", "old.md", "undated.md"])
        #expect(picker.lines == ["Meeting notes\tWork\tWork/b.md", "Meeting agenda\t\ta.md", "Created only\t\tcreated.md",
                                 "Old list\t\told.md", "Undated\t\tundated.md"])
        #expect(picker.note(forLine: "Meeting agenda\t\ta.md\n")?.path == "a.md")
        #expect(picker.note(forLine: "Meeting agenda\t\tnope.md") == nil)
    }

    @Test func answersPickByNumberResolveWordsAndNarrow() throws {
        let (_, picker) = try Self.picker()
        let shown = Array(picker.recent.prefix(2))
        #expect(try picker.answer(" 2 ", shown: shown) == .chosen(picker.recent[1]))
        #expect(try picker.answer("", shown: shown) == .cancelled)
        #expect(try picker.answer("agenda", shown: shown) == .chosen(picker.recent[1]))
        #expect(try picker.answer("oldlst", shown: shown) == .chosen(picker.recent[3]))
        #expect(try picker.answer("meeting", shown: shown) == .narrowed(Array(picker.recent.prefix(2))))
        #expect(try picker.answer("zebra", shown: shown) == .noMatch)
        #expect(try picker.answer("7", shown: shown) == .noMatch)
    }
}
