import Foundation
import QuireCore

/// A DATE argument of `quire daily` that is no date.
public struct DailyDateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The argument as given.
    public var text: String
    /// One lowercase sentence.
    public var description: String { "not a day: '\(text)'" }
}

/// The journal habit: one note a day, `quire daily [DATE]`. Where it goes comes from
/// `.quire/config.yml`:
///
/// ```yaml
/// daily:
///   folder: Journal          # default Journal
///   format: YYYY-MM-DD       # the file name (and title): YYYY, MM, DD, ddd (Mon), dddd (Monday)
///   template: daily          # .quire/templates/daily.md when it exists
/// ```
public enum DailyNote {
    /// The settings read from the configuration (defaults where a key is missing).
    public struct Settings: Sendable, Equatable {
        /// The folder, from the vault root.
        public var folder = "Journal"
        /// The file-name pattern.
        public var format = "YYYY-MM-DD"
        /// The template's name.
        public var template = "daily"

        /// The settings of `config`.
        public init(config: VaultConfig) {
            guard case let .map(entries)? = config.value(forKey: "daily") else { return }
            for entry in entries {
                guard let text = NoteFields.text(of: entry.value), !text.isEmpty else { continue }
                switch entry.key {
                case "folder": folder = text
                case "format": format = text
                case "template": template = text
                default: break
                }
            }
        }
    }

    /// What `open` found or made.
    public struct Outcome: Sendable, Equatable {
        /// The note's vault-relative path.
        public var path: String
        /// Whether it was created now.
        public var created: Bool
        /// Template placeholders no variable named.
        public var unknownVariables: [String]
    }

    /// The day a DATE argument names: nil or `today`, `yesterday`, `tomorrow`, `+N`/`-N` days,
    /// or a date (`2026-11-29`) — as the start of that day in `timeZone`.
    public static func day(_ argument: String?, now: Date, timeZone: TimeZone) throws -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let today = calendar.startOfDay(for: now)
        let text = (argument ?? "today").trimmingCharacters(in: .whitespaces).lowercased()
        let offsets = ["today": 0, "yesterday": -1, "tomorrow": 1]
        if let offset = offsets[text] ?? ((text.hasPrefix("+") || text.hasPrefix("-")) ? Int(text) : nil) {
            guard abs(offset) <= 100_000, let day = calendar.date(byAdding: .day, value: offset, to: today) else {
                throw DailyDateError(text: argument ?? "")
            }
            return day
        }
        let parts = text.split(separator: "-").map(String.init)
        guard parts.count == 3, parts[0].count == 4, let year = Int(parts[0]), let month = Int(parts[1]), let dayNumber = Int(parts[2]) else {
            throw DailyDateError(text: argument ?? "")
        }
        let components = DateComponents(year: year, month: month, day: dayNumber)
        guard components.isValidDate(in: calendar), let day = calendar.date(from: components) else {
            throw DailyDateError(text: argument ?? "")
        }
        return day
    }

    /// `format` for `day`: `YYYY`, `MM`, `DD`, `dddd` (Monday), `ddd` (Mon); other text as is.
    public static func name(for day: Date, format: String, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: day)
        let weekday = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][((parts.weekday ?? 1) + 6) % 7]
        let tokens: [(String, String)] = [
            ("YYYY", String(format: "%04d", parts.year ?? 0)), ("MM", String(format: "%02d", parts.month ?? 0)),
            ("DD", String(format: "%02d", parts.day ?? 0)), ("dddd", weekday), ("ddd", String(weekday.prefix(3))),
        ]
        var result = ""
        var rest = Substring(format)
        scan: while !rest.isEmpty {
            for (token, value) in tokens where rest.hasPrefix(token) {
                result += value
                rest = rest.dropFirst(token.count)
                continue scan
            }
            result.append(rest.removeFirst())
        }
        return result
    }

    /// The note of `day`: found when it exists, else created from the daily template (its
    /// `{{date}}` is that day; `{{time}}` now) or, without one, a note titled like its file
    /// with the tag `daily`. Nothing is committed (as with `quire new`).
    public static func open(in vault: Vault, day: Date, now: Date, timeZone: TimeZone = .current) throws -> Outcome {
        let settings = Settings(config: try vault.config())
        let fileName = name(for: day, format: settings.format, timeZone: timeZone)
        let title = (fileName as NSString).lastPathComponent
        // The synced configuration is another device's input: its folder, the name (which may
        // hold folders of its own, `YYYY/MM/YYYY-MM-DD`) and the template are checked like
        // paths of a remote tree (`ConfigPath`), never written under `.git/` or a hidden folder.
        var folder = Substring(settings.folder)
        while folder.count > 1, folder.hasSuffix("/") { folder = folder.dropLast() }
        if !(folder == "." || folder == "/") { try ConfigPath.check(String(folder), key: "daily.folder") }
        try ConfigPath.check(fileName + ".md", key: "daily.format", written: settings.format)
        try ConfigPath.checkName(settings.template, key: "daily.template")
        let path = try vault.resolveSafePath((folder == "." || folder == "/" ? "" : folder + "/") + fileName + ".md")
        if FileManager.default.fileExists(atPath: vault.url(for: path).path) {
            return Outcome(path: path, created: false, unknownVariables: [])
        }
        let id = UUID().uuidString.lowercased()
        let filled: NoteTemplate.Filled
        if try TemplateNote.text(named: settings.template, in: vault) != nil {
            var variables = NoteTemplate.variables(title: title, id: id, now: now, timeZone: timeZone)
            let dayVariables = NoteTemplate.variables(title: title, id: id, now: day, timeZone: timeZone)
            variables["date"] = dayVariables["date"]
            variables["weekday"] = dayVariables["weekday"]
            filled = try TemplateNote.make(settings.template, in: vault, title: title, id: id, now: now, timeZone: timeZone,
                                           custom: variables)
        } else {
            let note = NoteTemplate(id: id, title: title, createdAt: now, tags: ["daily"])
            filled = NoteTemplate.Filled(data: Data(note.render(timeZone: timeZone).utf8), unknown: [])
        }
        try vault.write(filled.data, to: path)
        return Outcome(path: path, created: true, unknownVariables: filled.unknown)
    }
}
