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

/// moment.js tokens as Obsidian writes dates (daily note names, `{{date:FORMAT}}`).
@Suite("moment.js formats")
struct MomentFormatTests {
    @Test func tokensWriteEnglishNamesAndNumbers() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        let date = Date(timeIntervalSince1970: 1_773_475_509)  // 2026-03-14T08:05:09Z, a Saturday
        let cases = [
            "YYYY-MM-DD": "2026-03-14", "dddd, MMMM Do YYYY": "Saturday, March 14th 2026", "ddd D MMM YY": "Sat 14 Mar 26",
            "HH:mm:ss A": "08:05:09 AM", "h:mm a": "8:05 am", "[Week] W, Q": "Week 11, 1", "GGGG-[W]WW": "2026-W11",
            "DDDD E d dd": "073 6 6 Sa", "X": "1773475509", "YYYY/MM/[Journal] Do": "2026/03/Journal 14th",
        ]
        for (format, expected) in cases { #expect(MomentFormat.string(date, format: format, timeZone: utc) == expected, "\(format)") }
        let filled = try NoteTemplate.fill("{{date:YYYY-MM-DD}} {{time:HH:mm}} {{ date : dddd }} {{other:x}}\n", variables: [:],
                                           title: "T", id: "i", now: date, timeZone: utc)
        #expect(String(decoding: filled.data, as: UTF8.self).hasSuffix("\n---\n2026-03-14 08:05 Saturday {{other:x}}\n"))
        #expect(filled.unknown == ["other:x"])
    }
}
