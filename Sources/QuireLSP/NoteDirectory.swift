import Foundation
import QuireCore
import QuireKit
import QuireSearch

/// What the server knows of one note for completion, symbols and diagnostics: the catalog's
/// fields, or those of the open buffer when the note is open.
struct NoteEntry: Equatable, Sendable {
    var path: String
    var id: String?
    var title: String
    /// Whether the title is written in the note (not derived from a heading or the file name).
    var hasTitle: Bool
    var aliases: [String]
    var tags: [String]
    /// Front-matter keys with the scalar texts of their values (list items one by one).
    var fields: [(key: String, values: [String])]

    /// The file name without `.md`.
    var stem: String { NoteParser.stem(of: path) }

    init(path: String, id: String?, title: String, hasTitle: Bool, aliases: [String], tags: [String],
         frontMatter: [FrontMatterEntry]) {
        self.path = path
        self.id = id
        self.title = title
        self.hasTitle = hasTitle
        self.aliases = aliases
        self.tags = tags
        fields = frontMatter.map { entry in
            let values: [String]
            switch entry.value {
            case let .list(items): values = items.compactMap(\.scalarText)
            case .map, .null: values = []
            default: values = entry.value.scalarText.map { [$0] } ?? []
            }
            return (entry.key, values)
        }
    }

    init(record: NoteRecord) {
        self.init(path: record.path, id: record.id, title: record.title, hasTitle: record.hasTitle,
                  aliases: record.aliases, tags: record.tags,
                  frontMatter: record.frontMatter)
    }

    init(note: Note) {
        self.init(path: note.path, id: note.id, title: note.title, hasTitle: note.hasTitle,
                  aliases: note.aliases, tags: note.tags,
                  frontMatter: note.frontMatter)
    }

    static func == (lhs: NoteEntry, rhs: NoteEntry) -> Bool {
        lhs.path == rhs.path && lhs.id == rhs.id && lhs.title == rhs.title && lhs.hasTitle == rhs.hasTitle
            && lhs.aliases == rhs.aliases
            && lhs.tags == rhs.tags && lhs.fields.map(\.key) == rhs.fields.map(\.key)
            && lhs.fields.map(\.values) == rhs.fields.map(\.values)
    }
}

/// A note with its names prepared for fuzzy matching.
struct SearchableNote: Sendable {
    var entry: NoteEntry
    /// Whether no other note has its file name (a link may name it by that alone).
    var uniqueName: Bool
    var names: [(text: String, prepared: [Unicode.Scalar])]

    /// The best-scoring name for `matcher` and its score, nil when none matches.
    func best(_ matcher: FuzzyMatch) -> (name: String, score: Int)? {
        var best: (String, Int)?
        for (index, name) in names.enumerated() {
            guard var score = matcher.score(name.prepared) else { continue }
            if index == 0 { score += 4 }  // The title first among equals.
            if best == nil || score > best?.1 ?? 0 { best = (name.text, score) }
        }
        return best
    }
}

/// Every note of the vault as the server answers from it: the catalog's records, with open
/// buffers taking precedence over the files on disk. Kept up to date note by note; the tag,
/// key and id tables are derived on demand and cached until the next change.
struct NoteDirectory: Sendable {
    /// The notes as on disk (the catalog), by path.
    private var onDisk: [String: NoteEntry] = [:]
    /// The open buffers' view of their notes, by path (overrides `onDisk`).
    private var open: [String: NoteEntry] = [:]
    private var cachedSorted: [NoteEntry]?
    private var cachedSearchable: [SearchableNote]?

    /// How the vault writes its links (from the catalog's records when the directory was built).
    private(set) var linkForm = LinkForm.wikiName

    /// Builds the directory from the catalog's records.
    init(catalog: Catalog) {
        resetOnDisk(catalog: catalog)
    }

    /// The note at `path` (the open buffer's view first), if any.
    func entry(_ path: String) -> NoteEntry? { open[path] ?? onDisk[path] }

    /// Every note, sorted by path.
    mutating func all() -> [NoteEntry] {
        if let cachedSorted { return cachedSorted }
        var merged = onDisk
        for (path, entry) in open { merged[path] = entry }
        let sorted = merged.values.sorted { $0.path < $1.path }
        cachedSorted = sorted
        cachedSearchable = nil
        return sorted
    }

    /// Every note with its names (title, aliases, path without `.md`) prepared for fuzzy
    /// matching, sorted by path; cached until the next change.
    mutating func searchable() -> [SearchableNote] {
        if let cachedSearchable, cachedSorted != nil { return cachedSearchable }
        let entries = all()
        var stems: [String: Int] = [:]
        for entry in entries { stems[entry.stem.lowercased(), default: 0] += 1 }
        let notes = entries.map { entry in
            SearchableNote(entry: entry, uniqueName: stems[entry.stem.lowercased(), default: 0] == 1, names: ([entry.title] + entry.aliases + [String(entry.path.dropLast(3))])
                .map { ($0, FuzzyMatch.prepare($0)) })
        }
        cachedSearchable = notes
        return notes
    }

    /// The number of notes (open buffers of new files included).
    var count: Int { onDisk.count + open.keys.filter { onDisk[$0] == nil }.count }

    /// Sets the on-disk view of `path` (nil: the note is gone).
    mutating func setOnDisk(_ path: String, _ entry: NoteEntry?) {
        guard onDisk[path] != entry else { return }
        onDisk[path] = entry
        if open[path] == nil { cachedSorted = nil }
    }

    /// Replaces the whole on-disk view.
    mutating func resetOnDisk(catalog: Catalog) {
        onDisk = [:]
        var links: [NoteLink] = []
        for record in catalog.records {
            onDisk[record.path] = NoteEntry(record: record)
            links += record.links
        }
        linkForm = LinkForm.usual(links: links, titleKeys: Set(onDisk.values.map { LinkResolver.key($0.title) }),
                                  stemKeys: Set(onDisk.values.map { LinkResolver.key($0.stem) }))
        cachedSorted = nil
    }

    /// Sets the open buffer's view of `path` (nil: closed, the disk's view counts again).
    mutating func setOpen(_ path: String, _ entry: NoteEntry?) {
        guard open[path] != entry else { return }
        open[path] = entry
        cachedSorted = nil
    }

    /// Every tag used, with how many notes use it, most used first (ties by name).
    mutating func tags() -> [(name: String, count: Int)] {
        var counts: [String: (name: String, count: Int)] = [:]
        for entry in all() {
            for tag in Set(entry.tags.map { $0.lowercased() }) {
                let spelled = entry.tags.first { $0.lowercased() == tag } ?? tag
                counts[tag, default: (spelled, 0)].count += 1
            }
        }
        return counts.values.sorted { ($0.count, $1.name) > ($1.count, $0.name) }
    }

    /// Every front-matter key used, with how many notes use it, most used first.
    mutating func keys() -> [(name: String, count: Int)] {
        var counts: [String: Int] = [:]
        for entry in all() { for key in Set(entry.fields.map(\.key)) { counts[key, default: 0] += 1 } }
        return counts.map { ($0.key, $0.value) }.sorted { ($0.count, $1.name) > ($1.count, $0.name) }
    }

    /// The values used for `key` (compared case-insensitively on the key), most used first.
    mutating func values(forKey key: String) -> [(name: String, count: Int)] {
        let lowered = key.lowercased()
        var counts: [String: Int] = [:]
        for entry in all() {
            for field in entry.fields where field.key.lowercased() == lowered {
                for value in Set(field.values) where !value.isEmpty { counts[value, default: 0] += 1 }
            }
        }
        return counts.map { ($0.key, $0.value) }.sorted { ($0.count, $1.name) > ($1.count, $0.name) }
    }

    /// The paths of notes sharing each id used more than once, by lowercased id.
    mutating func duplicateIDs() -> [String: [String]] {
        var byID: [String: [String]] = [:]
        for entry in all() {
            guard let id = entry.id?.lowercased(), !id.isEmpty else { continue }
            byID[id, default: []].append(entry.path)
        }
        return byID.filter { $0.value.count > 1 }
    }
}
