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
        let existing = try all(repository)
        if let newest = existing.last, newest.target == head { return newest.name }
        var name = prefix + stamp(now)
        var counter = 2
        while existing.contains(where: { $0.name == name }) {
            name = prefix + stamp(now) + "-\(counter)"
            counter += 1
        }
        try repository.setReference(name, to: head, force: false, message: "quire: backup before merge")
        for old in try all(repository).dropLast(kept) { try repository.deleteReference(old.name) }
        return name
    }

    /// The newest backup, if any.
    static func newest(repository: Repository) throws -> Reference? {
        try all(repository).last
    }

    /// Every backup, oldest first: by time, then by the `-N` counter as a number (so `-10`
    /// comes after `-9`, which plain name order gets wrong).
    static func all(_ repository: Repository) throws -> [Reference] {
        func key(_ reference: Reference) -> (String, Int) {
            let name = reference.name.dropFirst(prefix.count)
            let parts = name.split(separator: "-", maxSplits: 1)
            return (String(parts.first ?? name[...]), parts.count > 1 ? Int(parts[1]) ?? 0 : 1)
        }
        return try repository.references(matching: prefix + "*").sorted { key($0) < key($1) }
    }
}
