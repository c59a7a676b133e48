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
///   format: YYYY-MM-DD       # the file name (and title), moment.js tokens (MomentFormat)
///   template: daily          # .quire/templates/daily.md when it exists
/// ```
///
/// When the configuration has no `daily` settings, Obsidian's `.obsidian/daily-notes.json`
/// gives them (`folder`, `format`, `template`: a template's vault path), as Obsidian's daily
/// notes would.
public enum DailyNote {
    /// The settings read from the configuration (defaults where a key is missing).
    public struct Settings: Sendable, Equatable {
        /// The folder, from the vault root.
        public var folder = "Journal"
        /// The file-name pattern.
        public var format = "YYYY-MM-DD"
        /// The template's name (in `.quire/templates/`).
        public var template = "daily"
        /// The template's vault path without `.md` (Obsidian's `template`); used instead of
        /// `template` when set.
        public var templatePath: String?
        /// The file the settings come from, which errors name.
        public var file = VaultConfig.relativePath
        /// The prefix of its keys (`daily.` in `.quire/config.yml`, none in Obsidian's file).
        public var keyPrefix = "daily."

        /// The settings of `config`; where it has no `daily` settings, those of `obsidian`
        /// when it has a daily-notes file.
        public init(config: VaultConfig, obsidian: ObsidianSettings = ObsidianSettings()) {
            guard case let .map(entries)? = config.value(forKey: "daily"), !entries.isEmpty else {
                guard obsidian.hasDailyNotes else { return }
                folder = obsidian.dailyFolder.isEmpty ? "." : obsidian.dailyFolder
                format = obsidian.dailyFormat ?? "YYYY-MM-DD"
                templatePath = obsidian.dailyTemplate
                file = ObsidianSettings.dailyNotesFile
                keyPrefix = ""
                return
            }
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

    /// `format` for `day`, in moment.js tokens (`MomentFormat`: `YYYY`, `MM`, `DD`, `dddd`
    /// Monday, `ddd` Mon, `MMMM` March, `Do` 1st, `[text]` as it is).
    public static func name(for day: Date, format: String, timeZone: TimeZone) -> String {
        MomentFormat.string(day, format: format, timeZone: timeZone)
    }

    /// The note of `day`: found when it exists, else created from the daily template (its
    /// `{{date}}` is that day; `{{time}}` now) or, without one, a note titled like its file
    /// with the tag `daily`. Nothing is committed (as with `quire new`).
    public static func open(in vault: Vault, day: Date, now: Date, timeZone: TimeZone = .current) throws -> Outcome {
        let settings = Settings(config: try vault.config(), obsidian: try ObsidianSettings.read(vault))
        let fileName = name(for: day, format: settings.format, timeZone: timeZone)
        let title = (fileName as NSString).lastPathComponent
        // The synced configuration is another device's input: its folder, the name (which may
        // hold folders of its own, `YYYY/MM/YYYY-MM-DD`) and the template are checked like
        // paths of a remote tree (`ConfigPath`), never written under `.git/` or a hidden folder.
        var folder = Substring(settings.folder)
        while folder.count > 1, folder.hasSuffix("/") { folder = folder.dropLast() }
        let (file, prefix) = (settings.file, settings.keyPrefix)
        if !(folder == "." || folder == "/") { try ConfigPath.check(String(folder), key: prefix + "folder", file: file) }
        try ConfigPath.check(fileName + ".md", key: prefix + "format", written: settings.format, file: file)
        if settings.templatePath == nil { try ConfigPath.checkName(settings.template, key: prefix + "template", file: file) }
        let path = try vault.resolveSafePath((folder == "." || folder == "/" ? "" : folder + "/") + fileName + ".md")
        if FileManager.default.fileExists(atPath: vault.url(for: path).path) {
            return Outcome(path: path, created: false, unknownVariables: [])
        }
        let id = UUID().uuidString.lowercased()
        let filled: NoteTemplate.Filled
        let template = try settings.templatePath.map { try TemplateNote.text(atPath: $0 + ".md", in: vault) }
            ?? TemplateNote.text(named: settings.template, in: vault)
        if let template {
            let dayVariables = NoteTemplate.variables(title: title, id: id, now: day, timeZone: timeZone)
            var custom: [String: String] = ["weekday": dayVariables["weekday"] ?? ""]
            // Obsidian's daily notes write the note's name for `{{date}}`; quire's the day.
            custom["date"] = settings.file == ObsidianSettings.dailyNotesFile ? title
                : try ObsidianSettings.read(vault).dateFormat.map { MomentFormat.string(day, format: $0, timeZone: timeZone) }
                    ?? dayVariables["date"]
            filled = try TemplateNote.fill(template, in: vault, title: title, id: id, now: now, timeZone: timeZone,
                                           custom: custom, day: day)
        } else {
            let note = NoteTemplate(id: id, title: title, createdAt: now, tags: ["daily"])
            filled = NoteTemplate.Filled(data: Data(note.render(timeZone: timeZone).utf8), unknown: [])
        }
        try vault.write(filled.data, to: path)
        return Outcome(path: path, created: true, unknownVariables: filled.unknown)
    }
}
