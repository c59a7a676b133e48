import Foundation
import QuireCore
import QuireGit

/// Backup references `refs/quire/backup/n<sequence>-<YYYYMMDDTHHMMSSZ>`: the local head before
/// each merge, the last 50 kept, so `quire undo` can go back. They are ordered by their creation
/// sequence (the highest number so far plus one), never by the clock: a clock set back must not
/// make an older backup look newer. The time in the name is only for people. Beside each,
/// `refs/quire/result/<same name>` is the commit that sync moved the branch to, so `quire undo`
/// knows which changes came after it.
enum BackupRefs {
    static let prefix = "refs/quire/backup/"
    static let resultPrefix = "refs/quire/result/"
    static let kept = 50

    /// `20261129T120000Z` (UTC).
    static func stamp(_ date: Date) -> String {
        QuireClock.compactUTC(date)
    }

    /// Records `head` as the next backup in sequence (named with the time `now` for people),
    /// then drops the oldest beyond 50. Returns the reference name.
    @discardableResult
    static func record(_ head: OID, now: Date, repository: Repository) throws -> String {
        let existing = try all(repository)
        if let newest = existing.last, newest.target == head { return newest.name }
        let next = (existing.map { key($0).sequence }.max() ?? 0) + 1
        let name = prefix + "n" + String(format: "%06d", next) + "-" + stamp(now)
        try repository.setReference(name, to: head, force: false, message: "quire: backup before merge")
        // Housekeeping: a backup that cannot be dropped now (a lock file on it) is dropped by a
        // later sync, and never fails this one.
        for old in try all(repository).dropLast(kept) {
            try? repository.deleteReference(old.name)
            try? repository.deleteReference(resultName(of: old.name))
        }
        return name
    }

    /// Records the commit the sync that wrote backup `name` moved the branch to.
    static func recordResult(of name: String, result: OID, repository: Repository) throws {
        try repository.setReference(resultName(of: name), to: result, message: "quire: result of the sync after a backup")
    }

    /// The commit the sync that wrote backup `name` moved the branch to (nil: not recorded, as by
    /// versions before this one).
    static func result(of name: String, repository: Repository) throws -> OID? {
        try repository.referenceTarget(resultName(of: name))
    }

    static func resultName(of name: String) -> String { resultPrefix + name.dropFirst(prefix.count) }

    /// Removes backup `name` and its recorded result.
    static func remove(_ name: String, repository: Repository) throws {
        try repository.deleteReference(name)
        try repository.deleteReference(resultName(of: name))
    }

    /// The newest backup, if any.
    static func newest(repository: Repository) throws -> Reference? {
        try all(repository).last
    }

    /// The order of a backup: its sequence number; the time-named backups of earlier versions
    /// (`<time>` and `<time>-N`) come before every numbered one, by time then by counter.
    static func key(_ reference: Reference) -> (sequence: Int, time: String, counter: Int) {
        let name = reference.name.dropFirst(prefix.count)
        if name.first == "n", let dash = name.firstIndex(of: "-"),
           let sequence = Int(name[name.index(after: name.startIndex)..<dash]) {
            return (sequence, "", 0)
        }
        let parts = name.split(separator: "-", maxSplits: 1)
        return (0, String(parts.first ?? name[...]), parts.count > 1 ? Int(parts[1]) ?? 0 : 1)
    }

    /// Every backup, oldest first (by creation sequence; see `key`).
    static func all(_ repository: Repository) throws -> [Reference] {
        try repository.references(matching: prefix + "*").sorted { key($0) < key($1) }
    }
}
