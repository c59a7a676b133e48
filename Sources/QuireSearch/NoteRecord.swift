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
    /// Where `createdAt` came from (front-matter key or the file's modification time).
    public var createdAtSource: DateSource?
    /// Where `updatedAt` came from.
    public var updatedAtSource: DateSource?
    /// Words in the body.
    public var words: Int
    /// Whether the front matter names a title (else `title` is the file name standing in).
    public var hasTitle: Bool
    /// Which kind of front matter the file carries.
    public var format: FrontMatterFormat
    /// Every front-matter key in document order (decoded from the cache on first use).
    public var frontMatter: [FrontMatterEntry] {
        get { frontMatterStorage.entries }
        set {
            frontMatterStorage = FrontMatterStorage(newValue)
            extraFrontMatter = newValue.filter { !Self.canonicalKeys.contains($0.key) }
        }
    }
    /// The front-matter keys other than the canonical ones (which have their own fields: see
    /// `canonicalKeys`), in document order; what `key:value` filters look at.
    public private(set) var extraFrontMatter: [FrontMatterEntry]
    var frontMatterStorage: FrontMatterStorage
    /// Problems found while reading the note (empty for a healthy note).
    public var problems: [NoteProblem]
    /// The links written in the note, in file order (see `LinkExtractor`).
    public var links: [NoteLink] = []
    /// The note's headings and block ids (what `#heading` and `#^block` links point at).
    public var anchors = NoteAnchors()

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
        createdAtSource = note.createdAtSource
        updatedAtSource = note.updatedAtSource
        words = note.words
        hasTitle = note.hasTitle
        format = note.format
        extraFrontMatter = note.frontMatter.filter { !Self.canonicalKeys.contains($0.key) }
        frontMatterStorage = FrontMatterStorage(note.frontMatter)
        // The snapshot stores a problem's line, not its column: a record reads back equal.
        problems = note.problems.map { NoteProblem(kind: $0.kind, line: $0.line, message: $0.message) }
        links = note.links
        anchors = note.anchors
    }

    /// Keys kept in their own fields rather than in `extraFrontMatter`.
    public static let canonicalKeys: Set<String> = [
        "id", "title", "createdAt", "updatedAt", "tags", "project", "draft", "pinned", "color",
        "mood", "priority", "aliases",
    ]

    mutating func setExtraFrontMatter(_ entries: [FrontMatterEntry]) {
        extraFrontMatter = entries
    }

    /// An empty record for `path` (the cache reader fills it in).
    init(path: String) {
        self.path = path
        folder = ""
        title = ""
        tags = []
        draft = false
        pinned = false
        aliases = []
        words = 0
        hasTitle = false
        format = .none
        extraFrontMatter = []
        frontMatterStorage = FrontMatterStorage([])
        problems = []
    }

    /// Whether the note matches a filter (see `FieldFilter` for the rules).
    public func matches(_ filter: FieldFilter) -> Bool {
        withUnsafePointer(to: self) { Self.predicate(for: filter)($0) }
    }

    /// A test for `filter` that reads fields through a pointer (no whole record is copied);
    /// the filter's case is decided once, not per note. The filters the index answers are
    /// tested against the note's own attribute terms, through the same `AttributeQuery` the
    /// index is asked with: one definition of what they match.
    static func predicate(for filter: FieldFilter) -> (UnsafePointer<NoteRecord>) -> Bool {
        if let query = AttributeQuery(filter) {
            return { query.matches(terms: Attribute.terms(of: $0.pointee)) }
        }
        switch filter {
        case .path(let glob):
            return { record in
                let lowered = record.pointee.path.lowercased()
                if Glob.matches(glob, lowered) { return true }
                guard !glob.contains("/") else { return false }
                let name = lowered.split(separator: "/").last.map(String.init) ?? lowered
                return Glob.matches(glob, name)
            }
        case .created(let comparison, let bound):
            return { record in record.pointee.createdAt.map { bound.matches($0, comparison) } ?? false }
        case .updated(let comparison, let bound):
            return { record in record.pointee.updatedAt.map { bound.matches($0, comparison) } ?? false }
        case .value(let key, let comparison, let value):
            return { record in fieldValue(record, key).map { matches($0, comparison, value) } ?? false }
        case .dated(let key, let comparison, let bound, let written):
            return { record in
                guard let field = fieldValue(record, key) else { return false }
                return matches(field, comparison, bound) ?? matches(field, comparison, written)
            }
        case .linksTo, .linkedFrom, .orphan, .brokenLinks:
            // Answered by the catalog's link graph (`QueryEvaluator`), never by one record.
            return { _ in false }
        case .tag, .project, .folder, .draft, .pinned, .color, .mood:
            return { _ in false }  // answered by the attribute terms above
        }
    }

    private static func fieldValue(_ record: UnsafePointer<NoteRecord>, _ key: String) -> FrontMatterValue? {
        switch key {
        case "priority": return record.pointee.priority
        case "id": return record.pointee.id.map { .string($0) }
        case "aliases": return .list(record.pointee.aliases.map { .string($0) })
        default:
            if let hit = record.pointee.extraFrontMatter.first(where: { $0.key == key }) { return hit.value }
            return record.pointee.extraFrontMatter.first(where: { $0.key.lowercased() == key })?.value
        }
    }

    /// Whether a front-matter value that reads as a date matches `op bound` (a list when an item
    /// does); nil when it reads as no date.
    static func matches(_ field: FrontMatterValue, _ comparison: Comparison, _ bound: DateBound) -> Bool? {
        switch field {
        case .list(let items):
            let answers = items.compactMap { matches($0, comparison, bound) }
            return answers.isEmpty ? nil : answers.contains(true)
        case .date, .string:
            return NoteFields.date(from: field).map { bound.matches($0, comparison) }
        default:
            return nil
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
