import Foundation

/// The front matter and body of a new note, written in the canonical key order:
/// `id`, `title`, `createdAt`, `updatedAt`, `tags: [a, b]`, then `project`, `draft` (only when
/// chosen), `pinned` (only when true), `color`, `mood`, then any extra keys in the given order.
public struct NoteTemplate: Sendable, Equatable {
    /// Lowercase UUID.
    public var id: String
    /// The title.
    public var title: String
    /// Creation time.
    public var createdAt: Date
    /// Update time (defaults to `createdAt`).
    public var updatedAt: Date
    /// Tags, written as a flow list (always present, `[]` when empty).
    public var tags: [String]
    /// Project, written when set.
    public var project: String?
    /// `true` for `--draft`, `false` for `--final`, nil: no key.
    public var draft: Bool?
    /// Written only when true.
    public var pinned: Bool
    /// Written when set.
    public var color: String?
    /// Written when set (1–5).
    public var mood: Int?
    /// Further keys, in order, after the canonical ones.
    public var extra: [FrontMatterEntry]
    /// The body after the closing fence.
    public var body: String

    /// Creates a template; only `id`, `title` and `createdAt` are required.
    public init(id: String, title: String, createdAt: Date, updatedAt: Date? = nil, tags: [String] = [],
                project: String? = nil, draft: Bool? = nil, pinned: Bool = false, color: String? = nil,
                mood: Int? = nil, extra: [FrontMatterEntry] = [], body: String = "") {
        self.id = id
        self.title = title
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.tags = tags
        self.project = project
        self.draft = draft
        self.pinned = pinned
        self.color = color
        self.mood = mood
        self.extra = extra
        self.body = body
    }

    /// The front-matter entries in the order they are written.
    public var entries: [FrontMatterEntry] {
        var entries = [
            FrontMatterEntry(key: "id", value: .string(id)),
            FrontMatterEntry(key: "title", value: .string(title)),
            FrontMatterEntry(key: "createdAt", value: .date(createdAt, text: "")),
            FrontMatterEntry(key: "updatedAt", value: .date(updatedAt, text: "")),
            FrontMatterEntry(key: "tags", value: .list(tags.map { .string($0) })),
        ]
        if let project { entries.append(FrontMatterEntry(key: "project", value: .string(project))) }
        if let draft { entries.append(FrontMatterEntry(key: "draft", value: .bool(draft))) }
        if pinned { entries.append(FrontMatterEntry(key: "pinned", value: .bool(true))) }
        if let color { entries.append(FrontMatterEntry(key: "color", value: .string(color))) }
        if let mood { entries.append(FrontMatterEntry(key: "mood", value: .int(mood))) }
        let written = Set(entries.map(\.key))
        return entries + extra.filter { !written.contains($0.key) }
    }

    /// The note file's text, dates written as ISO 8601 with seconds and the offset of `timeZone`.
    public func render(timeZone: TimeZone = .current, lineEnding: String = "\n") -> String {
        var text = "---" + lineEnding
        for entry in entries {
            var value = entry.value
            if case let .date(date, text) = value, text.isEmpty {
                value = .timestamp(date, timeZone: timeZone)
            }
            text += FrontMatterRenderer.entry(key: entry.key, value: value, newline: lineEnding)
        }
        return text + "---" + lineEnding + body
    }
}

extension NoteDocument {
    /// A new note's document from `template` (see `NoteTemplate` for the key order), dates
    /// written with the offset of `timeZone`.
    public static func newNote(_ template: NoteTemplate, timeZone: TimeZone = .current) -> NoteDocument {
        NoteDocument(data: Data(template.render(timeZone: timeZone).utf8), timeZone: timeZone)
    }
}
