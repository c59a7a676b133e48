import Foundation

/// The canonical front-matter keys and the keys other tools write for them (DESIGN.md §2),
/// and how values of any type coerce to the canonical fields of `Note`.
public enum NoteFields {
    /// Keys read as `createdAt`, canonical first.
    public static let createdAtKeys = ["createdAt", "created", "date"]
    /// Keys read as `updatedAt`, canonical first.
    public static let updatedAtKeys = ["updatedAt", "updated", "modified", "lastmod", "mtime"]
    /// Keys read as `tags`: `tags` wins, then `tag` (Obsidian accepts both); without either
    /// `keywords` and `categories` together.
    public static let tagKeys = ["tags", "tag", "keywords", "categories"]
    /// Canonical key order of a new note.
    public static let canonicalOrder = ["id", "title", "createdAt", "updatedAt", "tags"]
    /// The moods a note may have (`mood:`).
    public static let moods: ClosedRange<Int> = 1...5
    /// `mood`'s rule in words, for messages and help: "a whole number from 1 to 5".
    public static let moodRule = "a whole number from \(moods.lowerBound) to \(moods.upperBound)"

    /// The mood `value` holds: a whole number in `moods`; nil for anything else.
    public static func mood(_ value: FrontMatterValue) -> Int? {
        guard case let .int(mood) = value, moods.contains(mood) else { return nil }
        return mood
    }

    /// Epoch numbers at least this large are milliseconds (Dendron), smaller ones seconds.
    public static let millisecondThreshold = 100_000_000_000.0

    /// A date from a timestamp, an epoch number (seconds or milliseconds) or a date-shaped string.
    public static func date(from value: FrontMatterValue, timeZone: TimeZone = .current) -> Date? {
        switch value {
        case let .date(date, _): return date
        case let .int(number): return epoch(Double(number))
        case let .float(number): return number.isFinite ? epoch(number) : nil
        case let .string(text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let (date, _) = Timestamp.parse(trimmed, timeZone: timeZone) { return date }
            if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let number = Double(trimmed) {
                return epoch(number)
            }
            return nil
        default: return nil
        }
    }

    /// Tags from a list or a comma- or space-separated string, without `#`.
    public static func tags(from value: FrontMatterValue) -> [String] {
        switch value {
        case let .list(items): return items.flatMap { item -> [String] in
            if case .list = item { return [] }
            if case .map = item { return [] }
            return text(of: item).map { [cleanTag($0)] } ?? []
        }.filter { !$0.isEmpty }
        case let .string(text):
            let separators: Set<Character> = text.contains(",") ? [","] : [" ", "\t"]
            return text.split(whereSeparator: { separators.contains($0) }).map { cleanTag(String($0)) }
                .filter { !$0.isEmpty }
        case .int, .float, .bool, .date: return text(of: value).map { [cleanTag($0)] } ?? []
        default: return []
        }
    }

    /// A tag as a user types it: spaces around and leading `#` dropped.
    public static func typedTag(_ tag: String) -> String {
        var text = tag.trimmingCharacters(in: .whitespaces)
        while text.hasPrefix("#") { text.removeFirst() }
        return text
    }

    /// Tags as a user gives them (`typedTag`), each once (compared ignoring case, the first
    /// spelling kept, as tags are compared everywhere); `invalid`: the first that holds white
    /// space or a comma, which no note should be given — it cannot be written as `#tag`, and the
    /// text form `tags: a b` splits it.
    public static func givenTags(_ tags: [String]) -> (tags: [String], invalid: String?) {
        let typed = tags.map(typedTag)
        let invalid = typed.first { $0.contains { $0.isWhitespace || $0 == "," } }
        return (merging(typed, []), invalid)
    }

    /// `first` then the tags of `second` not in it, each once (compared ignoring case).
    public static func merging(_ first: [String], _ second: [String]) -> [String] {
        if second.isEmpty && first.count < 2 { return first }
        let all = first + second
        guard all.count <= 16 else {
            var seen = Set<String>()
            return all.filter { seen.insert($0.lowercased()).inserted }
        }
        // Few tags (most notes): compared with those kept, not hashed.
        var kept: [String] = []
        return all.filter { tag in
            let key = tag.lowercased()
            guard !kept.contains(key) else { return false }
            kept.append(key)
            return true
        }
    }

    /// A scalar as text (`2024` → "2024"); nil for null, lists and maps.
    public static func text(of value: FrontMatterValue) -> String? {
        switch value {
        case .null, .list, .map: return nil
        case let .bool(flag): return flag ? "true" : "false"
        case let .int(number): return String(number)
        case let .float(number): return FrontMatterRenderer.float(number)
        case let .string(text): return text
        case let .date(_, text): return text
        }
    }

    /// Fills the canonical fields of `note` from its front matter. `texts[i]` holds the scalar
    /// text of `note.frontMatter[i]` as written (so `title: 1.10` stays "1.10"), `lines[i]` its
    /// file line. Keys match case-insensitively (ASCII), first occurrence.
    static func apply(to note: inout Note, texts: [String?], lines: [Int], timeZone: TimeZone) {
        let frontMatter = note.frontMatter
        // Each key's first position, found in one pass (not a search of every key for each).
        let keys = CanonicalKeyPositions(frontMatter)
        func lookup(_ key: CanonicalKeyPositions.Key) -> FrontMatterEntry? {
            keys[key].map { frontMatter[$0] }
        }
        func scalar(_ key: CanonicalKeyPositions.Key) -> String? {
            guard let index = keys[key] else { return nil }
            let entry = frontMatter[index]
            if index < texts.count, let written = texts[index], text(of: entry.value) != nil { return written }
            if case .list = entry.value { return FrontMatterRenderer.flow(entry.value) }
            return text(of: entry.value)
        }
        var problems: [NoteProblem] = []
        func problem(_ key: CanonicalKeyPositions.Key, _ message: String) {
            let line = keys[key].flatMap { $0 < lines.count ? lines[$0] : nil }
            problems.append(NoteProblem(kind: .badValue, line: line, message: message))
        }
        // The first of `candidates` the front matter has, read as a date (with the key it is read
        // under, as spelled in `createdAtKeys` / `updatedAtKeys`).
        func date(_ candidates: [CanonicalKeyPositions.Key]) -> (Date, String)? {
            guard let key = candidates.first(where: { keys[$0] != nil }), let entry = lookup(key) else { return nil }
            if case .null = entry.value { return nil }
            if let date = Self.date(from: entry.value, timeZone: timeZone) {
                return (date, CanonicalKeyPositions.spellings[key.rawValue])
            }
            problem(key, "'\(entry.key)' is not a date")
            return nil
        }
        defer { note.problems += problems }
        note.id = scalar(.id)
        if let title = scalar(.title), !title.isEmpty {
            note.title = title
            note.hasTitle = true
        }
        if let (date, key) = date(CanonicalKeyPositions.createdAtKeys) {
            note.createdAt = date
            note.createdAtSource = .frontMatter(key)
        }
        if let (date, key) = date(CanonicalKeyPositions.updatedAtKeys) {
            note.updatedAt = date
            note.updatedAtSource = .frontMatter(key)
        }
        if let entry = lookup(.tags) ?? lookup(.tag) {
            note.tags = tags(from: entry.value)
        } else {
            note.tags = [.keywords, .categories].compactMap(lookup).flatMap { tags(from: $0.value) }
        }
        if note.tags.count > 1 { note.tags = merging(note.tags, []) }
        note.project = scalar(.project)
        note.color = scalar(.color)
        let draft = lookup(.draft), pinned = lookup(.pinned)
        note.draft = bool(draft?.value) ?? false
        note.pinned = bool(pinned?.value) ?? false
        // A flag that is neither true nor false reads as false: said, not silent (`draft: maybe`).
        for (key, entry) in [(CanonicalKeyPositions.Key.draft, draft), (.pinned, pinned)] {
            if let entry, entry.value != .null, bool(entry.value) == nil {
                problem(key, "'\(entry.key)' is not true or false")
            }
        }
        if let entry = lookup(.title) {
            switch entry.value {
            case .list, .map: problem(.title, "'\(entry.key)' is not text")
            default: break
            }
        }
        if let entry = lookup(.mood), entry.value != .null {
            if let mood = mood(entry.value) {
                note.mood = mood
            } else {
                problem(.mood, "'mood' is not \(moodRule)")
            }
        }
        if let entry = lookup(.priority), entry.value != .null { note.priority = entry.value }
        if let entry = lookup(.aliases) {
            if case let .list(items) = entry.value { note.aliases = items.compactMap(text(of:)) }
            else if let alias = text(of: entry.value) { note.aliases = [alias] }
        }
    }

    /// Whether two keys are equal ignoring the case of ASCII letters.
    /// (It runs for every canonical key against every key of every note: byte buffers, not a
    /// zip of two UTF-8 views.)
    static func equalIgnoringASCIICase(_ left: String, _ right: String) -> Bool {
        guard left.utf8.count == right.utf8.count else { return false }
        var left = left, right = right
        return left.withUTF8 { a in
            right.withUTF8 { b in
                for index in 0..<a.count where a[index] != b[index] {
                    let x = a[index] | 0x20, y = b[index] | 0x20
                    guard x == y, x >= 0x61, x <= 0x7A else { return false }
                }
                return true
            }
        }
    }

    private static func bool(_ value: FrontMatterValue?) -> Bool? {
        switch value {
        case let .bool(flag)?: return flag
        case let .string(text)?: return text.lowercased() == "true" ? true : text.lowercased() == "false" ? false : nil
        default: return nil
        }
    }

    /// Epoch seconds beyond year 9999 are not dates.
    static let maxEpochSeconds = 253_402_300_799.0

    private static func epoch(_ number: Double) -> Date? {
        let seconds = abs(number) >= millisecondThreshold ? number / 1000 : number
        return abs(seconds) <= maxEpochSeconds ? Date(timeIntervalSince1970: seconds) : nil
    }

    /// A tag without surrounding spaces or tabs and without leading `#` (works on bytes: hot path).
    private static func cleanTag(_ raw: String) -> String {
        let utf8 = raw.utf8
        var start = utf8.startIndex
        var end = utf8.endIndex
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        while start < end, isSpace(utf8[start]) || utf8[start] == UInt8(ascii: "#") { start = utf8.index(after: start) }
        while start < end, isSpace(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        if start == utf8.startIndex, end == utf8.endIndex { return raw }
        return String(raw[start..<end])
    }
}
