import Foundation
import QuireCore
import QuireGit
import QuireSync

/// `quire restore`: brings back a deleted note, an older version, or the version that lost an
/// automatic merge. The restored note gets a fresh `updatedAt` (`NoteStamp`), so the next sync
/// carries it to every device; nothing is committed. A note with changes not committed yet is
/// never overwritten unasked.
public enum NoteRestore {
    /// What to bring back.
    public enum Source: Equatable, Sendable {
        /// A deleted note: from the trash, else the last commit, else the commit before its deletion.
        case deleted
        /// The note as it was in the commit a revision names.
        case revision(String)
        /// The losing version of conflict `id`: its changes applied onto the current note, or
        /// (`whole`) the whole losing version.
        case conflict(id: String, whole: Bool)
    }

    /// What to restore and how.
    public struct Options: Sendable {
        /// The vault-relative path of the note.
        public var path: String
        /// What to bring back.
        public var source: Source
        /// Overwrite changes not committed yet (a copy is kept in the trash first), or a read-only note.
        public var force: Bool
        /// The time for `updatedAt` and the trash folder.
        public var now: Date
        /// The process environment (the catalog that finds which note has an id reads it).
        public var environment: [String: String]

        /// Creates options.
        public init(path: String, source: Source, force: Bool = false, now: Date, environment: [String: String] = [:]) {
            self.path = path
            self.source = source
            self.force = force
            self.now = now
            self.environment = environment
        }
    }

    /// Where the restored version came from.
    public enum Origin: Equatable, Sendable {
        /// The trash (a note removed before it was ever committed); written back as it was.
        case trash
        /// The last commit (a note removed since); written back as it was.
        case lastCommit(CommitID)
        /// The commit `--at` named.
        case commit(CommitID)
        /// The last commit that had a deleted note.
        case beforeDeletion(CommitID)
        /// Conflict `id`; `losingSide` names the device whose version lost (`phone`); `applied`:
        /// its changes were applied onto the current note (else the whole losing version was written).
        case conflict(id: String, losingSide: String, applied: Bool)
    }

    /// What a restore did.
    public struct Report: Equatable, Sendable {
        /// The note restored (vault-relative).
        public var path: String
        /// Where its version came from.
        public var origin: Origin
        /// Where the unsynced version it replaced was kept (vault-relative), when one was.
        public var keptCopy: String?
        /// Whether git ignores the restored note's path (a `.gitignore` made since): it is back in
        /// this vault, but no sync will carry it.
        public var ignored = false
    }

    /// Restores a note as `options` say.
    public static func run(_ options: Options, vault: Vault) throws -> Report {
        var report = try restore(options, vault: vault)
        report.ignored = (try? GitIgnoreRules.of(vault, environment: options.environment)?.isIgnoredFile(report.path)) == true
        return report
    }

    private static func restore(_ options: Options, vault: Vault) throws -> Report {
        var path = options.path
        let history = try VaultHistory(vault: vault)
        let exists = FileManager.default.fileExists(atPath: vault.url(for: path).path)
        let current = exists ? try vault.readData(path) : nil
        let data: Data
        let origin: Origin
        var kept: String?
        switch options.source {
        case let .conflict(id, whole):
            let version = try conflictVersion(id, path: path, current: whole ? nil : current, now: options.now,
                                              repository: history.repository)
            data = version.data
            origin = version.origin
            if case .conflict(_, _, false) = origin {
                kept = try keepUnsynced(current, options: options, vault: vault, history: history)
            }
        case .revision(let revision):
            let (version, commit) = try history.version(of: path, at: revision)
            data = version
            origin = .commit(commit)
            kept = try keepUnsynced(current, options: options, vault: vault, history: history)
        case .deleted:
            guard !exists else { throw KitError.nothingToRestore(path: path) }
            if let trashed = TrashStamp.newestInTrash(path, vault: vault) {
                // A note removed before it was ever committed: `quire rm` moved it to the trash.
                try FileMover.move(in: vault, from: trashed, to: path)
                return Report(path: path, origin: .trash)
            }
            if let head = try history.repository.headCommitID(), let committed = try history.history.version(of: path, in: head) {
                // Removed since the last commit (`quire rm` of a synced note): HEAD still has it.
                try vault.write(committed, to: path)
                return Report(path: path, origin: .lastCommit(CommitID(head)))
            }
            guard let deleted = try history.history.deletedNotes().first(where: { $0.path == path }),
                  let version = try history.history.version(of: path, in: deleted.lastCommit) else {
                throw KitError.notDeleted(path: path)
            }
            data = version
            origin = .beforeDeletion(CommitID(deleted.lastCommit))
        }
        if let restoredID = NoteParser.parseFrontMatter(data, path: path).id?.lowercased() {
            if let current, let currentID = NoteParser.parseFrontMatter(current, path: path).id?.lowercased(),
               currentID != restoredID {
                // Another note lives at this path now (deleted, then a new one made): it stays,
                // and the older note comes back beside it.
                let folder = path.contains("/") ? String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) : ""
                path = try FileMover.freePath(in: vault, folder: folder, fileName: String(path.split(separator: "/").last ?? ""))
            } else if current == nil,
                      let other = try JSONImport.existingIDs(vault, environment: options.environment)[restoredID]?.first {
                throw KitError.idInUse(path: path, other: other)
            }
        }
        if !options.force, try vault.isWriteProtected(path) { throw KitError.writeProtected(path: path) }
        try FileManager.default.createDirectory(at: vault.url(for: path).deletingLastPathComponent(),
                                                withIntermediateDirectories: true)
        try vault.write(try NoteStamp.stampingReplacement(data, at: options.now), to: path)
        return Report(path: path, origin: origin, keptCopy: kept)
    }

    /// The losing version recorded by conflict `id` for `path`, its changes (against the merge
    /// base) applied three ways onto `current` when there is a current note and a base — the
    /// losing text wins where they collide.
    static func conflictVersion(_ id: String, path: String, current: Data?, now: Date,
                                repository: Repository) throws -> (data: Data, origin: Origin) {
        guard let root = repository.workDirectory else { throw KitError.noWorkTree }
        let log = try ConflictLog(vaultRoot: root)
        let record = try log.record(id)
        guard let data = try log.losingVersion(of: record) else {
            throw KitError.noLosingVersion(id: record.id, path: record.path, reason: record.reason)
        }
        let side = record.sides.name(of: record.winner.other)
        guard let current, let base = try log.baseVersion(of: record) else {
            return (data, .conflict(id: record.id, losingSide: side, applied: false))
        }
        return (try applyChanges(of: data, base: base, onto: current, path: path, now: now),
                .conflict(id: record.id, losingSide: side, applied: true))
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

    /// Refuses to overwrite `current` when it has changes not committed yet, unless forced,
    /// which first copies it to `.quire/local/trash/<time>/`; returns where the copy went.
    private static func keepUnsynced(_ current: Data?, options: Options, vault: Vault, history: VaultHistory) throws -> String? {
        guard let current, try !history.isCommittedUnchanged(options.path, data: current) else { return nil }
        guard options.force else { throw KitError.unsyncedChanges(path: options.path) }
        let kept = TrashStamp.freeTrashPath(for: options.path, at: options.now, in: vault)
        try FileManager.default.createDirectory(at: vault.url(for: kept).deletingLastPathComponent(), withIntermediateDirectories: true)
        try vault.write(current, to: kept)
        return kept
    }
}
