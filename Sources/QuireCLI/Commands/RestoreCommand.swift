import Foundation
import QuireCore
import QuireGit
import QuireSync

/// `quire restore NOTE [--at REV | --conflict ID]` — brings back an older or losing version.
struct RestoreCommand: Command {
    static let configuration = CommandConfiguration(
        name: "restore",
        abstract: "Bring back a note: a deleted one, an older version (--at), or a conflict's losing version.",
        usage: "restore NOTE [--at REV | --conflict ID]",
        discussion: """
        Without options NOTE is the path of a deleted note ('quire history --deleted' lists them);
        its last version is written back — or, for a note removed before it was ever committed,
        its copy in .quire/local/trash/. --at REV writes the note as it was in commit REV (see
        'quire history NOTE'). --conflict ID writes back the version that lost an automatic merge
        ('quire conflicts' lists them). The restored note gets a fresh updatedAt, so the next sync
        carries it to every device. Nothing is committed until 'quire sync'.
        """,
        examples: ["quire restore Drafts/old-idea.md", "quire restore \"Woody's last ride\" --at 3f2b9c1",
                   "quire restore \"Woody's last ride\" --conflict 8c41e2a9"],
        options: [
            .value("--at", name: "REV", help: "A commit (id, prefix, HEAD~2, …) to take the note from."),
            .value("--conflict", name: "ID", help: "A conflict id from 'quire conflicts'."),
            NoteEditor.forceOption,
        ],
        positionals: 1...1)

    let note: String
    let revision: String?
    let conflict: String?
    let force: Bool

    init(_ arguments: ParsedArguments) throws {
        note = arguments.positionals[0]
        force = arguments.has("--force")
        revision = arguments.value("--at")
        conflict = arguments.value("--conflict")
        if revision != nil && conflict != nil { throw CLIError.usage("--at and --conflict cannot be used together") }
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let repository = try Repository.open(at: vault.root)
        let path = try HistoryCommand.notePath(note, context: context, vault: vault)
        let data: Data
        let source: String
        if let conflict {
            (data, source) = try RestoreCommand.conflictVersion(conflict, path: path, repository: repository)
        } else {
            let history = NoteHistory(repository: repository)
            if let revision {
                let commit = try RestoreCommand.commit(named: revision, in: repository)
                guard let version = try Self.version(of: path, in: commit, history: history) else {
                    throw CLIError("\(path) is not in commit \(revision)", hint: "'quire history NOTE' lists the commits that have it")
                }
                data = version
                source = "commit \(commit.short())"
            } else {
                guard !FileManager.default.fileExists(atPath: vault.url(for: path).path) else {
                    throw CLIError("\(path) exists; nothing to restore",
                                   hint: "to go back to an older version use --at REV ('quire history NOTE' lists them)")
                }
                if let trashed = Self.newestInTrash(path, vault: vault) {
                    // A note removed before it was ever committed: `quire rm` moved it to the trash.
                    try FileMover.move(in: vault, from: trashed, to: path)
                    context.output.line("restored \(context.displayPath(path, vault: vault)) from the trash")
                    return
                }
                guard let deleted = try history.deletedNotes().first(where: { $0.path == path }),
                      let version = try history.version(of: path, in: deleted.lastCommit) else {
                    throw CLIError("\(path) is not a deleted note in history or in the trash",
                                   hint: "'quire history --deleted' lists deleted notes")
                }
                data = version
                source = "commit \(deleted.lastCommit.short()), before it was deleted"
            }
        }
        if !force { try NoteEditor.refuseWriteProtected(vault: vault, path: path) }
        var document = NoteDocument(data: data)
        if document.format == .yaml && document.isEditable {
            try document.setUpdatedAt(context.now())
        }
        try FileManager.default.createDirectory(at: vault.url(for: path).deletingLastPathComponent(),
                                                withIntermediateDirectories: true)
        try vault.write(document.serialized(), to: path)
        context.output.line("restored \(context.displayPath(path, vault: vault)) from \(source)")
    }

    /// The commit a REV argument names; an unknown one is a clear error.
    static func commit(named revision: String, in repository: Repository) throws -> OID {
        do {
            return try repository.resolveCommit(revision)
        } catch let error as GitError where error.code == .notFound || error.code == .invalidSpec || error.code == .ambiguous {
            throw CLIError("no commit '\(revision)' in this vault's history", hint: "'quire history NOTE' lists the commits")
        }
    }

    /// The newest copy of `path` in `.quire/local/trash/<stamp>/`, as a vault-relative path.
    static func newestInTrash(_ path: String, vault: Vault) -> String? {
        let trash = vault.url(for: ".quire/local/trash")
        let stamps = (try? FileManager.default.contentsOfDirectory(atPath: trash.path)) ?? []
        for stamp in stamps.sorted(by: >) {
            let candidate = ".quire/local/trash/\(stamp)/\(path)"
            if FileManager.default.fileExists(atPath: vault.url(for: candidate).path) { return candidate }
        }
        return nil
    }

    /// The losing version recorded by conflict `id` for `path`.
    static func conflictVersion(_ id: String, path: String, repository: Repository) throws -> (Data, String) {
        guard let root = repository.workDirectory else { throw CLIError("the vault has no work tree") }
        let log = try ConflictLog(vaultRoot: root)
        let record = try log.record(id)
        guard let data = try log.losingVersion(of: record) else { throw ConflictShowCommand.noLosingVersion(record) }
        return (data, "conflict \(record.id) (the \(record.winner == .ours ? "theirs" : "ours") side of the merge)")
    }

    /// The note at `path` in `commit`, or at a path it had before a rename.
    static func version(of path: String, in commit: OID, history: NoteHistory) throws -> Data? {
        if let data = try history.version(of: path, in: commit) { return data }
        var tried: Set<String> = [path]
        for entry in try history.entries(for: path) where tried.insert(entry.path).inserted {
            if let data = try history.version(of: entry.path, in: commit) { return data }
        }
        return nil
    }
}
