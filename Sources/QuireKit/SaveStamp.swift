import Foundation
import QuireCore

/// Stamping at save, for an editor that asks before writing a note (the language server's
/// `willSaveWaitUntil`): the bytes the note should be saved as so that `updatedAt` is the moment
/// of the edit — exactly what quire itself would write, through QuireCore's surgical editor.
public enum SaveStamp {
    /// What the note about to be saved as `buffer` should hold instead, or nil when nothing is
    /// due. `onDisk` is the file as it is now (nil: it does not exist yet).
    ///
    /// - A note edited against the file on disk gets `updatedAt` set to `now` by `NoteStamp`'s
    ///   one rule: only when its content really changed, its `updatedAt` did not change with it,
    ///   it is still the same note and its front matter is readable YAML. Saving an unchanged
    ///   buffer stamps nothing.
    /// - A new note (no file yet, or an empty one) gets `id` (a new lowercase UUID from
    ///   `newID`), `createdAt` and `updatedAt` where it has none — a front matter is added when
    ///   the buffer has none; TOML or unreadable front matter is never touched.
    public static func stamped(buffer: Data, onDisk: Data?, path: String, now: Date,
                               timeZone: TimeZone = .current,
                               newID: () -> String = NoteID.generate) throws -> Data? {
        if let onDisk, !onDisk.isEmpty {
            return try NoteStamp.stampingEdit(buffer, original: onDisk, path: path, at: now)
        }
        var document = NoteDocument(data: buffer, timeZone: timeZone)
        guard document.format == .none || (document.format == .yaml && document.isEditable) else { return nil }
        let has = { (keys: [String]) in keys.contains { document.value(forKey: $0) != nil } }
        if !has(["id"]) { try document.set("id", .string(newID())) }
        if !has(NoteFields.createdAtKeys) { try document.setCreatedAt(now) }
        // An explicit `updatedAt` is the user's own value: never written over.
        if !has(NoteFields.updatedAtKeys) { try document.setUpdatedAt(now) }
        let result = document.serialized()
        return result == buffer ? nil : result
    }
}
