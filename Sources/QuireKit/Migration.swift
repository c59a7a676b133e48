import Foundation
import QuireCore

/// One step of the vault format: the version a vault has after it, its name, and the surgical
/// edit it makes to one note. Every step is idempotent (applied to its own output it changes
/// nothing) and deterministic (every device makes the same edit to the same note, so two devices
/// migrating at once produce the same files and their sync merges cleanly).
public struct Migration: Sendable {
    /// The format version after this step.
    public let version: Int
    /// A short name (`legacy-dates`).
    public let name: String
    /// One line: what it does.
    public let summary: String
    /// Edits one note (`path` vault-relative; `seed` names the vault's history for derived ids);
    /// returns the values it left where they were because they do not map losslessly.
    let apply: @Sendable (_ document: inout NoteDocument, _ path: String, _ seed: String) throws -> [KeptValue]

    /// The registered steps, in version order (Docs/format.md, "Migrations"). Version 1 is the
    /// format of the first vaults; `VaultConfig.currentVersion` is the last step's version.
    public static let all: [Migration] = [
        Migration(version: 2, name: "legacy-dates",
                  summary: "date keys of other tools renamed to createdAt/updatedAt, epoch numbers written as ISO 8601") { document, path, _ in
            let mapping = FrontMatterMapping(createdKeys: ["created", "date"],
                                             updatedKeys: ["updated", "modified", "lastmod", "mtime"])
            return try mapping.apply(to: &document, path: path)
        },
        Migration(version: 3, name: "tags",
                  summary: "tags trimmed, case-duplicates merged (first spelling kept), a list's # dropped; tags holding more than strings kept as they are") { document, path, _ in
            try FrontMatterMapping.mergeTags(&document, from: [], path: path)
        },
        Migration(version: 4, name: "ids",
                  summary: "an id added to every note with YAML front matter that has none") { document, path, seed in
            guard document.format == .yaml, !document.keys.contains(where: { $0.lowercased() == "id" }) else { return [] }
            try document.set("id", .string(FrontMatterMapping.derivedID("quire-migrate:" + seed + ":" + path)))
            return []
        },
    ]

    /// Runs `steps` over `document` (the note at `path`); returns which of them changed it, and
    /// the values they left where they were.
    static func apply(_ steps: [Migration], to document: inout NoteDocument, path: String,
                      seed: String) throws -> (changed: [Bool], kept: [KeptValue]) {
        var kept: [KeptValue] = []
        let changed = try steps.map { step in
            let before = document.serialized()
            kept += try step.apply(&document, path, seed)
            return document.serialized() != before
        }
        return (changed, kept)
    }

    /// The steps a vault at `version` still needs, in order.
    public static func pending(after version: Int) -> [Migration] {
        all.filter { $0.version > version }
    }
}
