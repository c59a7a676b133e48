import Foundation
import QuireCore

/// A note a front end hands to an editor of the user's (`quire edit`): its bytes are kept when
/// it opens, and when the editor is done the note is stamped by `NoteStamp`'s rule (the user's
/// own `updatedAt` wins; front matter that cannot be read is not stamped).
public struct ExternalEdit: Sendable {
    /// The note's vault path.
    public let path: String
    /// Its file.
    public let url: URL
    private let vault: Vault
    private let before: Data

    /// What the edit left.
    public struct Outcome: Sendable {
        /// Whether the editor changed the file.
        public var changed: Bool
        /// The problem of front matter that was readable before the edit and is not after it
        /// (nil when it reads, or did not read before either).
        public var brokeFrontMatter: NoteProblem?
    }

    /// Starts an edit of the note at `path`; refuses a write-protected note unless `force`
    /// (the stamp after the editor would rewrite it).
    public init(vault: Vault, path: String, force: Bool) throws {
        if !force { try NoteEdit.refuseWriteProtected(vault: vault, path: path) }
        self.vault = vault
        self.path = path
        url = vault.root.appendingPathComponent(path)
        before = try vault.readData(path)
    }

    /// Stamps the note the editor left, at `now`, and says what changed; throws
    /// `KitError.noteGone` when the editor removed or renamed the file.
    public func finish(now: Date) throws -> Outcome {
        guard let after = try? Data(contentsOf: url) else { throw KitError.noteGone(path: path) }
        if let stamped = try NoteStamp.stampingEdit(after, original: before, path: path, at: now) {
            try vault.write(stamped, to: path)
        }
        let unreadable: (Data) -> NoteProblem? = { data in
            NoteParser.parseFrontMatter(data, path: path).problems.first { $0.kind != .badValue }
        }
        let broke = after != before && unreadable(before) == nil ? unreadable(after) : nil
        return Outcome(changed: after != before, brokeFrontMatter: broke)
    }
}
