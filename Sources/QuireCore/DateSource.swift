import Foundation

/// Where a note's `createdAt` or `updatedAt` came from: a front-matter key (the canonical one or
/// one other tools write, see `NoteFields`), else git's history, else the file's modification
/// time (most notes written outside quire have no such key). See Docs/format.md.
public enum DateSource: Equatable, Sendable {
    /// A front-matter key, spelled as in `NoteFields.createdAtKeys` / `updatedAtKeys`.
    case frontMatter(String)
    /// The file's modification time (`mtime`): the file is in no commit, or (for `updatedAt`)
    /// it differs from the last commit.
    case fileModified
    /// Git's history: `createdAt` from the first commit that added the file (renames
    /// followed), `updatedAt` from the last commit that changed it.
    case git

    /// How `--json` names it: `frontMatter:<key>`, `git` or `fileModified`.
    public var name: String {
        switch self {
        case .frontMatter(let key): return "frontMatter:" + key
        case .fileModified: return "fileModified"
        case .git: return "git"
        }
    }
}

extension Note {
    /// Gives a note without dates in its front matter the file's modification time:
    /// `updatedAt` becomes `modified`; `createdAt` becomes the earlier of `updatedAt` and
    /// `modified` (a note is never created after it was last updated). Dates read from the
    /// front matter are kept.
    public mutating func fillMissingDates(modified: Date) {
        fillMissing(created: modified, updated: modified, source: .fileModified)
    }

    /// Gives a note without dates in its front matter the dates of git's history: `created`
    /// (the first commit that added the file) becomes `createdAt` (or the front matter's
    /// `updatedAt` when that is earlier); `updated` (the last commit that changed it, nil when
    /// the file differs from that commit) becomes `updatedAt`. What stays missing is filled by
    /// `fillMissingDates(modified:)`.
    public mutating func fillDatesFromHistory(created: Date, updated: Date?) {
        fillMissing(created: created, updated: updated, source: .git)
    }

    private mutating func fillMissing(created: Date, updated: Date?, source: DateSource) {
        let readUpdatedAt = updatedAt
        if updatedAt == nil, let updated {
            updatedAt = updated
            updatedAtSource = source
        }
        if createdAt == nil {
            if let readUpdatedAt, readUpdatedAt < created {
                createdAt = readUpdatedAt
                createdAtSource = updatedAtSource
            } else {
                createdAt = created
                createdAtSource = source
            }
        }
    }
}

extension FileStamp {
    /// The modification time as a date (microsecond precision).
    public var modified: Date {
        let (seconds, nanoseconds) = modifiedNanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds / 1000) / 1e6)
    }
}

extension Note {
    /// `date` (the note's `createdAt` or `updatedAt`, read from `source`) as quire writes an
    /// instant: in the offset its front-matter value was written with, else in `timeZone`
    /// (`QuireClock.iso8601(_:writtenAs:timeZone:)`). Nil when `date` is nil.
    public func iso8601(_ date: Date?, from source: DateSource?, timeZone: TimeZone = .current) -> String? {
        guard let date else { return nil }
        var written: String?
        if case .frontMatter(let key)? = source { written = value(forKey: key)?.scalarText }
        return QuireClock.iso8601(date, writtenAs: written, timeZone: timeZone)
    }
}
