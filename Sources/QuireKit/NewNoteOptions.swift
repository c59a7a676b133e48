import Foundation
import QuireCore

/// What `quire new` asks of a new note besides its title and folder: its canonical keys, its
/// body, and a template to start from (`.quire/templates/NAME.md`, with custom variables).
public struct NewNoteOptions: Sendable, Equatable {
    /// Tags, stored without `#`.
    public var tags: [String] = []
    /// The project.
    public var project: String?
    /// `draft: true` (true), `draft: false` (false), or no key (nil).
    public var draft: Bool?
    /// Whether the note is pinned.
    public var pinned = false
    /// A color label.
    public var color: String?
    /// A mood (`NoteFields.moodRule`).
    public var mood: Int?
    /// The body (a final line break is added when it lacks one).
    public var body = ""
    /// The template to start from, by name.
    public var template: String?
    /// The template's custom variables (`{{K}}`).
    public var variables: [String: String] = [:]

    /// Options for a note with a title only.
    public init() {}
}

extension NewNotePlan {
    /// The note `quire new` creates: titled `title`, in `folder` (vault-relative, created when
    /// missing), at a free name from the vault's `fileNames` style, with a new `id`, `createdAt`
    /// and `updatedAt` at `now`; from `options.template` when given (the options applied on top:
    /// tags added, the body appended). Returns the plan and the template's `{{names}}` that
    /// name no variable (left as written).
    public static func make(title: String, folder: String, in vault: Vault, options: NewNoteOptions, now: Date,
                            newID: () -> String = NoteID.generate) throws -> (plan: NewNotePlan, unknown: [String]) {
        let path = try vault.availablePath(folder: folder, title: title, style: vault.config().fileNameStyle())
        let id = newID()
        var body = options.body
        if !body.isEmpty && !body.hasSuffix("\n") { body += "\n" }
        guard let template = options.template else {
            let template = NoteTemplate(id: id, title: title, createdAt: now, tags: options.tags, project: options.project,
                                        draft: options.draft, pinned: options.pinned, color: options.color,
                                        mood: options.mood, body: body)
            let data = NoteDocument.newNote(template).serialized()
            return (NewNotePlan(path: path, title: title, data: data), [])
        }
        let filled = try TemplateNote.make(template, in: vault, title: title, id: id, now: now, custom: options.variables)
        var document = NoteDocument(data: filled.data)
        if !options.tags.isEmpty { try document.setTags(document.note(path: "").tags + options.tags) }
        if let project = options.project { try document.set("project", .string(project)) }
        if let draft = options.draft { try document.set("draft", .bool(draft)) }
        if options.pinned { try document.set("pinned", .bool(true)) }
        if let color = options.color { try document.set("color", .string(color)) }
        if let mood = options.mood { try document.set("mood", .int(mood)) }
        if !body.isEmpty {
            let existing = document.body
            document.body = existing + (existing.isEmpty || existing.hasSuffix("\n") ? "" : "\n") + body
        }
        return (NewNotePlan(path: path, title: title, data: document.serialized()), filled.unknown)
    }

    /// Writes the planned note (atomically; a missing folder is created).
    public func write(to vault: Vault) throws {
        try vault.write(data, to: path)
    }
}
