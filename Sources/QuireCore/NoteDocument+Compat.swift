import Foundation

/// Writing dates and tags "where the note already keeps them, in the form it already uses"
/// (DESIGN.md §2): a Dendron epoch-ms `updated` stays epoch milliseconds, an Obsidian
/// `modified: 2024-01-15 09:30` keeps that shape (in local time), `tags: a, b` stays a
/// comma-separated string. A note with no such key gets the canonical one.
extension NoteDocument {
    /// Sets the update time in the note's existing updated key (`updatedAt`, `updated`,
    /// `modified`, `lastmod`, `mtime`) and form, else as a new `updatedAt`.
    public mutating func setUpdatedAt(_ date: Date) throws {
        try setDate(date, keys: NoteFields.updatedAtKeys)
    }

    /// Sets the creation time in the note's existing created key (`createdAt`, `created`,
    /// `date`) and form, else as a new `createdAt`.
    public mutating func setCreatedAt(_ date: Date) throws {
        try setDate(date, keys: NoteFields.createdAtKeys)
    }

    /// The key this document keeps its tags under: `tags`, else `tag`; else `keywords`, else
    /// `categories`; else `tags`.
    public var tagsKey: String {
        existingKey(in: ["tags"]) ?? existingKey(in: ["tag"]) ?? existingKey(in: ["keywords"])
            ?? existingKey(in: ["categories"]) ?? "tags"
    }

    /// Adds and removes tags (compared ignoring case) in the front matter, where the note keeps
    /// them (`tagsKey`, `setTags`). A note that keeps them under both `keywords` and `categories`
    /// (Hugo), read together as its tags, loses a removed tag from whichever holds it and gets
    /// new ones in `keywords`: neither key's tags move to the other.
    public mutating func changeTags(adding additions: [String], removing removals: [String]) throws {
        let removed = Set(removals.map { NoteFields.typedTag($0).lowercased() })
        func changed(_ tags: [String], adding: [String]) -> [String] {
            var result = tags.filter { !removed.contains($0.lowercased()) }
            for tag in adding where !result.contains(where: { $0.lowercased() == tag.lowercased() }) { result.append(tag) }
            return result
        }
        let key = tagsKey
        let own = value(forKey: key).map(NoteFields.tags(from:)) ?? []
        if key.lowercased() == "keywords", let categoriesKey = existingKey(in: ["categories"]),
           let categories = value(forKey: categoriesKey) {
            let held = NoteFields.tags(from: categories)
            let kept = changed(held, adding: [])
            if kept != held { try setTags(kept, key: categoriesKey) }
            let heldLowercased = Set(held.map { $0.lowercased() })
            let next = changed(own, adding: additions.filter { !heldLowercased.contains(NoteFields.typedTag($0).lowercased()) })
            if next != own { try setTags(next, key: key) }
            return
        }
        let next = changed(own, adding: additions)
        if next != own || value(forKey: key) == nil && !next.isEmpty { try setTags(next, key: key) }
    }

    /// Sets the tags in the key and form the note already uses: a list stays a list (flow or
    /// block), a string stays a comma- or space-separated string. Tags are given without `#`
    /// (a leading `#` is dropped, duplicates are dropped case-insensitively). A tag the note
    /// already has keeps the form it is written in (`#beta` stays `#beta`, `alpha` stays `alpha`,
    /// `2024` stays a number); a new one is written with `#` only when every tag the note has is
    /// (Obsidian's `tags: "#a, #b"`).
    public mutating func setTags(_ tags: [String]) throws {
        try setTags(tags, key: tagsKey)
    }

    /// `setTags` under `key`.
    private mutating func setTags(_ tags: [String], key: String) throws {
        var seen = Set<String>()
        let tags = NoteFields.tags(from: .list(tags.map { .string($0) })).filter { seen.insert($0.lowercased()).inserted }
        let existing = value(forKey: key)
        // A value that holds more than tags (a mapping, or a list with lists or mappings in it)
        // would lose what tags do not read: refused, the note left as it is.
        let nested: (FrontMatterValue) -> Bool = { if case .list = $0 { return true }; if case .map = $0 { return true }; return false }
        if case .map? = existing {
            throw CoreError.editFailed(key: key, reason: "it holds a mapping, not a list or text of tags; edit the note by hand")
        }
        if case let .list(items)? = existing, items.contains(where: nested) {
            throw CoreError.editFailed(key: key, reason: "its list holds lists or mappings, not only tags; edit the note by hand")
        }
        switch existing {
        case let .string(text)?:
            let words = text.split(whereSeparator: { $0 == "," || $0 == " " })
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let separator = text.contains(",") || tags.contains(where: { $0.contains(" ") }) ? ", " : " "
            let kept = Self.keepingForms(tags, written: words.map { .string($0) })
            try set(key, .string(kept.map { NoteFields.text(of: $0) ?? "" }.joined(separator: separator)))
        case let .list(items)?:
            try set(key, .list(Self.keepingForms(tags, written: items)))
        default:
            try set(key, .list(tags.map { .string($0) }))
        }
    }

    /// `tags` as values: each tag the note already has as it is `written` there (its `#`, its
    /// type), in the order of `tags`; each new one as a string, with `#` when every written
    /// string has one.
    static func keepingForms(_ tags: [String], written: [FrontMatterValue]) -> [FrontMatterValue] {
        var form: [String: FrontMatterValue] = [:]
        for item in written {
            guard let name = NoteFields.tags(from: .list([item])).first else { continue }
            if form[name.lowercased()] == nil { form[name.lowercased()] = item }
        }
        let strings = written.compactMap { NoteFields.text(of: $0) }
        let hash = !strings.isEmpty && strings.allSatisfy { $0.hasPrefix("#") }
        return tags.map { form[$0.lowercased()] ?? .string(hash ? "#" + $0 : $0) }
    }

    /// The value of `date` as it would be written over `existing` (same shape and unit).
    public func dateValue(_ date: Date, like existing: FrontMatterValue?) -> FrontMatterValue {
        switch existing {
        case let .int(number)?:
            let milliseconds = Double(abs(number)) >= NoteFields.millisecondThreshold
            let seconds = date.timeIntervalSince1970
            return .int(Int((milliseconds ? seconds * 1000 : seconds).rounded(.down)))
        case .float?:
            return .int(Int(date.timeIntervalSince1970.rounded(.down)))
        case let .date(_, text)?:
            if let (_, shape) = Timestamp.parse(text, timeZone: timeZone) {
                return .date(date, text: shape.format(date, timeZone: timeZone))
            }
        case let .string(text)?:
            if let (_, shape) = Timestamp.parse(text.trimmingCharacters(in: .whitespaces), timeZone: timeZone) {
                return .string(shape.format(date, timeZone: timeZone))
            }
            if !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
                let milliseconds = (Double(text) ?? 0) >= NoteFields.millisecondThreshold
                let seconds = date.timeIntervalSince1970
                return .string(String(Int((milliseconds ? seconds * 1000 : seconds).rounded(.down))))
            }
        default:
            break
        }
        return .date(date, text: Timestamp.iso.format(date, timeZone: timeZone))
    }

    private mutating func setDate(_ date: Date, keys: [String]) throws {
        guard let key = existingKey(in: keys) else {
            try set(keys[0], dateValue(date, like: nil))
            return
        }
        try set(key, dateValue(date, like: value(forKey: key)))
    }

    /// The first of `keys` present (matched case-insensitively), spelled as the note spells it.
    private func existingKey(in keys: [String]) -> String? {
        for key in keys {
            let lowered = key.lowercased()
            if let hit = entries.first(where: { $0.key.lowercased() == lowered }) { return hit.key }
        }
        return nil
    }
}
