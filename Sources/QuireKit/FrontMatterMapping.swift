import Foundation
import QuireCore
import QuireGit

/// Surgical rewrites of other tools' front matter into quire's canonical keys, shared by the
/// folder imports and the migrations: only the lines of the keys concerned change (QuireCore's
/// `NoteDocument`), everything else stays byte for byte. Each step is idempotent: applied to its
/// own output it changes nothing.
struct FrontMatterMapping: Sendable {
    /// Keys read as `createdAt` (the first present wins) when the note has no `createdAt`.
    var createdKeys: [String] = []
    /// Keys read as `updatedAt` likewise.
    var updatedKeys: [String] = []
    /// Keys whose tags are merged into `tags` (and then removed).
    var tagKeys: [String] = []
    /// Other keys renamed (`alias` → `aliases`) when the new name is free.
    var renames: [(from: String, to: String)] = []

    /// Applies every step to the note at `path`; returns the values it left where they were
    /// (`mergeTags`); throws only what `NoteDocument` throws for an edit it refuses.
    @discardableResult
    func apply(to document: inout NoteDocument, path: String) throws -> [KeptValue] {
        try mapDate(&document, canonical: "createdAt", sources: createdKeys)
        try mapDate(&document, canonical: "updatedAt", sources: updatedKeys)
        let kept = tagKeys.isEmpty ? [] : try Self.mergeTags(&document, from: tagKeys, path: path)
        for rename in renames where document.keys.contains(rename.from) && !document.keys.contains(rename.to) {
            try document.renameKey(rename.from, to: rename.to)
        }
        return kept
    }

    /// Renames the first of `sources` holding a readable date to `canonical` (when the note has
    /// no `canonical` key), then writes an epoch number under `canonical` as ISO 8601.
    private func mapDate(_ document: inout NoteDocument, canonical: String, sources: [String]) throws {
        if !document.keys.contains(canonical),
           let source = sources.first(where: { key in
               document.keys.contains(key) && document.value(forKey: key).flatMap { NoteFields.date(from: $0, timeZone: document.timeZone) } != nil
           }) {
            try document.renameKey(source, to: canonical)
        }
        try Self.epochToISO(&document, key: canonical)
    }

    /// An epoch number (or a string of digits) under `key` written as ISO 8601 with seconds.
    static func epochToISO(_ document: inout NoteDocument, key: String) throws {
        guard document.keys.contains(key), let value = document.value(forKey: key) else { return }
        let isEpoch: Bool
        switch value {
        case .int, .float: isEpoch = true
        case let .string(text): isEpoch = !text.isEmpty && text.utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
        default: isEpoch = false
        }
        guard isEpoch, let date = NoteFields.date(from: value, timeZone: document.timeZone) else { return }
        try document.set(key, .timestamp(date, timeZone: document.timeZone))
    }

    /// Tags trimmed, without `#`, case-duplicates merged (first spelling wins), with the tags of
    /// `others` merged in and those keys removed. A list is written as a list of plain tags; a
    /// text keeps its form (`"#a, #b"` stays so, `setTags`). Given `others` (an import), the
    /// tags end under `tags` — the first of `others` present is renamed so when the note has no
    /// `tags` —; without (the migration), they are tidied under the key the note keeps them in.
    /// Only values that map losslessly (`tagLoss`) are rewritten or moved: any other stays where
    /// it was, byte for byte, and is returned (for the note at `path`); a tag key that holds
    /// more than tags takes nothing in, and a merge whose tags would not read back the same is
    /// not made.
    @discardableResult
    static func mergeTags(_ document: inout NoteDocument, from others: [String], path: String) throws -> [KeptValue] {
        let key = others.isEmpty ? document.tagsKey : (document.keys.first { $0.lowercased() == "tags" } ?? "tags")
        var present = others.filter { $0 != key && document.keys.contains($0) }
        let current = document.value(forKey: key)
        if let current, let reason = tagLoss(current) {
            return [KeptValue(path: path, key: key, reason: reason)]
                + present.map { KeptValue(path: path, key: $0, reason: "\(key) holds more than tags") }
        }
        var kept: [KeptValue] = []
        present.removeAll { other in
            guard let value = document.value(forKey: other), let reason = tagLoss(value) else { return false }
            kept.append(KeptValue(path: path, key: other, reason: reason))
            return true
        }
        var tags = current.map(NoteFields.tags(from:)) ?? []
        for other in present { tags += document.value(forKey: other).map(NoteFields.tags(from:)) ?? [] }
        var seen = Set<String>()
        tags = tags.filter { seen.insert($0.lowercased()).inserted }
        let unchanged: Bool = {
            guard present.isEmpty, let current else { return present.isEmpty && current == nil }
            switch current {
            case let .list(items): return items == tags.map { .string($0) }
            case let .string(text):
                let separator = text.contains(",") ? ", " : " "
                return text == tags.joined(separator: separator)
            default: return tags.isEmpty
            }
        }()
        guard !unchanged else { return kept }
        let original = document
        var target = key
        if current == nil || current == .null {
            if let first = present.first {
                try document.renameKey(first, to: "tags")
                target = "tags"
            }
        }
        if case .list? = current {
            // A list is written in the canonical form: without `#` (YAML needs them quoted).
            try document.set(key, .list(tags.map { .string($0) }))
        } else {
            try document.setTags(tags)
        }
        for other in present where document.keys.contains(other) { try document.remove(other) }
        let readBack = document.value(forKey: target).map(NoteFields.tags(from:)) ?? []
        guard readBack == tags else {
            // A tag that holds the text form's separator (`a, b` merged into `tags: x y`).
            document = original
            let reason = "its tags would not read back the same"
            return kept + ([key] + present).filter { document.keys.contains($0) }.map { KeptValue(path: path, key: $0, reason: reason) }
        }
        return kept
    }

    /// Why `value` does not map losslessly into quire's tags, nil when it does. It does when it
    /// is empty, a string (tags as text) or a list of strings only: those read back as the same
    /// tags once written. A mapping, or a list holding a mapping, a nested list, a number, a
    /// boolean, a date or an empty item, does not — YAML reads `2024`, `true`, `2024-01-05` as
    /// other types and a tag list writes strings (`1.10` would come back as `"1.1"`).
    static func tagLoss(_ value: FrontMatterValue) -> String? {
        switch value {
        case .null, .string: return nil
        case let .list(items):
            for (index, item) in items.enumerated() {
                if case .string = item { continue }
                return "item \(index + 1) is \(kind(of: item))"
            }
            return nil
        default: return "it is \(kind(of: value))"
        }
    }

    /// What a value is, in words (`a mapping`).
    private static func kind(of value: FrontMatterValue) -> String {
        switch value {
        case .null: return "empty"
        case .bool: return "a boolean"
        case .int, .float: return "a number"
        case .string: return "a string"
        case .date: return "a date"
        case .list: return "a nested list"
        case .map: return "a mapping"
        }
    }

    /// A name-based id (UUID version 5 layout over SHA-1 of `name`): every device derives the
    /// same id for the same note, so concurrent migrations agree.
    static func derivedID(_ name: String) -> String {
        var bytes = Array(SHA1.digest(Data(name.utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        return [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4),
                hex.dropFirst(16).prefix(4), hex.dropFirst(20)].joined(separator: "-")
    }
}
