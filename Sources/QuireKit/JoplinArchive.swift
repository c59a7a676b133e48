import Foundation
import QuireCore

/// A Joplin JEX export (a tar of Joplin's raw items and their resource files) turned into the
/// folder a Markdown export would be, in quire's form: a folder per notebook (nested by
/// `parent_id`), a note per note titled by its file name, the resources in `_resources/`, and
/// links to them or to other notes (`:/<32 hex digits>`) rewritten as relative paths. Each
/// note's front matter holds its Joplin id as a UUID, `title`, `createdAt`/`updatedAt`, its
/// tags, `author`, `source` and a location when it has them, and for a to-do `todo: true`,
/// `completed` and `due`. `FolderImport` then imports that folder like any other.
struct JoplinArchive {
    /// One file of the folder: its path and bytes, and the time to give it.
    struct File: Equatable {
        var path: String
        var data: Data
        var modified: Date?
    }

    /// The folder's files, sorted by path.
    let files: [File]

    /// Reads the archive `data` (`TarArchive.Problem` when it is no tar archive); `timeZone` is
    /// the one dates are written in.
    init(_ data: Data, timeZone: TimeZone) throws {
        let archive = try TarArchive(data)
        var items: [JoplinItem] = []
        var resourceFiles: [String: Data] = [:]
        for entry in archive.entries {
            if entry.path.hasPrefix("resources/") {
                let name = String(entry.path.dropFirst("resources/".count))
                resourceFiles[String(name.prefix { $0 != "." })] = entry.data
            } else if entry.path.hasSuffix(".md"), let item = JoplinItem(String(decoding: entry.data, as: UTF8.self)) {
                items.append(item)
            }
        }
        let byKind = Dictionary(grouping: items) { $0.kind }
        let folders = Dictionary((byKind[.folder] ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let tags = Dictionary((byKind[.tag] ?? []).map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
        var noteTags: [String: [String]] = [:]
        for link in byKind[.noteTag] ?? [] {
            if let note = link.properties["note_id"], let tag = link.properties["tag_id"].flatMap({ tags[$0] }) {
                noteTags[note, default: []].append(tag)
            }
        }
        var names = Names()
        var targets: [String: String] = [:]  // Joplin id → path in the folder
        var files: [File] = []
        for resource in (byKind[.resource] ?? []).sorted(by: { $0.id < $1.id }) {
            guard let data = resourceFiles[resource.id] else { continue }
            let ext = resource.properties["file_extension"].flatMap { $0.isEmpty ? nil : $0 }
            var name = resource.title.isEmpty ? resource.id : SafeFileName.stem(forTitle: resource.title, extension: "")
            if let ext, !name.lowercased().hasSuffix("." + ext.lowercased()) { name += "." + ext }
            let path = names.free("_resources", name)
            targets[resource.id] = path
            files.append(File(path: path, data: data, modified: resource.time("updated_time")))
        }
        let notes = (byKind[.note] ?? []).sorted { ($0.title, $0.id) < ($1.title, $1.id) }
        for note in notes {
            let folder = Self.folderPath(note.properties["parent_id"] ?? "", folders: folders, names: &names)
            targets[note.id] = names.free(folder, SafeFileName.fileName(forTitle: note.title))
        }
        for note in notes {
            guard let path = targets[note.id] else { continue }
            let body = Self.rewritingLinks(note.body, from: path, targets: targets)
            let data = try Self.noteData(note, body: body, tags: (noteTags[note.id] ?? []).sorted(), timeZone: timeZone)
            files.append(File(path: path, data: data, modified: note.time("user_updated_time") ?? note.time("updated_time")))
        }
        self.files = files.sorted { $0.path < $1.path }
    }

    /// The folder path of notebook `id` (its parents' first), made once per notebook.
    private static func folderPath(_ id: String, folders: [String: JoplinItem], names: inout Names) -> String {
        if let known = names.folders[id] { return known }
        guard let folder = folders[id] else { return "" }
        var parent = ""
        if let parentID = folder.properties["parent_id"], !parentID.isEmpty, parentID != id, names.entering.insert(id).inserted {
            parent = folderPath(parentID, folders: folders, names: &names)
        }
        let path = names.free(parent, SafeFileName.stem(forTitle: folder.title, extension: ""))
        names.folders[id] = path
        return path
    }

    /// A note's file: quire's front matter, then the body.
    private static func noteData(_ note: JoplinItem, body: String, tags: [String], timeZone: TimeZone) throws -> Data {
        var document = NoteDocument(data: Data(("---\n---\n" + body + (body.hasSuffix("\n") || body.isEmpty ? "" : "\n")).utf8),
                                    timeZone: timeZone)
        var pairs: [(String, FrontMatterValue)] = []
        if let id = JoplinIDs.uuid(note.id) { pairs.append(("id", .string(id))) }
        if !note.title.isEmpty { pairs.append(("title", .string(note.title))) }
        if let created = note.time("user_created_time") ?? note.time("created_time") {
            pairs.append(("createdAt", .timestamp(created, timeZone: timeZone)))
        }
        if let updated = note.time("user_updated_time") ?? note.time("updated_time") {
            pairs.append(("updatedAt", .timestamp(updated, timeZone: timeZone)))
        }
        if !tags.isEmpty { pairs.append(("tags", .list(tags.map { .string($0) }))) }
        if note.properties["is_todo"] == "1" {
            pairs.append(("todo", .bool(true)))
            pairs.append(("completed", .bool(note.time("todo_completed") != nil)))
            if let due = note.time("todo_due") { pairs.append(("due", .timestamp(due, timeZone: timeZone))) }
        }
        for (key, name) in [("author", "author"), ("source_url", "source")] {
            if let value = note.properties[key], !value.isEmpty { pairs.append((name, .string(value))) }
        }
        for key in ["latitude", "longitude", "altitude"] {
            if let number = note.nonZero(key) { pairs.append((key, .float(number))) }
        }
        for (key, value) in pairs { try document.set(key, value) }
        return document.serialized()
    }

    /// `body` with every `:/<id>` of a known resource or note replaced by the relative path to
    /// it from the note at `path` (percent-encoded where a Markdown link needs it).
    static func rewritingLinks(_ body: String, from path: String, targets: [String: String]) -> String {
        guard body.contains(":/") else { return body }
        let bytes = Array(body.utf8)
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: ":"), index + 33 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                let id = String(decoding: bytes[(index + 2)..<(index + 34)], as: UTF8.self)
                let after = index + 34 < bytes.count ? bytes[index + 34] : 0
                let isHex = id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
                let endsID = !((48...57).contains(after) || (97...122).contains(after) || (65...90).contains(after))
                if isHex, endsID, let target = targets[id] {
                    result += Array(LinkPathText.destination(relative(target, from: path), angle: false, like: "").utf8)
                    index += 34
                    continue
                }
            }
            result.append(bytes[index])
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The path to `target` from the folder of the file at `source` (`../_resources/a.png`).
    static func relative(_ target: String, from source: String) -> String {
        let from = LinkPathText.folder(of: source).split(separator: "/")
        let to = target.split(separator: "/")
        var shared = 0
        while shared < from.count, shared < to.count - 1, from[shared] == to[shared] { shared += 1 }
        return (Array(repeating: "..", count: from.count - shared) + to[shared...].map(String.init)).joined(separator: "/")
    }

    /// The names taken in each folder (compared case-insensitively, as macOS would), and the
    /// notebooks' folders.
    private struct Names {
        var taken: [String: Set<String>] = [:]
        var folders: [String: String] = [:]
        var entering: Set<String> = []

        /// `name` in `folder`, or `name-2`… when taken (`FreeFileName`); the path, now taken.
        mutating func free(_ folder: String, _ name: String) -> String {
            let candidate = FreeFileName.first(name, taken: taken[folder, default: []])
            taken[folder, default: []].insert(candidate.lowercased())
            return folder.isEmpty ? candidate : folder + "/" + candidate
        }
    }
}

/// Joplin's ids (32 hex digits) as the UUIDs quire's `id` holds.
enum JoplinIDs {
    /// `8a1556e3…` as `8a1556e3-8270-4160-808e-9a7bef7135d3`; nil when it is no Joplin id.
    static func uuid(_ id: String) -> String? {
        let hex = id.lowercased()
        guard hex.count == 32, hex.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }
}
