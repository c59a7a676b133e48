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
    /// Front-matter keys with the scalar texts of their values (list items one by one), packed.
    private var packedFields: PackedFields

    /// Front-matter keys with the scalar texts of their values (list items one by one).
    var fields: [(key: String, values: [String])] { packedFields.fields }

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
        packedFields = PackedFields(frontMatter.map { entry in
            let values: [String]
            switch entry.value {
            case let .list(items): values = items.compactMap(\.scalarText)
            case .map, .null: values = []
            default: values = entry.value.scalarText.map { [$0] } ?? []
            }
            return (entry.key, values)
        })
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
        ExactPath.same(lhs.path, rhs.path) && lhs.id == rhs.id && lhs.title == rhs.title && lhs.hasTitle == rhs.hasTitle
            && lhs.aliases == rhs.aliases
            && lhs.tags == rhs.tags && lhs.packedFields == rhs.packedFields
    }
}

/// A note with the names it is found by: its title, its aliases, its path without `.md`.
struct SearchableNote: Sendable {
    var entry: NoteEntry

    init(_ entry: NoteEntry) {
        self.entry = entry
    }

    /// Made when asked (what ranking indexes once), not kept for every note.
    var names: [String] { [entry.title] + entry.aliases + [String(entry.path.dropLast(3))] }
}

/// Every note of the vault as the server answers from it: the catalog's records, with open
/// buffers taking precedence over the files on disk. The merged view is kept sorted by path and
/// prepared for fuzzy matching, note by note as notes change (a keystroke that changes a
/// buffer's title touches one entry); the tag and id tables are derived on demand and cached
/// until the next change.
struct NoteDirectory: Sendable {
    /// The notes as on disk (the catalog), by path (by its bytes: `ExactPath`).
    private var onDisk: [ExactPath: NoteEntry] = [:]
    /// The open buffers' view of their notes, by path (overrides `onDisk`).
    private var open: [ExactPath: NoteEntry] = [:]
    /// The merged view, sorted by path (by its bytes).
    private var sorted: [SearchableNote] = []
    /// How many notes have each file name (lowercased), for link spelling.
    private var stemCounts: [String: Int] = [:]
    private var cachedTags: [(name: String, count: Int)]?
    private var cachedDuplicates: [String: [String]]?
    private var cachedNames: FuzzyNameIndex?

    /// How the vault writes its links (from the catalog's records when the directory was built).
    private(set) var linkForm = LinkForm.wikiName

    /// Builds the directory from the catalog's records.
    init(catalog: Catalog) {
        resetOnDisk(catalog: catalog)
    }

    /// The note at `path` (the open buffer's view first), if any.
    func entry(_ path: String) -> NoteEntry? { open[ExactPath(path)] ?? onDisk[ExactPath(path)] }

    /// Every note, sorted by path.
    func all() -> [NoteEntry] { sorted.map(\.entry) }

    /// Every note with its names, sorted by path.
    func searchable() -> [SearchableNote] { sorted }

    /// How many notes have the file name of `path` (compared case-insensitively): a link may
    /// name a note by its file name alone when it is the only one.
    func nameCount(_ path: String) -> Int {
        stemCounts[NoteParser.stem(of: path).lowercased(), default: 0]
    }

    /// The number of notes (open buffers of new files included).
    var count: Int { sorted.count }

    /// Sets the on-disk view of `path` (nil: the note is gone).
    mutating func setOnDisk(_ path: String, _ entry: NoteEntry?) {
        let key = ExactPath(path)
        guard onDisk[key] != entry else { return }
        onDisk[key] = entry
        if open[key] == nil { place(path, entry) }
    }

    /// Replaces the whole on-disk view.
    mutating func resetOnDisk(catalog: Catalog) {
        onDisk = [:]
        var links = LinkForm.Tally()
        // Each record is decoded for this pass only: the catalog keeps none of them.
        catalog.forEachRecord { record in
            onDisk[ExactPath(record.path)] = NoteEntry(record: record)
            links.add(record.links)
        }
        linkForm = links.usual(titleKeys: Set(onDisk.values.map { LinkResolver.key($0.title) }),
                               stemKeys: Set(onDisk.values.map { LinkResolver.key($0.stem) }))
        var merged = onDisk
        for (path, entry) in open { merged[path] = entry }
        sorted = merged.values.sorted { ExactPath.precedes($0.path, $1.path) }.map(SearchableNote.init)
        stemCounts = [:]
        for note in sorted { stemCounts[note.entry.stem.lowercased(), default: 0] += 1 }
        invalidate()
    }

    /// Sets the open buffer's view of `path` (nil: closed, the disk's view counts again).
    mutating func setOpen(_ path: String, _ entry: NoteEntry?) {
        let key = ExactPath(path)
        guard open[key] != entry else { return }
        open[key] = entry
        place(path, entry ?? onDisk[key])
    }

    /// Puts `entry` in the merged view at `path` (nil: removes it).
    private mutating func place(_ path: String, _ entry: NoteEntry?) {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if ExactPath.precedes(sorted[middle].entry.path, path) { low = middle + 1 } else { high = middle }
        }
        let present = low < sorted.count && ExactPath.same(sorted[low].entry.path, path)
        if present { stemCounts[sorted[low].entry.stem.lowercased(), default: 1] -= 1 }
        if let entry {
            if present { sorted[low] = SearchableNote(entry) } else { sorted.insert(SearchableNote(entry), at: low) }
            stemCounts[entry.stem.lowercased(), default: 0] += 1
        } else if present {
            sorted.remove(at: low)
        }
        invalidate()
    }

    private mutating func invalidate() {
        cachedTags = nil
        cachedDuplicates = nil
        cachedNames = nil
    }

    /// The notes whose title, an alias or the path matches `matcher`, best first, at most
    /// `limit`, with how many matched; nil when `stop` said so.
    mutating func rank(_ matcher: FuzzyMatch, limit: Int, stop: () -> Bool)
        -> (hits: [(note: SearchableNote, name: String)], total: Int)? {
        let index = cachedNames ?? FuzzyNameIndex(notes: sorted)
        cachedNames = index
        guard let ranked = index.rank(matcher, limit: limit, stop: stop) else { return nil }
        return (ranked.hits.map { (sorted[$0.note], sorted[$0.note].names[$0.name]) }, ranked.total)
    }

    /// Every tag used, with how many notes use it (`NameCount.counting`), most used first (ties by name).
    mutating func tags() -> [(name: String, count: Int)] {
        if let cachedTags { return cachedTags }
        let result = NameCount.mostUsedFirst(NameCount.counting(sorted.map { $0.entry.tags })).map { ($0.name, $0.count) }
        cachedTags = result
        return result
    }

    /// Every front-matter key used, with how many notes use it, most used first.
    func keys() -> [(name: String, count: Int)] {
        var counts: [String: Int] = [:]
        for note in sorted { for key in Set(note.entry.fields.map(\.key)) { counts[key, default: 0] += 1 } }
        return counts.map { ($0.key, $0.value) }.sorted { ($0.count, $1.name) > ($1.count, $0.name) }
    }

    /// The values used for `key` (compared case-insensitively on the key), most used first, by
    /// notes other than `except` (the note being typed: its half-typed value is no value used).
    func values(forKey key: String, except: String? = nil) -> [(name: String, count: Int)] {
        let lowered = key.lowercased()
        var counts: [String: Int] = [:]
        for note in sorted where !(except.map { ExactPath.same($0, note.entry.path) } ?? false) {
            for field in note.entry.fields where field.key.lowercased() == lowered {
                for value in Set(field.values) where !value.isEmpty { counts[value, default: 0] += 1 }
            }
        }
        return counts.map { ($0.key, $0.value) }.sorted { ($0.count, $1.name) > ($1.count, $0.name) }
    }

    /// The paths of notes sharing each id used more than once, by lowercased id.
    mutating func duplicateIDs() -> [String: [String]] {
        if let cachedDuplicates { return cachedDuplicates }
        var byID: [String: [String]] = [:]
        for note in sorted {
            guard let id = note.entry.id?.lowercased(), !id.isEmpty else { continue }
            byID[id, default: []].append(note.entry.path)
        }
        let result = byID.filter { $0.value.count > 1 }
        cachedDuplicates = result
        return result
    }
}
