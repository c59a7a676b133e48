import Foundation
import Testing
@testable import QuireCore

@Suite struct RenameKeyTemplateTests {
    @Test func renameKeyChangesOnlyTheKeyText() throws {
        let text = "\u{FEFF}---\r\ntitle: Café\r\nmodified: 2024-01-15 09:30  # Obsidian\r\n\"date\": 2024-01-01\r\n---\r\nBody ünïcode\r\n"
        var document = NoteDocument(data: Data(text.utf8))
        try document.renameKey("modified", to: "updatedAt")
        try document.renameKey("date", to: "createdAt")
        #expect(String(decoding: document.serialized(), as: UTF8.self)
            == "\u{FEFF}---\r\ntitle: Café\r\nupdatedAt: 2024-01-15 09:30  # Obsidian\r\ncreatedAt: 2024-01-01\r\n---\r\nBody ünïcode\r\n")
        // A missing key does nothing; a taken name is refused and nothing changes.
        let before = document.serialized()
        try document.renameKey("nope", to: "other")
        #expect(throws: CoreError.self) { try document.renameKey("title", to: "createdAt") }
        #expect(document.serialized() == before)
        var toml = NoteDocument(data: Data("+++\ndate = 2024-01-01\n+++\n".utf8))
        #expect(throws: CoreError.self) { try toml.renameKey("date", to: "createdAt") }
    }

    @Test func fillWritesWholeValuesAsYAMLAndAddsMissingKeys() throws {
        let utc = TimeZone(identifier: "UTC") ?? .current
        let now = Date(timeIntervalSince1970: 1_764_417_600)  // 2025-11-29T12:00:00Z, a Saturday
        let template = "---\ntitle: {{ title }}\nmood: {{mood}}\nnote: made {{date}}\n---\n{{title}} on {{date}} {{time}}, {{missing}}\n"
        var variables = NoteTemplate.variables(title: "A: b", id: "i-1", now: now, timeZone: utc)
        variables["mood"] = "3"
        #expect(variables["weekday"] == "Saturday")
        let filled = try NoteTemplate.fill(template, variables: variables, title: "A: b", id: "i-1", now: now, timeZone: utc)
        #expect(filled.unknown == ["missing"])
        #expect(String(decoding: filled.data, as: UTF8.self) == """
        ---
        title: "A: b"
        mood: 3
        note: made 2025-11-29
        id: i-1
        createdAt: 2025-11-29T12:00:00+00:00
        updatedAt: 2025-11-29T12:00:00+00:00
        ---
        A: b on 2025-11-29 12:00, {{missing}}

        """)
        let note = NoteParser.parse(filled.data, path: "x.md", timeZone: utc)
        #expect(note.title == "A: b" && note.mood == 3)
        // Front matter that does not read after filling in is an error, not a broken note.
        #expect(throws: CoreError.self) {
            try NoteTemplate.fill("---\ntags: [{{title}}\n---\n", variables: variables, title: "A: b", id: "i-1", now: now, timeZone: utc)
        }
    }
}
