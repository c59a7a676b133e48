import Foundation
import QuireGit

/// Backup references `refs/quire/backup/<YYYYMMDDTHHMMSSZ>`: the local head before each merge,
/// the last 50 kept, so `quire undo` can go back.
enum BackupRefs {
    static let prefix = "refs/quire/backup/"
    static let kept = 50

    /// `20261129T120000Z` (UTC).
    static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    /// Records `head` under the time `now` (a second backup in the same second gets `-2`, …),
    /// then drops the oldest beyond 50. Returns the reference name.
    @discardableResult
    static func record(_ head: OID, now: Date, repository: Repository) throws -> String {
        let existing = try repository.references(matching: prefix + "*")
        if let newest = existing.last, newest.target == head { return newest.name }
        var name = prefix + stamp(now)
        var counter = 2
        while existing.contains(where: { $0.name == name }) {
            name = prefix + stamp(now) + "-\(counter)"
            counter += 1
        }
        try repository.setReference(name, to: head, force: false, message: "quire: backup before merge")
        let all = try repository.references(matching: prefix + "*")
        for old in all.dropLast(kept) { try repository.deleteReference(old.name) }
        return name
    }

    /// The newest backup, if any.
    static func newest(repository: Repository) throws -> Reference? {
        try repository.references(matching: prefix + "*").last
    }
}
