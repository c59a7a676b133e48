import Foundation
import QuireCore

/// One entry of an import file turned into a note file (Docs/format.md, "Importing JSON"):
/// either quire's own export (`path` + `content`: the file written back byte for byte) or a
/// journal entry whose known keys become canonical front matter and whose other keys are kept.
struct JSONEntry {
    /// Keys that are not front matter: where the note goes and its text.
    static let placementKeys: Set<String> = ["path", "body", "content", "contentBase64"]

    /// The note's vault-relative path when the entry names one.
    var path: String?
    /// The note's id (given, read from `content`, or derived from the entry).
    var id: String?
    /// Whether the entry is a whole file (`content` / `contentBase64`), written as it is.
    var isExact = false
    /// The title (to name a new file).
    var title: String
    /// The file's bytes.
    var data: Data

    /// Reads entry `index`; throws `ImportEntryError` with the reason it cannot be imported.
    init(_ json: JSON, now: Date, timeZone: TimeZone) throws {
        guard let pairs = json.members else { throw ImportEntryError("the entry is not an object") }
        path = try Self.string(json["path"], "path")
        if let exact = try Self.exactContent(json) {
            guard path != nil else { throw ImportEntryError("'content' needs a 'path'") }
            let note = NoteParser.parse(exact, path: path ?? "", timeZone: timeZone)
            id = note.id
            title = note.title
            data = exact
            isExact = true
            return
        }
        var body = try Self.string(json["body"], "body") ?? ""
        if !body.isEmpty, !body.hasSuffix("\n") { body += "\n" }
        let createdAt = try Self.date(json["createdAt"], "createdAt", timeZone: timeZone) ?? now
        let updatedAt = try Self.date(json["updatedAt"], "updatedAt", timeZone: timeZone)
        let givenTitle = try Self.string(json["title"], "title")?.trimmingCharacters(in: .whitespacesAndNewlines)
        title = givenTitle.flatMap { $0.isEmpty ? nil : $0 } ?? Self.title(fromBody: body)
            ?? QuireClock.iso8601(createdAt, timeZone: timeZone)
        let givenID = try Self.string(json["id"], "id")?.trimmingCharacters(in: .whitespaces)
        if givenID?.isEmpty == true { throw ImportEntryError("'id' is empty") }
        let id = givenID ?? Self.derivedID(json)
        self.id = id
        var mood: Int?
        if let value = json["mood"], value != .null {
            guard let number = NoteFields.mood(FrontMatterValue(json: value)) else {
                throw ImportEntryError("'mood' must be \(NoteFields.moodRule), not \(value.rendered(.compact))")
            }
            mood = number
        }
        var extra: [FrontMatterEntry] = []
        let canonical: Set<String> = ["id", "title", "createdAt", "updatedAt", "tags", "project", "draft", "pinned",
                                      "color", "mood"]
        for pair in pairs where !canonical.contains(pair.key) && !Self.placementKeys.contains(pair.key) {
            guard !pair.key.isEmpty, !pair.key.contains(where: \.isNewline),
                  !pair.key.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
                throw ImportEntryError("the key \(JSON.string(pair.key).rendered(.compact)) cannot be a front-matter key")
            }
            extra.append(FrontMatterEntry(key: pair.key, value: FrontMatterValue(json: pair.value)))
        }
        let template = NoteTemplate(
            id: id, title: title, createdAt: createdAt, updatedAt: updatedAt,
            tags: try Self.tags(json["tags"]), project: try Self.string(json["project"], "project"),
            draft: try Self.bool(json["draft"], "draft"), pinned: try Self.bool(json["pinned"], "pinned") ?? false,
            color: try Self.string(json["color"], "color"), mood: mood, extra: extra, body: body)
        data = Data(template.render(timeZone: timeZone).utf8)
        // The note must read back as written (a key libyaml refuses, an odd value).
        let document = NoteDocument(data: data, timeZone: timeZone)
        if let problem = document.problems.first {
            throw ImportEntryError("the front matter would not read back (\(problem.message))")
        }
    }

    /// `content` (text) or `contentBase64` (bytes that are not UTF-8), when present.
    private static func exactContent(_ json: JSON) throws -> Data? {
        if let text = try string(json["content"], "content") { return Data(text.utf8) }
        guard let encoded = try string(json["contentBase64"], "contentBase64") else { return nil }
        guard let data = Data(base64Encoded: encoded) else { throw ImportEntryError("'contentBase64' is not base64") }
        return data
    }

    /// A name-based id (UUID version 5 layout over SHA-1 of the entry's compact JSON), so the
    /// same entry imported again is recognised as a duplicate.
    static func derivedID(_ json: JSON) -> String {
        FrontMatterMapping.derivedID("quire-import:" + json.rendered(.compact))
    }

    /// The first line of the body that has words, without a heading's `#`s, at most 80 characters.
    static func title(fromBody body: String) -> String? {
        for line in body.split(whereSeparator: \.isNewline) {
            var text = line.trimmingCharacters(in: .whitespaces)
            while text.hasPrefix("#") { text.removeFirst() }
            text = text.trimmingCharacters(in: .whitespaces)
            if !text.isEmpty { return String(text.prefix(80)) }
        }
        return nil
    }

    private static func string(_ value: JSON?, _ key: String) throws -> String? {
        switch value {
        case nil, .null?: return nil
        case let .string(text)?: return text
        case let .int(number)?: return String(number)
        case let .double(number)?: return String(number)
        default: throw ImportEntryError("'\(key)' must be a string, not \(value?.rendered(.compact) ?? "")")
        }
    }

    private static func bool(_ value: JSON?, _ key: String) throws -> Bool? {
        switch value {
        case nil, .null?: return nil
        case let .bool(flag)?: return flag
        case .string("true")?: return true
        case .string("false")?: return false
        default: throw ImportEntryError("'\(key)' must be true or false, not \(value?.rendered(.compact) ?? "")")
        }
    }

    private static func date(_ value: JSON?, _ key: String, timeZone: TimeZone) throws -> Date? {
        guard let value, value != .null else { return nil }
        let read: Date?
        switch value {
        case let .string(text): read = NoteFields.date(from: .string(text), timeZone: timeZone)
        case let .int(number): read = NoteFields.date(from: .int(number), timeZone: timeZone)
        case let .double(number): read = NoteFields.date(from: .float(number), timeZone: timeZone)
        default: read = nil
        }
        guard let read else {
            throw ImportEntryError("'\(key)' is not a date (ISO 8601 text or epoch seconds or milliseconds): \(value.rendered(.compact))")
        }
        return read
    }

    private static func tags(_ value: JSON?) throws -> [String] {
        guard let value, value != .null else { return [] }
        var seen = Set<String>()
        switch value {
        case .string, .array:
            return NoteFields.tags(from: FrontMatterValue(json: value)).filter { seen.insert($0.lowercased()).inserted }
        default:
            throw ImportEntryError("'tags' must be a list or a comma-separated string, not \(value.rendered(.compact))")
        }
    }
}

/// Why one import entry was refused (the import goes on with the next).
struct ImportEntryError: Error, CustomStringConvertible {
    /// One lowercase sentence.
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
