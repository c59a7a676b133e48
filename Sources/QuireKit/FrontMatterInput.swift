import Foundation
import QuireCore

/// Front-matter values typed by a person (`quire set key=value`, `quire new --mood N`), read as
/// YAML would read them (`draft=false` a bool, `mood=4` an int, `tags=[a, b]` a list), with the
/// canonical coercions (`title` is always a string) and the one rule of each canonical key:
/// `mood` is `NoteFields.moodRule`, `draft` and `pinned` are true or false, `createdAt` and
/// `updatedAt` are times.
public enum FrontMatterInput {
    /// The value of `key` written as `text`; throws `KitError.invalidValue` when it breaks the key's rule.
    public static func value(key: String, text: String) throws -> FrontMatterValue {
        if key == "title" || key == "project" || key == "color" { return .string(text) }
        let probe = "---\nvalue: \(text)\n---\n"
        let note = NoteParser.parse(Data(probe.utf8), path: "value.md")
        guard note.problems.isEmpty, let value = note.value(forKey: "value") else {
            throw KitError.invalidValue(key: key, text: text, expected: nil)
        }
        // `x=#hash` and `x=it's # 1` would read as YAML comments, losing text: unquoted text with
        // a comment mark stays text, whole.
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if !"\"'[{".contains(trimmed.first ?? "\""), trimmed.hasPrefix("#") || trimmed.contains(" #") || trimmed.contains("\t#") {
            return try self.value(key: key, text: "'" + text.replacingOccurrences(of: "'", with: "''") + "'")
        }
        if key == "tags" || key == "aliases" {
            switch value {
            case .list(let items): return .list(items.map { .string(scalarText($0)) })
            case .null: return .list([])
            default: return .list([.string(scalarText(value))])
            }
        }
        if let expected = refusal(key: key, value: value) {
            throw KitError.invalidValue(key: key, text: text, expected: expected)
        }
        return value
    }

    /// A mood written as `text` (`NoteFields.moodRule`); throws `KitError.invalidValue` otherwise.
    public static func mood(_ text: String) throws -> Int {
        guard let mood = NoteFields.mood(try value(key: "mood", text: text)) else {
            throw KitError.invalidValue(key: "mood", text: text, expected: NoteFields.moodRule)
        }
        return mood
    }

    /// What a value of `key` must be when `value` is not that, else nil.
    private static func refusal(key: String, value: FrontMatterValue) -> String? {
        switch (key, value) {
        case ("mood", _): return NoteFields.mood(value) == nil ? NoteFields.moodRule : nil
        case ("draft", .bool), ("pinned", .bool), ("createdAt", .date), ("updatedAt", .date): return nil
        case ("draft", _), ("pinned", _): return "true or false"
        case ("createdAt", _), ("updatedAt", _): return "a time like 2026-11-29T12:00:00Z"
        default: return nil
        }
    }

    /// Sets each value in `document`: tags through `setTags` (stored without `#`), the rest as given.
    public static func set(_ values: [(key: String, value: FrontMatterValue)], in document: inout NoteDocument) throws {
        for (key, value) in values {
            if key == "tags", case .list(let items) = value {
                try document.setTags(items.map { NoteFields.typedTag(scalarText($0)) })
            } else {
                try document.set(key, value)
            }
        }
    }

    /// A scalar's text for string-typed keys.
    public static func scalarText(_ value: FrontMatterValue) -> String {
        switch value {
        case .string(let text): return text
        case .int(let number): return String(number)
        case .float(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .date(_, let text): return text
        case .null: return ""
        case .list(let items): return items.map(scalarText).joined(separator: ", ")
        case .map: return ""
        }
    }
}
