import Foundation

/// Which kind of front matter a note file carries.
public enum FrontMatterFormat: String, Sendable, Equatable {
    /// YAML between `---` fences (editable).
    case yaml
    /// TOML between `+++` fences (read-only: listed, never edited).
    case toml
    /// No front matter at all (or a missing closing fence).
    case none
}

/// A problem found while reading a note; the note is still listed with what could be read.
public struct NoteProblem: Equatable, Sendable {
    /// What kind of problem it is.
    public enum Kind: String, Sendable, Equatable {
        case invalidYAML, notUTF8, binary, tooLarge, aliasLimit, notAMapping, unreadable, badValue, conflictMarkers
    }
    /// The kind of problem.
    public var kind: Kind
    /// 1-based line in the file, when known.
    public var line: Int?
    /// 1-based column in characters on `line`, when known (libyaml's mark of a syntax error;
    /// the catalog keeps lines only).
    public var column: Int?
    /// A readable, lowercase description.
    public var message: String

    /// Creates a problem record.
    public init(kind: Kind, line: Int?, column: Int? = nil, message: String) {
        self.kind = kind
        self.line = line
        self.column = column
        self.message = message
    }
}

/// The metadata and body of one note, as read from disk. A value: carries no file handles.
public struct Note: Sendable, Equatable {
    /// Path relative to the vault root, `/`-separated (e.g. `Drafts/woody.md`).
    public var path: String
    /// The directory of `path` relative to the root; the root folder is `""`.
    public var folder: String
    /// Canonical `id` (lowercase UUID when written by quire), if present.
    public var id: String?
    /// Canonical title: `title` key, else the file name without `.md`.
    public var title: String
    /// Whether `title` came from the front matter (false: derived from the file name).
    public var hasTitle: Bool
    /// Tags without `#`, in written order, de-duplicated case-insensitively.
    public var tags: [String]
    /// `project`, if present.
    public var project: String?
    /// `draft` (missing = false).
    public var draft: Bool
    /// `pinned` (missing = false).
    public var pinned: Bool
    /// `color`, if present.
    public var color: String?
    /// `mood` (1–5), if present and an integer.
    public var mood: Int?
    /// `priority`, if present (kept typed: may be a number or a word).
    public var priority: FrontMatterValue?
    /// `aliases`, if present.
    public var aliases: [String]
    /// Creation time (canonical key or a compatible one, see DESIGN.md §2).
    public var createdAt: Date?
    /// Last update time (canonical key or a compatible one).
    public var updatedAt: Date?
    /// Where `createdAt` came from (nil when there is none).
    public var createdAtSource: DateSource? = nil
    /// Where `updatedAt` came from (nil when there is none).
    public var updatedAtSource: DateSource? = nil
    /// Words in the body: runs of letters or digits; each CJK character counts as one. Fenced
    /// code, link targets, autolinks and data URLs are not counted (`WordCounter.countReadable`).
    public var words: Int
    /// The body (everything after the front matter), decoded as UTF-8 (lossy if invalid).
    public var body: String
    /// All front-matter keys in document order (empty when there is none or it is unreadable).
    public var frontMatter: [FrontMatterEntry]
    /// The kind of front matter.
    public var format: FrontMatterFormat
    /// Problems found while reading; empty for a healthy note.
    public var problems: [NoteProblem]
    /// The links written in the note (body and front matter), in file order (`LinkExtractor`);
    /// empty when the body was not read.
    public var links: [NoteLink] = []
    /// The body's headings and block ids, which links can point at.
    public var anchors = NoteAnchors()

    /// Creates a note value; every field but `path` has a neutral default.
    public init(path: String, folder: String = "", id: String? = nil, title: String = "",
                hasTitle: Bool = false, tags: [String] = [], project: String? = nil,
                draft: Bool = false, pinned: Bool = false, color: String? = nil, mood: Int? = nil,
                priority: FrontMatterValue? = nil, aliases: [String] = [], createdAt: Date? = nil,
                updatedAt: Date? = nil, words: Int = 0, body: String = "",
                frontMatter: [FrontMatterEntry] = [], format: FrontMatterFormat = .none,
                problems: [NoteProblem] = []) {
        self.path = path
        self.folder = folder
        self.id = id
        self.title = title
        self.hasTitle = hasTitle
        self.tags = tags
        self.project = project
        self.draft = draft
        self.pinned = pinned
        self.color = color
        self.mood = mood
        self.priority = priority
        self.aliases = aliases
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.words = words
        self.body = body
        self.frontMatter = frontMatter
        self.format = format
        self.problems = problems
    }

    /// The value of a front-matter key (exact key match first, then case-insensitive).
    public func value(forKey key: String) -> FrontMatterValue? {
        if let hit = frontMatter.first(where: { $0.key == key }) { return hit.value }
        let lowered = key.lowercased()
        return frontMatter.first(where: { $0.key.lowercased() == lowered })?.value
    }
}
