import Foundation

extension NoteTemplate {
    /// The result of filling a template file in.
    public struct Filled: Sendable, Equatable {
        /// The note's bytes.
        public var data: Data
        /// `{{name}}` placeholders no variable named, left as written (in order, each once).
        public var unknown: [String]

        /// A filled template's outcome.
        public init(data: Data, unknown: [String]) {
            self.data = data
            self.unknown = unknown
        }
    }

    /// The built-in variables of a template for a note titled `title` made at `now`:
    /// `title`, `id`, `date` (`2026-11-29`), `time` (`14:05`), `datetime` (ISO 8601) and
    /// `weekday` (`Sunday`), all in `timeZone`.
    public static func variables(title: String, id: String, now: Date, timeZone: TimeZone) -> [String: String] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .weekday], from: now)
        let pad = { (number: Int?) in String(format: "%02d", number ?? 0) }
        let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        return [
            "title": title, "id": id,
            "date": String(format: "%04d", parts.year ?? 0) + "-" + pad(parts.month) + "-" + pad(parts.day),
            "time": pad(parts.hour) + ":" + pad(parts.minute),
            "datetime": QuireClock.iso8601(now, timeZone: timeZone),
            "weekday": weekdays[((parts.weekday ?? 1) - 1 + 7) % 7],
        ]
    }

    /// The value of `date:FORMAT` (`day`) or `time:FORMAT` (`now`), nil for any other name.
    static func formatted(_ name: String, day: Date, now: Date, timeZone: TimeZone) -> String? {
        guard let colon = name.firstIndex(of: ":") else { return nil }
        let format = String(name[name.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        switch name[..<colon].trimmingCharacters(in: .whitespaces) {
        case "date": return MomentFormat.string(day, format: format, timeZone: timeZone)
        case "time": return MomentFormat.string(now, format: format, timeZone: timeZone)
        default: return nil
        }
    }

    /// Fills `{{name}}` (spaces inside the braces allowed) in a template file's text. In the
    /// front matter a placeholder that is a key's whole value is written as YAML (`title:
    /// {{title}}` with the title `Woody: the end` gives `title: "Woody: the end"`; `--var mood=3`
    /// gives the number 3), elsewhere as the text itself. Then the canonical keys the template
    /// leaves out are added at the end of its front matter: `id`, `title`, `createdAt`,
    /// `updatedAt` (a template without front matter gets a canonical one). Throws
    /// `CoreError.unreadableFrontMatter` when the filled front matter does not read.
    ///
    /// `{{date:FORMAT}}` and `{{time:FORMAT}}` (Obsidian's core templates) write `day` (default
    /// `now`) and `now` in a moment.js format (`MomentFormat`): `{{date:dddd, MMMM Do}}`.
    public static func fill(_ text: String, variables: [String: String], title: String, id: String, now: Date,
                            timeZone: TimeZone, day: Date? = nil) throws -> Filled {
        var unknown: [String] = []
        let plain = NoteDocument(data: Data(text.utf8), timeZone: timeZone)
        let frontMatterEnd = plain.format == .yaml ? text.utf8.count - plain.body.utf8.count : 0
        var output = ""
        var offset = 0
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            guard let close = rest[open.upperBound...].range(of: "}}") else { break }
            let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            let before = rest[..<open.lowerBound]
            output += before
            offset += before.utf8.count
            let inFrontMatter = offset < frontMatterEnd
            let placeholder = String(rest[open.lowerBound..<close.upperBound])
            if let value = variables[name] ?? formatted(name, day: day ?? now, now: now, timeZone: timeZone), !name.isEmpty {
                let lineBefore = output.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
                let after = rest[close.upperBound...].prefix { $0 != "\n" && $0 != "\r" }
                let wholeValue = inFrontMatter && after.allSatisfy({ $0 == " " })
                    && lineBefore.range(of: #"^[^\s#][^:]*:\s+$"#, options: .regularExpression) != nil
                if wholeValue {
                    let typed: FrontMatterValue = name == "title" ? .string(value) : .parse(yaml: value, timeZone: timeZone)
                    output += typed.yamlText
                } else {
                    output += value
                }
            } else {
                output += placeholder
                if !unknown.contains(name) { unknown.append(name) }
            }
            offset += placeholder.utf8.count
            rest = rest[close.upperBound...]
        }
        output += rest
        var document = NoteDocument(data: Data(output.utf8), timeZone: timeZone)
        if let problem = document.problems.first(where: { $0.kind != .badValue }) {
            throw CoreError.unreadableFrontMatter(line: problem.line, reason: "the template's front matter after filling in: " + problem.message)
        }
        if document.format == .none {
            let canonical = NoteTemplate(id: id, title: title, createdAt: now, body: output)
            return Filled(data: Data(canonical.render(timeZone: timeZone, lineEnding: document.lineEnding).utf8), unknown: unknown)
        }
        let keys = Set(document.keys.map { $0.lowercased() })
        if !keys.contains("id") { try document.set("id", .string(id)) }
        if !keys.contains("title") { try document.set("title", .string(title)) }
        if !keys.contains("createdat") { try document.set("createdAt", .timestamp(now, timeZone: timeZone)) }
        if !keys.contains("updatedat") { try document.set("updatedAt", .timestamp(now, timeZone: timeZone)) }
        return Filled(data: document.serialized(), unknown: unknown)
    }
}
