import Foundation
import QuireCore

extension LanguageServer {
    /// Keys offered even before any note uses them: the canonical ones (DESIGN.md §2).
    static let canonicalKeys = ["id", "title", "createdAt", "updatedAt", "tags", "project", "draft", "pinned",
                                "color", "mood", "priority", "aliases"]

    /// Keys whose values are tags.
    static let tagKeys: Set<String> = ["tags", "tag", "keywords", "categories"]

    /// Completion inside the front matter: a key at the start of a line (keys this note does not
    /// have yet), else the values already used in the vault for the line's key (or, in a list
    /// below a key, for that key).
    func frontMatterCompletion(before: String, line: Int, lines: FrontMatterLines, document: TextDocument,
                               cursor: Int, source: String) -> [JSON] {
        guard let session else { return [] }
        let indented = before.first == " " || before.first == "\t" || before.hasPrefix("-")
        if !indented && !before.contains(":") {
            let typed = before
            let have = Set(lines.keyLines.keys.map { $0.lowercased() })
            var keys = session.directory.keys()
            for key in Self.canonicalKeys where !keys.contains(where: { $0.name == key }) { keys.append((key, 0)) }
            let matcher = FuzzyMatch(typed)
            return keys.filter { !have.contains($0.name.lowercased()) && matcher.score(FuzzyMatch.prepare($0.name)) != nil }
                .prefix(Self.completionLimit).map { key in
                    .object([("label", .string(key.name)), ("kind", .int(10)),
                             ("detail", .string(key.count == 0 ? "quire key" : "used in \(key.count) note\(key.count == 1 ? "" : "s")")),
                             ("textEdit", .object([("range", document.range(of: (cursor - typed.utf8.count)..<cursor).json),
                                                   ("newText", .string(key.name + ": "))]))])
                }
        }
        let key: String
        var typed: Substring
        if !indented, let own = FrontMatterLines.topLevelKey(before), let colon = before.firstIndex(of: ":") {
            key = own
            typed = before[before.index(after: colon)...]
        } else {
            // A list item below a key: the nearest key line above.
            guard let owner = lines.keyLines.filter({ $0.value < line }).max(by: { $0.value < $1.value })?.key else { return [] }
            key = owner
            typed = before.drop { $0 == " " || $0 == "\t" }
            if typed.hasPrefix("-") { typed = typed.dropFirst() }
        }
        if let cut = typed.lastIndex(where: { $0 == "[" || $0 == "," }) { typed = typed[typed.index(after: cut)...] }
        typed = typed.drop { $0 == " " }
        if typed.hasPrefix("\"") || typed.hasPrefix("'") { typed = typed.dropFirst() }
        var values = session.directory.values(forKey: key, except: source)
        if Self.tagKeys.contains(key.lowercased()) {
            let known = Set(values.map { $0.name.lowercased() })
            values += session.directory.tags().filter { !known.contains($0.name.lowercased()) }
        }
        let matcher = FuzzyMatch(String(typed))
        let range = document.range(of: (cursor - typed.utf8.count)..<cursor)
        return values.filter { matcher.score(FuzzyMatch.prepare($0.name)) != nil }.prefix(Self.completionLimit).map { value in
            .object([("label", .string(value.name)), ("kind", .int(12)),
                     ("detail", .string("\(key): used in \(value.count) note\(value.count == 1 ? "" : "s")")),
                     ("textEdit", .object([("range", range.json), ("newText", .string(value.name))]))])
        }
    }

    /// The note a link names (`name` without `.md` or with it): a vault path, a file name, a
    /// title or an alias, compared case-insensitively; the first by path when several match.
    func resolveNote(_ name: String, from source: String?) -> String? {
        guard let session else { return nil }
        let wanted = name.trimmingCharacters(in: .whitespaces).lowercased()
        guard !wanted.isEmpty else { return source }
        let withExtension = wanted.hasSuffix(".md") ? wanted : wanted + ".md"
        let notes = session.directory.searchable().lazy.map(\.entry)
        if let hit = notes.first(where: { $0.path.lowercased() == withExtension }) { return hit.path }
        if let hit = notes.first(where: { $0.path.lowercased().hasSuffix("/" + withExtension) }) { return hit.path }
        if let hit = notes.first(where: { $0.title.lowercased() == wanted }) { return hit.path }
        return notes.first { $0.aliases.contains { $0.lowercased() == wanted } }?.path
    }

    /// The text of a note: its open buffer, else the file.
    func noteText(_ path: String) -> TextDocument? {
        if let open = documents.values.first(where: { $0.path.map { ExactPath.same($0, path) } ?? false }) { return open.document }
        guard let session, let data = try? session.vault.readData(path) else { return nil }
        return TextDocument(text: String(decoding: data, as: UTF8.self), version: 0, encoding: encoding)
    }
}
