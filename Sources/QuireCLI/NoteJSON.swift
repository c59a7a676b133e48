import Foundation
import QuireCore

/// The JSON shape of a note (the foundation issue): fixed key order, camelCase, null for missing.
enum NoteJSON {
    /// `{"path","id","title","folder","tags","project","draft","pinned","color","mood","priority",
    /// "createdAt","updatedAt","createdAtSource","updatedAtSource","words","frontMatter"}`, plus
    /// `body` when asked. A source is `frontMatter:<key>`, `git` or `fileModified` (Docs/format.md).
    static func object(_ note: Note, includeBody: Bool = false) -> JSON {
        var pairs: [(String, JSON)] = [
            ("path", .string(note.path)),
            ("id", .string(note.id)),
            ("title", .string(note.title)),
            ("folder", .string(note.folder)),
            ("tags", .array(note.tags.map { .string($0) })),
            ("project", .string(note.project)),
            ("draft", .bool(note.draft)),
            ("pinned", .bool(note.pinned)),
            ("color", .string(note.color)),
            ("mood", .int(note.mood)),
            ("priority", note.priority.map(value) ?? .null),
            ("createdAt", .string(note.iso8601(note.createdAt, from: note.createdAtSource))),
            ("updatedAt", .string(note.iso8601(note.updatedAt, from: note.updatedAtSource))),
            ("createdAtSource", .string(note.createdAtSource?.name)),
            ("updatedAtSource", .string(note.updatedAtSource?.name)),
            ("words", .int(note.words)),
            ("frontMatter", .object(note.frontMatter.map { ($0.key, value($0.value)) })),
        ]
        if includeBody { pairs.append(("body", .string(note.body))) }
        return .object(pairs)
    }

    /// A front-matter value as JSON; dates as ISO 8601 text in the offset they were written with.
    static func value(_ value: FrontMatterValue) -> JSON {
        value.json { date, written in QuireClock.iso8601(date, writtenAs: written) }
    }
}

/// Date formatting for output: `QuireClock`'s ISO 8601 with the local offset (honouring `TZ`).
enum DateText {
    /// `2026-03-05T18:40:12+01:00`.
    static func iso(_ date: Date) -> String { QuireClock.iso8601(date) }

    /// `2026-03-05 18:40` for tables.
    static func short(_ date: Date) -> String {
        // `iso` is `yyyy-MM-ddTHH:mm…`: the `T` is the eleventh character.
        var text = Array(iso(date).utf8.prefix(16))
        if text.count > 10, text[10] == UInt8(ascii: "T") { text[10] = UInt8(ascii: " ") }
        return String(decoding: text, as: UTF8.self)
    }
}
