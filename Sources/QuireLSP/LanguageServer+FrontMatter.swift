import Foundation
import QuireCore

extension LanguageServer {
    /// quire's own keys, offered (in this order, first) to a note that lacks them even before
    /// any note uses them, with what they hold (DESIGN.md §2). `id`, `createdAt` and `updatedAt`
    /// are left out: quire writes them itself.
    static let canonicalKeys: [(name: String, meaning: String)] = [
        ("title", "the note's title (else its file name)"), ("tags", "a list of tags, without #"),
        ("project", "the project it belongs to"), ("draft", "true or false"), ("pinned", "true or false: listed first"),
        ("color", "a label such as red or blue"), ("mood", NoteFields.moodRule), ("aliases", "a list of other names"),
        ("priority", "any value, as written"),
    ]

    /// Keys quire writes itself, never offered.
    static let stampedKeys: Set<String> = ["id", "createdat", "updatedat"]

    /// Values offered for quire's own keys besides those in use.
    static let canonicalValues: [String: [String]] = [
        "draft": ["true", "false"], "pinned": ["true", "false"], "mood": NoteFields.moods.map(String.init),
    ]

    /// Keys whose values are tags.
    static let tagKeys: Set<String> = ["tags", "tag", "keywords", "categories"]

    /// Completion inside the front matter: a key at the start of a line (the keys this note
    /// lacks: quire's own first, then those other notes use, most used first; the best fuzzy
    /// match first once something is typed), else the values already used in the vault for the
    /// line's key (or, in a list below a key, for that key), and for quire's boolean and mood
    /// keys their possible values.
    func frontMatterCompletion(before: String, line: Int, lines: FrontMatterLines, document: TextDocument,
                               cursor: Int, source: String) -> [CompletionItem] {
        guard let session, lines.format == .yaml else { return [] }  // TOML front matter is never edited
        let indented = before.first == " " || before.first == "\t" || before.hasPrefix("-")
        if !indented && !before.contains(":") {
            let typed = before
            let have = Set(lines.keyLines.keys.map { $0.lowercased() })
            var keys = Self.canonicalKeys.map { (name: $0.name, count: 0, meaning: Optional($0.meaning)) }
            let own = Set(keys.map { $0.name.lowercased() })
            keys += session.directory.keys().filter { !own.contains($0.name.lowercased()) }.map { ($0.name, $0.count, nil) }
            let used = Dictionary(session.directory.keys().map { ($0.name.lowercased(), $0.count) }, uniquingKeysWith: max)
            let matcher = FuzzyMatch(typed)
            let ranked = keys.enumerated().compactMap { index, key -> (score: Int, index: Int, key: (name: String, count: Int, meaning: String?))? in
                let lowered = key.name.lowercased()
                guard !have.contains(lowered), !Self.stampedKeys.contains(lowered),
                      let score = matcher.score(FuzzyMatch.prepare(key.name)) else { return nil }
                return (typed.isEmpty ? 0 : score, index, (key.name, used[lowered] ?? key.count, key.meaning))
            }.sorted { ($0.score, -$0.index) > ($1.score, -$1.index) }
            return ranked.prefix(Self.completionLimit).enumerated().map { rank, item in
                let key = item.key
                let usage = key.count == 0 ? "not used yet" : "used in \(key.count) note\(key.count == 1 ? "" : "s")"
                return CompletionItem(label: key.name, kind: 10, detail: key.meaning.map { "quire key: \($0); \(usage)" } ?? usage,
                                      filterText: key.name, sortText: String(format: "%04d", rank),
                                      textEdit: TextEdit(range: document.range(of: (cursor - typed.utf8.count)..<cursor),
                                                         newText: key.name + ": "))
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
        if let possible = Self.canonicalValues[key] {
            let known = Set(values.map { $0.name.lowercased() })
            values += possible.filter { !known.contains($0) }.map { ($0, 0) }
        }
        let matcher = FuzzyMatch(String(typed))
        let range = document.range(of: (cursor - typed.utf8.count)..<cursor)
        return values.filter { matcher.score(FuzzyMatch.prepare($0.name)) != nil }.prefix(Self.completionLimit).map { value in
            CompletionItem(label: value.name, kind: 12,
                           detail: value.count == 0 ? "\(key): not used yet" : "\(key): used in \(value.count) note\(value.count == 1 ? "" : "s")",
                           textEdit: TextEdit(range: range, newText: value.name))
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
