import Foundation
import QuireCore

/// What an Obsidian vault's own settings say about templates and daily notes, read where
/// `.quire/config.yml` says nothing (quire's settings win): `.obsidian/templates.json` (`folder`,
/// `dateFormat`, `timeFormat`) and `.obsidian/daily-notes.json` (`folder`, `format`,
/// `template`). The paths come from another program and travel with the vault, so each is
/// checked like `.quire/config.yml`'s (`ConfigPath`: no `..`, no `.git`, no hidden folder); a
/// refused one is an invalid configuration naming its file and key. A missing or unreadable
/// file says nothing.
public struct ObsidianSettings: Sendable, Equatable {
    /// `.obsidian/templates.json`.
    public static let templatesFile = ".obsidian/templates.json"
    /// `.obsidian/daily-notes.json`.
    public static let dailyNotesFile = ".obsidian/daily-notes.json"

    /// The templates folder (vault path), nil when unset.
    public var templatesFolder: String?
    /// The moment.js format of `{{date}}` (Obsidian's default `YYYY-MM-DD`), nil when unset.
    public var dateFormat: String?
    /// The moment.js format of `{{time}}` (Obsidian's default `HH:mm`), nil when unset.
    public var timeFormat: String?
    /// Whether `.obsidian/daily-notes.json` exists and reads (its folder may be the root).
    public var hasDailyNotes = false
    /// The daily notes' folder (`""`: the vault root, Obsidian's default).
    public var dailyFolder = ""
    /// The daily notes' moment.js name format, nil when unset (`YYYY-MM-DD`).
    public var dailyFormat: String?
    /// The daily template's vault path without `.md` (`Templates/Daily`), nil when unset.
    public var dailyTemplate: String?

    /// Nothing set.
    public init() {}

    /// The settings of `vault`; throws `CoreError.invalidConfig` for a path that may not be used.
    public static func read(_ vault: Vault) throws -> ObsidianSettings {
        var settings = ObsidianSettings()
        if let templates = object(vault, templatesFile) {
            settings.templatesFolder = try folder(templates["folder"], key: "folder", file: templatesFile)
            settings.dateFormat = nonEmpty(templates["dateFormat"])
            settings.timeFormat = nonEmpty(templates["timeFormat"])
        }
        if let daily = object(vault, dailyNotesFile) {
            settings.hasDailyNotes = true
            settings.dailyFolder = try folder(daily["folder"], key: "folder", file: dailyNotesFile) ?? ""
            settings.dailyFormat = nonEmpty(daily["format"])
            if var template = nonEmpty(daily["template"]) {
                if template.lowercased().hasSuffix(".md") { template = String(template.dropLast(3)) }
                while template.hasPrefix("/") { template.removeFirst() }
                try ConfigPath.check(template + ".md", key: "template", file: dailyNotesFile)
                settings.dailyTemplate = template
            }
        }
        return settings
    }

    /// A JSON file's top-level object, nil when it is missing or no object.
    private static func object(_ vault: Vault, _ path: String) -> [String: Any]? {
        guard let data = try? Data(contentsOf: vault.url(for: path)) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    private static func nonEmpty(_ value: Any?) -> String? {
        guard let text = (value as? String)?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        return text
    }

    /// A folder setting without a leading or trailing `/`, checked; nil when unset or the root.
    private static func folder(_ value: Any?, key: String, file: String) throws -> String? {
        guard var folder = nonEmpty(value) else { return nil }
        while folder.hasPrefix("/") { folder.removeFirst() }
        while folder.hasSuffix("/") { folder.removeLast() }
        guard !folder.isEmpty, folder != "." else { return nil }
        return try ConfigPath.check(folder, key: key, file: file)
    }
}
