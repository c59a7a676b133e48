import Foundation
import QuireCore

/// Every note of a vault (from the catalog: metadata only, no bodies), for commands that resolve
/// a NOTE argument or need them all, plus a summary warning for unreadable notes.
struct VaultNotes {
    let vault: Vault
    let notes: [Note]
    let catalog: VaultCatalog

    /// Opens the vault's catalog; `withFrontMatter` also decodes every note's keys and walks
    /// the whole vault even when a watcher runs (only `quire check` needs them, and the walk's
    /// skipped entries).
    init(context: CommandContext, withFrontMatter: Bool = false) throws {
        self.init(catalog: try VaultCatalog.open(context, walk: withFrontMatter), withFrontMatter: withFrontMatter)
    }

    /// Every note of an opened catalog.
    init(catalog: VaultCatalog, withFrontMatter: Bool = false) {
        self.catalog = catalog
        vault = catalog.vault
        notes = catalog.catalog.records.map { Note(record: $0, withFrontMatter: withFrontMatter) }
    }

    /// The vault path of the note a NOTE argument names (as `resolve` decides): a path to a note
    /// the catalog holds is found in the catalog, no note decoded; any other argument is resolved
    /// over every note.
    static func resolvePath(_ argument: String, in catalog: VaultCatalog, context: CommandContext) throws -> String {
        let query = argument.trimmingCharacters(in: .whitespaces)
        if !query.isEmpty {
            let paths = NoteResolver(vault: catalog.vault, notes: [], currentDirectory: context.currentDirectory)
            // A path outside the vault is reported by the full resolution below.
            if let first = (try? paths.pathCandidates(query))?.first, catalog.catalog.record(path: first) != nil {
                return first
            }
        }
        return try VaultNotes(catalog: catalog).resolve(argument, context: context).path
    }

    /// Prints the one summary warning of DESIGN.md §2 on standard error, if any note is unreadable.
    func warnAboutProblems(_ output: Output) {
        catalog.warnAboutProblems(output)
    }

    /// Resolves a NOTE argument (path, id, exact title, id prefix of 4+ characters).
    func resolve(_ argument: String, context: CommandContext) throws -> Note {
        let resolver = resolver(context)
        do {
            return try resolver.resolve(argument)
        } catch CoreError.noteNotFound(let query) {
            let names = resolver.suggestions(for: query)
            guard !names.isEmpty else { throw CoreError.noteNotFound(query: query) }
            throw CLIError(CoreError.noteNotFound(query: query).description,
                           hint: "did you mean " + names.map { "'\($0)'" }.joined(separator: ", ") + "? ('quire list' shows the notes)")
        }
    }

    /// The resolver of NOTE arguments over these notes.
    func resolver(_ context: CommandContext) -> NoteResolver {
        NoteResolver(vault: vault, notes: notes, currentDirectory: context.currentDirectory)
    }

    /// Resolves a NOTE argument and reads the whole note (with its body) from disk.
    func resolveFully(_ argument: String, context: CommandContext) throws -> Note {
        try vault.readNote(path: resolve(argument, context: context).path)
    }
}
