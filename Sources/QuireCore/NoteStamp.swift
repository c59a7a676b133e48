import Foundation

/// The stamping rule: when a note's `updatedAt` is set to the time it changed. One rule for every
/// writer — `quire edit` after the editor closes, `quire restore`, and the sync's stamping of
/// notes edited outside quire.
public enum NoteStamp {
    /// `edited` with `updatedAt` set to `time` when its content really changed against
    /// `original`, `updatedAt` did not change with it (the user's own value wins), it is still the
    /// same note (the ids agree, or one is missing: a different id means another note took the
    /// path) and its front matter is readable, editable YAML; nil when no stamp is due. Only front
    /// matter is parsed; when it is byte-identical to the original's, so is `updatedAt`, and the
    /// original is not parsed at all.
    public static func stampingEdit(_ edited: Data, original: Data, path: String, at time: Date) throws -> Data? {
        guard edited != original else { return nil }
        let now = NoteParser.parseFrontMatter(edited, path: path)
        guard now.format == .yaml, now.problems.isEmpty else { return nil }
        if !NoteParser.haveSameFrontMatter(edited, original) {
            let before = NoteParser.parseFrontMatter(original, path: path)
            guard now.updatedAt == before.updatedAt, now.id == nil || before.id == nil
                    || now.id?.lowercased() == before.id?.lowercased() else { return nil }
        }
        var document = NoteDocument(data: edited)
        guard document.isEditable else { return nil }
        try document.setUpdatedAt(time)
        return document.serialized()
    }

    /// `edited` (a note whose links were rewritten: a rename, a move, `check --fix`; or a note the
    /// sync commits) with `updatedAt` set to `time` as `stampingEdit` sets it, but only when
    /// `original` already carries an `updatedAt` (or a key other tools write for it:
    /// `NoteFields.updatedAtKeys`): a note without one gains no key (its commit dates it, and a
    /// merge reads its commit time). Nil when no stamp is due.
    public static func stampingEditIfCarried(_ edited: Data, original: Data, path: String, at time: Date) throws -> Data? {
        guard NoteParser.parseFrontMatter(original, path: path).updatedAt != nil else { return nil }
        return try stampingEdit(edited, original: original, path: path, at: time)
    }

    /// `data` with `updatedAt` set to `time` when its front matter is editable YAML (else `data`
    /// as it is): a version put back in place (`quire restore`) is a new change.
    public static func stampingReplacement(_ data: Data, at time: Date) throws -> Data {
        var document = NoteDocument(data: data)
        guard document.format == .yaml && document.isEditable else { return data }
        try document.setUpdatedAt(time)
        return document.serialized()
    }
}
