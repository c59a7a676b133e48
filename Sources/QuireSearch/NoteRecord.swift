import Foundation
import QuireCore

/// The metadata the catalog keeps of one note: everything needed to filter, sort and show it
/// (the body itself is not kept; see `Catalog.snippet`).
public struct NoteRecord: Equatable, Sendable {
    /// Path relative to the vault root, `/`-separated.
    public var path: String
    /// The folder of `path`; the root folder is `""`.
    public var folder: String
    /// Canonical `id`, if any.
    public var id: String?
    /// Title (front matter, else the file name).
    public var title: String
    /// Tags without `#`.
    public var tags: [String]
    /// `project`, if any.
    public var project: String?
    /// `draft`.
    public var draft: Bool
    /// `pinned`.
    public var pinned: Bool
    /// `color`, if any.
    public var color: String?
    /// `mood`, if any.
    public var mood: Int?
    /// `priority`, typed.
    public var priority: FrontMatterValue?
    /// `aliases`.
    public var aliases: [String]
    /// `createdAt`, if known.
    public var createdAt: Date?
    /// `updatedAt`, if known.
    public var updatedAt: Date?
    /// Words in the body.
    public var words: Int
    /// Every front-matter key in document order.
    public var frontMatter: [FrontMatterEntry]
    /// Problems found while reading the note (empty for a healthy note).
    public var problems: [NoteProblem]

    /// Copies the metadata of a parsed note.
    public init(note: Note) {
        path = note.path
        folder = note.folder
        id = note.id
        title = note.title
        tags = note.tags
        project = note.project
        draft = note.draft
        pinned = note.pinned
        color = note.color
        mood = note.mood
        priority = note.priority
        aliases = note.aliases
        createdAt = note.createdAt
        updatedAt = note.updatedAt
        words = note.words
        frontMatter = note.frontMatter
        problems = note.problems
    }

    /// Whether the note matches a filter (see `FieldFilter` for the rules).
    public func matches(_ filter: FieldFilter) -> Bool {
        switch filter {
        case .tag(let tag):
            return tags.contains { CaseFolding.matches($0, tag, orUnder: true) }
        case .project(let value):
            return project.map { CaseFolding.matches($0, value) } ?? false
        case .folder(let value):
            return CaseFolding.matches(folder, value, orUnder: true)
        case .draft(let flag):
            return draft == flag
        case .pinned(let flag):
            return pinned == flag
        case .color(let value):
            return color.map { CaseFolding.matches($0, value) } ?? false
        case .mood(let comparison, let value):
            guard let mood else { return false }
            return comparison.holds(mood, value)
        case .path(let glob):
            let lowered = path.lowercased()
            if Glob.matches(glob, lowered) { return true }
            guard !glob.contains("/") else { return false }
            let name = lowered.split(separator: "/").last.map(String.init) ?? lowered
            return Glob.matches(glob, name)
        case .created(let comparison, let bound):
            guard let createdAt else { return false }
            return bound.matches(createdAt, comparison)
        case .updated(let comparison, let bound):
            guard let updatedAt else { return false }
            return bound.matches(updatedAt, comparison)
        case .value(let key, let comparison, let value):
            return fieldValue(key).map { Self.matches($0, comparison, value) } ?? false
        }
    }

    private func fieldValue(_ key: String) -> FrontMatterValue? {
        switch key {
        case "priority": return priority
        case "id": return id.map { .string($0) }
        default:
            if let hit = frontMatter.first(where: { $0.key == key }) { return hit.value }
            return frontMatter.first(where: { $0.key.lowercased() == key })?.value
        }
    }

    /// Whether a front-matter value matches `op value`: lists match when an item does;
    /// numbers compare numerically; everything else compares as lowercased text.
    static func matches(_ field: FrontMatterValue, _ comparison: Comparison, _ value: String) -> Bool {
        let text: String
        switch field {
        case .list(let items):
            return items.contains { matches($0, comparison, value) }
        case .map, .null:
            return false
        case .int(let number):
            if let wanted = Double(value) { return comparison.holds(Double(number), wanted) }
            text = String(number)
        case .float(let number):
            if let wanted = Double(value) { return comparison.holds(number, wanted) }
            text = String(number)
        case .bool(let flag):
            text = flag ? "true" : "false"
        case .string(let string):
            text = string.lowercased()
        case .date(_, let written):
            text = written.lowercased()
        }
        return comparison.holds(text, value)
    }
}
