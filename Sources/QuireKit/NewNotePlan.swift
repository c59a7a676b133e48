import Foundation
import QuireCore

/// A note to create: its vault path and its bytes (front matter as `quire new` writes it).
public struct NewNotePlan: Sendable, Equatable {
    /// The new note's vault-relative path (free when planned).
    public var path: String
    /// The new note's title.
    public var title: String
    /// The file's bytes.
    public var data: Data

    /// The note an unresolved link asks for: a target with a folder (`[[ideas/Plan]]`) becomes
    /// that path; a bare name becomes a note titled so, named by the vault's `fileNames` style in
    /// the vault's root (the link then resolves by file name or title).
    public static func forLink(target: String, vault: Vault, now: Date, newID: () -> String = NoteID.generate,
                               timeZone: TimeZone = .current) throws -> NewNotePlan {
        let trimmed = target.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: "/").map(String.init)
        let name = parts.last ?? trimmed
        let title = name.lowercased().hasSuffix(".md") ? String(name.dropLast(3)) : name
        let path: String
        if parts.count > 1 {
            let file = trimmed.lowercased().hasSuffix(".md") ? trimmed : trimmed + ".md"
            path = try vault.resolveSafePath(file.hasPrefix("/") ? String(file.dropFirst()) : file)
        } else {
            path = try vault.availablePath(folder: "", title: title, style: vault.config().fileNameStyle())
        }
        return NewNotePlan(path: path, title: title, data: render(title: title, body: "", now: now, id: newID(), timeZone: timeZone))
    }

    /// A note holding `text` (a selection extracted from the note at `source`), in the same
    /// folder, titled by its first heading or first line.
    public static func extracting(_ text: String, from source: String, vault: Vault, now: Date,
                                  newID: () -> String = NoteID.generate, timeZone: TimeZone = .current) throws -> NewNotePlan {
        let firstLine = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty } ?? ""
        var title = String(firstLine.drop { $0 == "#" }).trimmingCharacters(in: .whitespaces)
        if title.count > 80 { title = String(title.prefix(80)).trimmingCharacters(in: .whitespaces) }
        if title.isEmpty { title = "Untitled" }
        let path = try vault.availablePath(folder: NoteParser.folder(of: source), title: title,
                                           style: vault.config().fileNameStyle())
        let body = text.hasSuffix("\n") ? text : text + "\n"
        return NewNotePlan(path: path, title: title, data: render(title: title, body: body, now: now, id: newID(), timeZone: timeZone))
    }

    private static func render(title: String, body: String, now: Date, id: String, timeZone: TimeZone) -> Data {
        Data(NoteTemplate(id: id, title: title, createdAt: now, updatedAt: now, body: body).render(timeZone: timeZone).utf8)
    }
}
