import Foundation
import QuireCore

/// Why a template could not be used.
public enum TemplateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No `.quire/templates/NAME.md`; `available` lists the names there.
    case notFound(name: String, available: [String])
    /// A name with `/`, a leading `.` or nothing in it.
    case invalidName(name: String)

    /// One lowercase sentence.
    public var description: String {
        switch self {
        case let .notFound(name, available):
            return "no template '\(name)' in \(TemplateNote.folder)/"
                + (available.isEmpty ? " (there are none)" : " (there are: \(available.joined(separator: ", ")))")
        case let .invalidName(name):
            return "invalid template name '\(name)'"
        }
    }
}

/// Notes made from the vault's templates: `.quire/templates/NAME.md`, else `NAME.md` in the
/// templates folder of Obsidian's settings (`ObsidianSettings`), filled in by QuireCore's
/// `NoteTemplate.fill` (`{{title}}`, `{{date}}`, `{{time}}`, `{{date:FORMAT}}`,
/// `{{time:FORMAT}}`, `{{id}}`, custom variables).
public enum TemplateNote {
    /// Where quire's templates live, relative to the vault root (tracked: shared by every device).
    public static let folder = ".quire/templates"

    /// The template names of the vault (file names without `.md`), sorted: quire's, and
    /// Obsidian's templates folder's.
    public static func available(in vault: Vault) -> [String] {
        let folders = [folder] + [(try? ObsidianSettings.read(vault))?.templatesFolder].compactMap { $0 }
        let names = folders.flatMap { (try? FileManager.default.contentsOfDirectory(atPath: vault.url(for: $0).path)) ?? [] }
        return Set(names.filter { $0.hasSuffix(".md") && !Vault.isHidden(name: $0) }.map { String($0.dropLast(3)) }).sorted()
    }

    /// The text of template `name`, or nil when there is none.
    public static func text(named name: String, in vault: Vault) throws -> String? {
        guard !name.isEmpty, !name.contains("/"), !Vault.isHidden(name: name), !name.contains("\0") else {
            throw TemplateError.invalidName(name: name)
        }
        if let text = try text(atPath: folder + "/" + name + ".md", in: vault) { return text }
        guard let obsidian = try ObsidianSettings.read(vault).templatesFolder else { return nil }
        return try text(atPath: obsidian + "/" + name + ".md", in: vault)
    }

    /// The text of the template at vault path `path` (checked by the caller), nil when none.
    public static func text(atPath path: String, in vault: Vault) throws -> String? {
        guard FileManager.default.fileExists(atPath: vault.url(for: path).path) else { return nil }
        return String(decoding: try vault.readData(path), as: UTF8.self)
    }

    /// A new note's bytes from template `name`: the built-in variables for `title` at `now`,
    /// with `custom` (`--var k=v`) over them. Throws `TemplateError.notFound` for a missing one.
    public static func make(_ name: String, in vault: Vault, title: String, id: String, now: Date,
                            timeZone: TimeZone = .current, custom: [String: String] = [:]) throws -> NoteTemplate.Filled {
        guard let text = try text(named: name, in: vault) else {
            throw TemplateError.notFound(name: name, available: available(in: vault))
        }
        return try fill(text, in: vault, title: title, id: id, now: now, timeZone: timeZone, custom: custom)
    }

    /// A template's `text` filled in: the built-in variables (`{{date}}` and `{{time}}` in the
    /// formats of Obsidian's settings when they set one), `custom` over them; `day` is what
    /// `{{date:FORMAT}}` writes (default `now`).
    static func fill(_ text: String, in vault: Vault, title: String, id: String, now: Date, timeZone: TimeZone,
                     custom: [String: String], day: Date? = nil) throws -> NoteTemplate.Filled {
        var variables = NoteTemplate.variables(title: title, id: id, now: now, timeZone: timeZone)
        let obsidian = try ObsidianSettings.read(vault)
        if let format = obsidian.dateFormat { variables["date"] = MomentFormat.string(day ?? now, format: format, timeZone: timeZone) }
        if let format = obsidian.timeFormat { variables["time"] = MomentFormat.string(now, format: format, timeZone: timeZone) }
        variables.merge(custom) { _, given in given }
        return try NoteTemplate.fill(text, variables: variables, title: title, id: id, now: now, timeZone: timeZone, day: day)
    }
}
