import Foundation

/// Resolves a NOTE argument (DESIGN.md §5) in order: a path (relative to the current
/// directory, then to the vault root), a full id, an exact title, an exact alias, a file name
/// in any folder (with or without `.md`; these three case-insensitive), a unique id prefix of
/// at least `minimumPrefix` characters, then partially (`partialMatch`: words of the
/// title, else its letters in order). Several matches at one step throw
/// `CoreError.ambiguousNote` listing their paths; none at all throws `CoreError.noteNotFound`.
public struct NoteResolver: Sendable {
    /// The shortest id prefix accepted.
    public static let minimumPrefix = 4

    /// The vault the notes belong to.
    public let vault: Vault
    /// The notes to choose from (e.g. the catalog's).
    public let notes: [Note]
    /// The directory relative paths start from.
    public let currentDirectory: URL

    /// Creates a resolver over `notes`.
    public init(vault: Vault, notes: [Note], currentDirectory: URL) {
        self.vault = vault
        self.notes = notes
        self.currentDirectory = currentDirectory
    }

    /// The one note `argument` names.
    public func resolve(_ argument: String) throws -> Note {
        let query = argument.trimmingCharacters(in: .whitespaces)
        guard !query.isEmpty else { throw CoreError.noteNotFound(query: argument) }
        if let note = try byPath(query) { return note }
        let lowered = query.lowercased()
        if let note = try unique(notes.filter { $0.id?.lowercased() == lowered }, query) { return note }
        if let note = try unique(notes.filter { $0.title.lowercased() == lowered }, query) { return note }
        if let note = try unique(notes.filter { $0.aliases.contains { $0.lowercased() == lowered } }, query) {
            return note
        }
        let stem = lowered.hasSuffix(".md") ? String(lowered.dropLast(3)) : lowered
        if let note = try unique(notes.filter { NoteParser.stem(of: $0.path).lowercased() == stem }, query) {
            return note
        }
        if query.count >= Self.minimumPrefix,
           let note = try unique(notes.filter { $0.id?.lowercased().hasPrefix(lowered) == true }, query) {
            return note
        }
        if let note = try partialMatch(query) { return note }
        throw CoreError.noteNotFound(query: argument)
    }

    /// The one note of `matches`, nil for none; several throw `CoreError.ambiguousNote`.
    func unique(_ matches: [Note], _ query: String) throws -> Note? {
        if matches.count > 1 {
            throw CoreError.ambiguousNote(query: query, candidates: matches.map(\.path).sorted())
        }
        return matches.first
    }

    /// The note at a path relative to the current directory or the vault root, if one exists.
    private func byPath(_ query: String) throws -> Note? {
        for path in try pathCandidates(query) {
            if let note = notes.first(where: { ExactPath.same($0.path, path) }) { return note }
            if path.lowercased().hasSuffix(".md"), !Vault.isDirectory(vault.url(for: path).path) {
                return try vault.readNote(path: path)
            }
        }
        return nil
    }

    /// The vault paths of existing files that `query` (trimmed) names as a path, in the order
    /// `resolve` tries them: relative to the current directory, then to the vault root. Throws
    /// when the only file it names lies outside the vault.
    public func pathCandidates(_ query: String) throws -> [String] {
        var candidates: [String] = []
        var outside: Error?
        let fromCurrent = URL(fileURLWithPath: query, relativeTo: currentDirectory).standardizedFileURL
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: fromCurrent.path, isDirectory: &isFolder) {
            do {
                candidates.append(try vault.relativePath(of: fromCurrent))
            } catch {
                if !isFolder.boolValue { outside = error }
            }
        }
        if !query.hasPrefix("/"), let relative = try? vault.resolveSafePath(query),
           FileManager.default.fileExists(atPath: vault.url(for: relative).path) {
            candidates.append(relative)
        }
        if candidates.isEmpty, let outside { throw outside }
        return candidates
    }
}
