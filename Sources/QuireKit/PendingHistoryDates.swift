import Foundation
import QuireCore
import QuireSearch

/// A vault's history dates (`HistoryDates.load`) worked out on a thread of their own, started
/// at once: after `HEAD` moved (a pull, a sync) the new commits are walked while the catalog is
/// loaded and the vault walked on the command's thread, and the first note parsed (or the list
/// of notes to parse again) waits for them. Nothing the walk or the catalog reads is written by
/// the dates (they keep `.quire/cache/dates.tsv`, which neither looks at).
final class PendingHistoryDates: @unchecked Sendable {
    private let finished = DispatchGroup()
    /// Set by the thread before `finished` is left, read only after waiting on it.
    private var dates: HistoryDates?

    /// Starts working out the dates of `vault`'s history.
    init(vault: Vault) {
        finished.enter()
        Thread.detachNewThread { [self] in
            dates = HistoryDates.load(vault: vault)
            finished.leave()
        }
    }

    /// The dates, once worked out (nil: no history, the notes are dated by their files).
    var value: HistoryDates? {
        finished.wait()
        return dates
    }

    /// A note parser that dates notes by the history once it is known (`HistoryDates.parser`),
    /// else QuireCore's parser; it waits for the dates on its first call only.
    var parser: NoteParsing {
        let parse = ParserOnce(self)
        return { data, path in try parse.parser()(data, path) }
    }

    /// The notes whose history dates changed since the dates kept before (waits for them).
    var changedPaths: [String] { value?.changedPaths ?? [] }

    /// The parser worked out once, whichever thread asks first.
    private final class ParserOnce: @unchecked Sendable {
        private let pending: PendingHistoryDates
        private let lock = NSLock()
        private var made: NoteParsing?

        init(_ pending: PendingHistoryDates) {
            self.pending = pending
        }

        func parser() -> NoteParsing {
            lock.withLock {
                if let made { return made }
                let parse = pending.value?.parser ?? CatalogStore.defaultParser
                made = parse
                return parse
            }
        }
    }
}
