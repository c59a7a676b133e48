import Foundation
import QuireCore

/// Applies one change to a note file: read, change, stamp `updatedAt` when the content really
/// changed (unless the change set `updatedAt` itself, `NoteStamp`'s rule), write atomically.
/// Untouched files are never rewritten, and a write-protected note (`chmod 444`) only with
/// `force`. The one way a front end changes a note's front matter.
public enum NoteEdit {
    /// Changes the note at vault path `path` with `change`; returns whether the file changed.
    /// A sync (the daemon's) may update the note meanwhile: the file is replaced only if it
    /// still holds what was read, else the change is made again on what is there (five tries).
    @discardableResult
    public static func apply(vault: Vault, path: String, now: Date, setsUpdatedAt: Bool = false, force: Bool,
                             _ change: (inout NoteDocument) throws -> Void) throws -> Bool {
        do {
            for attempt in 1...5 {
                let read = try? Data(contentsOf: vault.url(for: path))
                var document = try vault.readDocument(path: path)
                let before = document.serialized()
                try change(&document)
                guard document.serialized() != before else { return false }
                if !force { try refuseWriteProtected(vault: vault, path: path) }
                if !setsUpdatedAt { try document.setUpdatedAt(now) }
                // Test hook (`FaultInjection`, Docs/sync.md): a sync's write lands here.
                if attempt == 1, FaultInjection().trigger("before-note-write") {
                    throw KitError.injectedFault(point: "before-note-write")
                }
                let refused = try vault.writeAll([(path, document.serialized())], replaceIf: { _ in
                    read != nil && (try? Data(contentsOf: vault.url(for: path))) == read
                })
                if refused.isEmpty { return true }
            }
            throw KitError.noteKeptChanging(path: path)
        } catch CoreError.unreadableFrontMatter(let line, let reason) {
            throw KitError.frontMatterUnreadable(path: path, line: line, reason: reason)
        } catch CoreError.readOnlyFrontMatter(let format) {
            throw KitError.frontMatterReadOnly(path: path, format: format.rawValue)
        }
    }

    /// Throws when the note is write-protected: its owner made it read-only on purpose.
    public static func refuseWriteProtected(vault: Vault, path: String) throws {
        guard try vault.isWriteProtected(path) else { return }
        throw KitError.writeProtected(path: path)
    }
}
