import Foundation
import QuireCore
import QuireGit
import QuireSearch
import QuireSync

/// The dates git's history gives the notes of a vault that is a git repository: for each note
/// in the `HEAD` commit, when the first commit added it (renames followed) and when the last
/// one changed it, with its blob there (a file that differs from it is dated by its file time
/// instead). Computed once by a walk of the history and kept beside the catalog
/// (`.quire/cache/dates.tsv`); when `HEAD` moves on (a sync, a pull), only the new commits
/// are walked. Notes whose front matter has dates keep them.
public struct HistoryDates: Sendable {
    /// One note's dates.
    struct Entry: Equatable, Sendable {
        var created: Date
        var updated: Date
        /// The note's blob in `HEAD`, 40 hex digits.
        var blob: String
    }

    /// By vault path: given, or those kept in the dates file, read on the first note parsed.
    private let source: EntrySource
    /// Paths whose dates changed since the dates kept before (the catalog parses them again).
    public let changedPaths: [String]

    /// By vault path (reads the dates file when they are the ones kept there).
    var entries: [String: Entry] { source.entries }

    init(entries: [String: Entry], changedPaths: [String]) {
        source = EntrySource(entries: entries)
        self.changedPaths = changedPaths
    }

    /// The dates kept for `HEAD` in `vault`'s dates file, read when first asked for: a command
    /// whose catalog is up to date parses no note and never reads the whole file; the notes
    /// in `changes` (those whose dates just changed) are answered from it.
    private init(keptIn vault: Vault, changes: [String: Entry?]) {
        source = EntrySource(keptIn: vault, changes: changes)
        changedPaths = changes.keys.sorted(by: ExactPath.precedes)
    }

    /// The dates of `vault`'s history, brought up to date with its `HEAD`; nil when the vault is
    /// no git repository (or one without commits, or its history cannot be read: the notes
    /// are dated by their files then).
    ///
    /// libgit2 is loaded only when `HEAD` moved since the dates were kept (or the files under
    /// `.git` cannot tell: `GitHeadFile`): a command that reads notes in an up-to-date vault
    /// never loads it.
    public static func load(vault: Vault) -> HistoryDates? {
        let file = vault.root.appendingPathComponent(HistoryDatesFile.path)
        switch GitHeadFile.read(vault.root) {
        case .noRepository, .unborn: return nil
        case .commit(let hex) where hex == HistoryDatesFile.head(file): return HistoryDates(keptIn: vault, changes: [:])
        case .commit, .unknown: break
        }
        return walked(vault: vault, file: file)
    }

    /// The dates of `vault`'s history from the dates `file` keeps: when they are kept for an
    /// ancestor of `HEAD`, only the notes the commits since touched are looked at and their
    /// new dates appended to the file; otherwise (none kept, a reset, a rewritten history)
    /// all of the history is walked and the file written whole (also when `whole`: the file's
    /// lines do not read).
    private static func walked(vault: Vault, file: URL, whole: Bool = false) -> HistoryDates? {
        guard let repository = try? Repository.open(at: vault.root), let head = try? repository.headCommitID() else { return nil }
        let keptHead = whole ? nil : HistoryDatesFile.head(file)
        if keptHead == head.hex { return HistoryDates(keptIn: vault, changes: [:]) }
        if let keptHead, let old = OID(hex: keptHead), (try? repository.isAncestor(old, of: head)) == true {
            var walker = HistoryWalk(repository: repository)
            let changes = try? walker.update(to: head, from: old) { paths in
                HistoryDatesFile.read(file, only: paths).flatMap { $0.head == keptHead ? $0.entries : nil }
            }
            if let changes {
                HistoryDatesFile.append(changes, from: keptHead, to: head.hex, at: file)
                return HistoryDates(keptIn: vault, changes: changes)
            }
        }
        var walker = HistoryWalk(repository: repository)
        do {
            try walker.walk(to: head)
        } catch {
            return nil
        }
        let entries = walker.entries
        let old = HistoryDatesFile.read(file)?.entries ?? [:]
        let changed = entries.filter { old[$0.key] != $0.value }.map(\.key) + old.keys.filter { entries[$0] == nil }
        HistoryDatesFile.write(HistoryDatesFile.Contents(head: head.hex, entries: entries), to: file)
        return HistoryDates(entries: entries, changedPaths: changed.sorted(by: ExactPath.precedes))
    }

    /// Entries given, or read from the dates file on first use (once, whichever thread asks);
    /// the notes whose dates a walk just changed are answered without reading it.
    private final class EntrySource: @unchecked Sendable {
        private let vault: Vault?
        private let changes: [String: Entry?]
        private let lock = NSLock()
        private var loaded: [String: Entry]?

        init(entries: [String: Entry]) {
            vault = nil
            changes = [:]
            loaded = entries
        }

        init(keptIn vault: Vault, changes: [String: Entry?]) {
            self.vault = vault
            self.changes = changes
        }

        /// The dates of the note at `path`.
        func entry(_ path: String) -> Entry? {
            if let changed = changes[path] { return changed }
            return entries[path]
        }

        var entries: [String: Entry] {
            lock.lock()
            defer { lock.unlock() }
            if let loaded { return loaded }
            // A file whose last line names HEAD but whose lines do not read is computed again.
            let file = vault.map { $0.root.appendingPathComponent(HistoryDatesFile.path) }
            let read = file.flatMap { HistoryDatesFile.read($0)?.entries }
                ?? vault.flatMap { vault in file.flatMap { HistoryDates.walked(vault: vault, file: $0, whole: true)?.entries } } ?? [:]
            loaded = read
            return read
        }
    }

    /// Whether `data` is blob `hex` as a checkout under `core.autocrlf=true` writes it: its
    /// line ends CRLF where the blob's are LF (a file with no carriage return is not).
    static func isCRLFCheckout(_ data: Data, of hex: String) -> Bool {
        guard data.contains(0x0D) else { return false }
        var normalized = Data()
        normalized.reserveCapacity(data.count)
        var index = data.startIndex
        while index < data.endIndex {
            let byte = data[index]
            let next = data.index(after: index)
            if !(byte == 0x0D && next < data.endIndex && data[next] == 0x0A) { normalized.append(byte) }
            index = next
        }
        return BlobHash.hex(normalized) == hex
    }

    /// A note parser that dates notes without front-matter dates by this history: QuireCore's
    /// parser, then `Note.fillDatesFromHistory` (`updated` only when the file is the blob of
    /// `HEAD`).
    public var parser: NoteParsing {
        let dates = self
        return { data, path in
            var note = NoteParser.parse(data, path: path)
            if note.createdAt == nil || note.updatedAt == nil { dates.fill(&note, data: data, path: path) }
            return note
        }
    }

    /// Dates `note` (read from `data` at `path`, its front matter without one of its dates) by
    /// this history: `Note.fillDatesFromHistory`, `updated` only when the file is the blob of
    /// `HEAD`.
    func fill(_ note: inout Note, data: Data, path: String) {
        guard let entry = source.entry(path) else { return }
        let same = note.updatedAt != nil || BlobHash.hex(data) == entry.blob || Self.isCRLFCheckout(data, of: entry.blob)
        note.fillDatesFromHistory(created: entry.created, updated: same ? entry.updated : nil)
    }

    /// Whether the dates kept are those of `vault`'s `HEAD` (read without libgit2, from the dates
    /// file's last line: a no-op sync never reads the file whole; false when the files cannot
    /// tell).
    public static func isCurrent(vault: Vault) -> Bool {
        switch GitHeadFile.read(vault.root) {
        case .noRepository, .unborn: return true
        case .commit(let hex): return HistoryDatesFile.head(vault.root.appendingPathComponent(HistoryDatesFile.path)) == hex
        case .unknown: return false
        }
    }

    /// Opens `vault`'s fresh catalog with its notes dated by git's history where their front
    /// matter says nothing (`FreshCatalog.open`, then the notes whose history dates changed
    /// parsed again; the dates are worked out while the catalog is loaded and the vault walked:
    /// `PendingHistoryDates`); without history, by their files' times. With `changedPaths` (what a sync
    /// wrote), only those notes are looked at (`FreshCatalog.refresh`): no walk. With
    /// `attachments`, a walk lists the vault's attachments too (`FreshCatalog.attachments`).
    public static func openCatalog(vault: Vault, rules: (any IgnoreRules)?, environment: [String: String],
                                   rebuild: Bool = false, walk: Bool = false, progress: IndexProgress? = nil,
                                   changedPaths: [String]? = nil, attachments: Bool = false,
                                   writesBehind: Bool = false) throws -> FreshCatalog {
        if let changedPaths, !rebuild {
            let dates = load(vault: vault)
            return try FreshCatalog.refresh(vault: vault, rules: rules, environment: environment, changedPaths: changedPaths,
                                            parse: dates?.parser ?? CatalogStore.defaultParser,
                                            reparsing: dates?.changedPaths ?? [])
        }
        // The new commits are walked on a thread of their own while the vault is walked; the
        // notes to parse again are asked for after the walk. History dates only notes whose
        // front matter lacks a date: when the loaded catalog holds none (every note quire
        // writes has both), the history is walked only once a note read now lacks one.
        let dates = PendingHistoryDates(vault: vault)
        // Never left running (writing the dates file) past the open, even when it throws.
        defer { dates.finish() }
        return try FreshCatalog.open(vault: vault, rules: rules, environment: environment, rebuild: rebuild, walk: walk,
                                     progress: progress, parse: dates.parser, reparsing: dates.changedPaths,
                                     attachments: attachments, writesBehind: writesBehind) { catalog in
            if catalog.count == 0 || catalog.hasNotesDatedElsewhere { dates.start() }
        }
    }
}
