import Foundation
import QuireCore

/// Every note of a vault read from disk, for commands that need them all, plus a summary warning
/// for notes whose front matter could not be read.
struct VaultNotes {
    let vault: Vault
    let notes: [Note]

    /// Reads every note of the vault.
    init(vault: Vault) throws {
        self.vault = vault
        notes = try vault.notePaths().map { try vault.readNote(path: $0) }
    }

    /// Notes whose front matter could not be read.
    var unreadable: [Note] { notes.filter { !$0.problems.isEmpty } }

    /// Prints the one summary warning of DESIGN.md §2 on standard error, if any note is unreadable.
    func warnAboutProblems(_ output: Output) {
        let count = unreadable.count
        guard count > 0 else { return }
        let noun = count == 1 ? "1 note has" : "\(count) notes have"
        output.error("quire: warning: \(noun) unreadable front matter — run 'quire check'")
    }

    /// Resolves a NOTE argument (path, id, exact title, id prefix of 4+ characters).
    func resolve(_ argument: String, context: CommandContext) throws -> Note {
        try NoteResolver(vault: vault, notes: notes, currentDirectory: context.currentDirectory).resolve(argument)
    }

    /// The default list order: pinned first, then `updatedAt` newest first, ties by path.
    static func defaultOrder(_ lhs: Note, _ rhs: Note) -> Bool {
        if lhs.pinned != rhs.pinned { return lhs.pinned }
        let left = lhs.updatedAt ?? .distantPast
        let right = rhs.updatedAt ?? .distantPast
        if left != right { return left > right }
        return lhs.path < rhs.path
    }
}
