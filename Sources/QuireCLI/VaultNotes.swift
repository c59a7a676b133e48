import Foundation
import QuireCore
import QuireSearch

/// Every note of a vault (from the catalog: metadata only, no bodies), for commands that resolve
/// a NOTE argument or need them all, plus a summary warning for unreadable notes. The notes are
/// decoded on first use: a NOTE argument that is a path to a note the catalog holds decodes that
/// note alone (100,000 records take a second and 380 MB to decode).
struct VaultNotes {
    let vault: Vault
    let catalog: VaultCatalog
    private let withFrontMatter: Bool
    private let decoded: DecodedNotes

    /// Every note, decoded from the catalog the first time it is asked for.
    var notes: [Note] { decoded.notes(of: catalog, withFrontMatter: withFrontMatter) }

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
        self.withFrontMatter = withFrontMatter
        decoded = DecodedNotes()
    }

    /// The vault path of the note a NOTE argument names (as `resolve` decides): a path to a note
    /// the catalog holds is found in the catalog, no note decoded; any other argument is resolved
    /// over every note.
    static func resolvePath(_ argument: String, in catalog: VaultCatalog, context: CommandContext) throws -> String {
        try VaultNotes(catalog: catalog).resolve(argument, context: context).path
    }

    /// The catalog's record of the note a NOTE argument names as a path, as `NoteResolver`
    /// tries first (relative to the current directory, then to the vault root); nil when the
    /// argument names no such note.
    private func recordNamedAsPath(_ argument: String, context: CommandContext) -> NoteRecord? {
        let query = argument.trimmingCharacters(in: .whitespaces)
        guard !query.isEmpty else { return nil }
        let paths = NoteResolver(vault: vault, notes: [], currentDirectory: context.currentDirectory)
        // A path outside the vault is reported by the full resolution.
        guard let first = (try? paths.pathCandidates(query))?.first else { return nil }
        return catalog.catalog.record(path: first)
    }

    /// Prints the one summary warning of DESIGN.md §2 on standard error, if any note is unreadable.
    func warnAboutProblems(_ output: Output) {
        catalog.warnAboutProblems(output)
    }

    /// Resolves a NOTE argument (path, id, exact title, id prefix of 4+ characters).
    func resolve(_ argument: String, context: CommandContext) throws -> Note {
        do {
            return try resolveExactly(argument, context: context)
        } catch CoreError.noteNotFound(let query) {
            let names = namingResolver(context).suggestions(for: query)
            guard !names.isEmpty else { throw CoreError.noteNotFound(query: query) }
            throw CLIError(CoreError.noteNotFound(query: query).description,
                           hint: "did you mean " + names.map { "'\($0)'" }.joined(separator: ", ") + "? ('quire list' shows the notes)")
        }
    }

    /// Resolves a NOTE argument as `NoteResolver.resolve` does (throwing its errors, with no
    /// suggestions), without decoding every note when the argument is a path to one.
    func resolveExactly(_ argument: String, context: CommandContext) throws -> Note {
        if let record = recordNamedAsPath(argument, context: context) {
            return Note(record: record, withFrontMatter: withFrontMatter)
        }
        let found = try namingResolver(context).resolve(argument)
        // The resolver's notes hold only what names them; a note the catalog lacks was read whole.
        return catalog.catalog.record(path: found.path).map { Note(record: $0, withFrontMatter: withFrontMatter) } ?? found
    }

    /// The resolver of NOTE arguments over these notes.
    func resolver(_ context: CommandContext) -> NoteResolver {
        NoteResolver(vault: vault, notes: notes, currentDirectory: context.currentDirectory)
    }

    /// Every note without its front-matter keys, problems and links (`Catalog.recordHeads`):
    /// what names, dates, counts and sorts notes, at half the cost of `notes` (or `notes`
    /// themselves when a command decoded them already).
    var summaries: [Note] { decoded.summaries(of: catalog) }

    /// A resolver of NOTE arguments over `summaries`: it answers `resolve`, `notes(titled:)` and
    /// `suggestions` as `resolver` does, without decoding every record whole.
    func namingResolver(_ context: CommandContext) -> NoteResolver {
        NoteResolver(vault: vault, notes: summaries, currentDirectory: context.currentDirectory)
    }

    /// Resolves a NOTE argument and reads the whole note (with its body) from disk.
    func resolveFully(_ argument: String, context: CommandContext) throws -> Note {
        try vault.readNote(path: resolve(argument, context: context).path)
    }
}

/// The notes a `VaultNotes` decoded, kept across its copies.
private final class DecodedNotes {
    private var all: [Note]?
    private var summaries: [Note]?

    func summaries(of catalog: VaultCatalog) -> [Note] {
        if let notes = all ?? summaries { return notes }
        let decoded = catalog.catalog.recordHeads.map { Note(record: $0, withFrontMatter: false) }
        summaries = decoded
        return decoded
    }

    func notes(of catalog: VaultCatalog, withFrontMatter: Bool) -> [Note] {
        if let all { return all }
        let decoded = catalog.catalog.records.map { Note(record: $0, withFrontMatter: withFrontMatter) }
        all = decoded
        return decoded
    }
}
