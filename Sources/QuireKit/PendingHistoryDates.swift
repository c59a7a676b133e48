import Foundation
import QuireCore
import QuireSearch

/// A vault's history dates (`HistoryDates.load`) worked out on a thread of their own once
/// started: after `HEAD` moved (a pull, a sync) the new commits are walked while the vault is
/// walked on the command's thread, and the first note parsed that lacks a date in its front
/// matter (or the list of notes to parse again) waits for them. Started by whoever first needs
/// them (`start`, `value`): a command whose catalog holds no note dated by the history and that
/// reads none without dates never walks it (`HistoryDates.openCatalog`). Nothing the walk or
/// the catalog reads is written by the dates (they keep `.quire/cache/dates.tsv`, which
/// neither looks at).
final class PendingHistoryDates: @unchecked Sendable {
    private let vault: Vault
    private let finished = DispatchGroup()
    private let lock = NSLock()
    /// Whether the thread was started (under `lock`).
    private var started = false
    /// Set by the thread before `finished` is left, read only after waiting on it.
    private var dates: HistoryDates?

    /// The dates of `vault`'s history, not started yet.
    init(vault: Vault) {
        self.vault = vault
    }

    /// Starts working out the dates on a thread of their own (once; later calls do nothing).
    func start() {
        lock.lock()
        defer { lock.unlock() }
        guard !started else { return }
        started = true
        finished.enter()
        Thread.detachNewThread { [self] in
            dates = HistoryDates.load(vault: vault)
            finished.leave()
        }
    }

    /// Whether the dates were started.
    private var isStarted: Bool { lock.withLock { started } }

    /// The dates, once worked out, started now if nothing started them (nil: no history, the
    /// notes are dated by their files).
    var value: HistoryDates? {
        start()
        finished.wait()
        return dates
    }

    /// Waits for the dates when they were started (their thread may be writing the dates file).
    func finish() {
        if isStarted { finished.wait() }
    }

    /// A note parser that dates a note whose front matter lacks a date by the history
    /// (`HistoryDates.fill`), waiting for it then; other notes are QuireCore's parser's alone.
    var parser: NoteParsing {
        { [self] data, path in
            var note = NoteParser.parse(data, path: path)
            if note.createdAt == nil || note.updatedAt == nil, let dates = value {
                dates.fill(&note, data: data, path: path)
            }
            return note
        }
    }

    /// The notes whose history dates changed since the dates kept before (waits for them);
    /// none when nothing started the dates: no note of the catalog takes a date from them.
    var changedPaths: [String] { isStarted ? value?.changedPaths ?? [] : [] }
}
