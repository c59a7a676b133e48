import Foundation
import QuireCore
import QuireGit
import QuireSync

/// `quire restore NOTE [--at REV | --conflict ID]` — brings back an older or losing version.
struct RestoreCommand: Command {
    static let configuration = CommandConfiguration(
        name: "restore",
        abstract: "Bring back a note: a deleted one, an older version (--at), or a conflict's losing version.",
        usage: "restore NOTE [--at REV | --conflict ID [--whole]] [--force]",
        discussion: """
        Without options NOTE is the path of a deleted note ('quire history --deleted' lists them);
        its last version is written back — or, for a note removed before it was ever committed,
        its copy in .quire/local/trash/. --at REV writes the note as it was in commit REV (see
        'quire history NOTE'). --conflict ID applies the changes of the version that lost an
        automatic merge ('quire conflicts' lists them) onto the note as it is now, three ways: where
        they collide with the current text the losing version's text wins, everything else of the
        current note stays; --whole writes the losing version over the whole note instead. A note
        with changes not synced yet is never overwritten unasked: --at and --whole refuse, and with
        --force keep your version in .quire/local/trash/ first. The restored note gets a fresh
        updatedAt, so the next sync carries it to every device. Nothing is committed until 'quire sync'.
        """,
        examples: ["quire restore Drafts/old-idea.md", "quire restore \"Woody's last ride\" --at 3f2b9c1",
                   "quire restore \"Woody's last ride\" --conflict 8c41e2a9"],
        options: [
            .value("--at", name: "REV", help: "A commit (id, prefix, HEAD~2, …) to take the note from."),
            .value("--conflict", name: "ID", help: "A conflict id from 'quire conflicts'."),
            .flag("--whole", help: "With --conflict: write the whole losing version instead of applying its changes."),
            .flag("--force", help: "Overwrite changes not synced yet (they are kept in .quire/local/trash/), or a read-only note."),
        ],
        positionals: 1...1)

    let note: String
    let revision: String?
    let conflict: String?
    let whole: Bool
    let force: Bool

    init(_ arguments: ParsedArguments) throws {
        note = arguments.positionals[0]
        revision = arguments.value("--at")
        conflict = arguments.value("--conflict")
        whole = arguments.has("--whole")
        force = arguments.has("--force")
        if revision != nil && conflict != nil { throw CLIError.usage("--at and --conflict cannot be used together") }
        if whole && conflict == nil { throw CLIError.usage("--whole goes with --conflict ID") }
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let repository = try Repository.open(at: vault.root)
        let path = try HistoryCommand.notePath(note, context: context, vault: vault)
        let data: Data
        let source: String
        let current = FileManager.default.fileExists(atPath: vault.url(for: path).path) ? try vault.readData(path) : nil
        if let conflict {
            let replacesWhole: Bool
            (data, source, replacesWhole) = try RestoreCommand.conflictVersion(conflict, path: path, current: whole ? nil : current,
                                                                              now: try context.now(), repository: repository)
            if replacesWhole { try keepUnsynced(current, path: path, vault: vault, repository: repository, context: context) }
        } else {
            let history = NoteHistory(repository: repository)
            if let revision {
                let commit = try RestoreCommand.commit(named: revision, in: repository)
                guard let version = try Self.version(of: path, in: commit, history: history) else {
                    throw CLIError("\(path) is not in commit \(revision)", hint: "'quire history NOTE' lists the commits that have it")
                }
                data = version
                source = "commit \(commit.short())"
                try keepUnsynced(current, path: path, vault: vault, repository: repository, context: context)
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
                if let head = try repository.headCommitID(), let committed = try history.version(of: path, in: head) {
                    // Removed since the last commit (`quire rm` of a synced note): HEAD still has it.
                    try vault.write(committed, to: path)
                    context.output.line("restored \(context.displayPath(path, vault: vault)) from the last commit (\(head.short()))")
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
        try FileManager.default.createDirectory(at: vault.url(for: path).deletingLastPathComponent(),
                                                withIntermediateDirectories: true)
        try vault.write(try NoteStamp.stampingReplacement(data, at: context.now()), to: path)
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
        for stamp in stamps.sorted(by: { TrashStamp.isOlder($1, $0) }) {
            let candidate = ".quire/local/trash/\(stamp)/\(path)"
            if FileManager.default.fileExists(atPath: vault.url(for: candidate).path) { return candidate }
        }
        return nil
    }

    /// The losing version recorded by conflict `id` for `path`, its changes (against the merge
    /// base) applied three ways onto `current` when there is a current note and a base — the
    /// losing text wins where they collide. The flag says whether it replaces the whole note.
    static func conflictVersion(_ id: String, path: String, current: Data?, now: Date,
                                repository: Repository) throws -> (Data, String, Bool) {
        guard let root = repository.workDirectory else { throw CLIError("the vault has no work tree") }
        let log = try ConflictLog(vaultRoot: root)
        let record = try log.record(id)
        guard let data = try log.losingVersion(of: record) else { throw ConflictShowCommand.noLosingVersion(record) }
        let side = "the version from \(record.sides.name(of: record.winner.other))"
        guard let current, let base = try log.baseVersion(of: record) else { return (data, "conflict \(record.id) (\(side))", true) }
        return (try applyChanges(of: data, base: base, onto: current, path: path, now: now),
                "conflict \(record.id) (the changes of \(side), applied onto the current note)", false)
    }

    /// `losing`'s changes against `base` applied onto `current`: the front matter key by key and
    /// the body line by line, `losing` winning only where both changed the same key or lines.
    static func applyChanges(of losing: Data, base: Data, onto current: Data, path: String, now: Date) throws -> Data {
        let keyed = try MergeResolver(strategy: .theirs).merge(path: path, base: base, ours: MergeSide(data: current, commitTime: now),
                                                               theirs: MergeSide(data: losing, commitTime: now)).merged
        var document = NoteDocument(data: keyed)
        let body = { (data: Data) in Data(NoteDocument(data: data).body.utf8) }
        let lines = try MergeFile.merge(base: body(base), ours: body(current), theirs: body(losing), path: path, favoringTheirs: true)
        document.body = String(decoding: lines.data, as: UTF8.self)
        return document.serialized()
    }

    /// Refuses to overwrite `current` when it has changes not committed yet, unless `--force`,
    /// which first moves a copy to `.quire/local/trash/<time>/`.
    private func keepUnsynced(_ current: Data?, path: String, vault: Vault, repository: Repository,
                              context: CommandContext) throws {
        guard let current, try !RemoveCommand.isCommittedUnchanged(path, data: current, in: repository) else { return }
        let shown = context.displayPath(path, vault: vault)
        guard force else {
            throw CLIError("\(shown) has changes not synced yet; restoring would overwrite them",
                           hint: "run 'quire sync' first (your version then stays in history), or add --force to keep a copy in .quire/local/trash/ and restore")
        }
        let kept = TrashStamp.freeTrashPath(for: path, at: try context.now(), in: vault)
        try FileManager.default.createDirectory(at: vault.url(for: kept).deletingLastPathComponent(), withIntermediateDirectories: true)
        try vault.write(current, to: kept)
        context.output.line("kept your unsynced version of \(shown) in \(context.displayPath(kept, vault: vault))")
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
