import Foundation
import QuireCore

/// Which notes are journal entries: notes named by a date (`2026-03-14.md`,
/// `2026-03-14 Saturday.md`, `20260314.md`, `2026_03_14.md`) or kept in the daily folder
/// (`daily: folder:` in `.quire/config.yml`, default `Journal`). A journal repeats its titles by
/// habit ("Daily log"), so `quire check` lets them share one.
public struct JournalNotes: Sendable {
    /// The daily folder, from the vault root (no trailing slash).
    public let dailyFolder: String

    /// The journal rules of `vault` (its daily folder from its config).
    public init(vault: Vault) throws {
        self.init(dailyFolder: DailyNote.Settings(config: try vault.config()).folder)
    }

    /// The rules with `dailyFolder` as the daily folder.
    public init(dailyFolder: String) {
        self.dailyFolder = dailyFolder.split(separator: "/").joined(separator: "/")
    }

    /// Whether the note at vault-relative `path` is a journal entry.
    public func contains(_ path: String) -> Bool {
        if !dailyFolder.isEmpty, path.hasPrefix(dailyFolder + "/") { return true }
        return Self.isDated(NoteParser.stem(of: path))
    }

    /// Whether a file name (without `.md`) starts with a date: `YYYY-MM-DD`, `YYYY_MM_DD` or
    /// `YYYYMMDD`, then nothing or a separator.
    static func isDated(_ stem: String) -> Bool {
        let scalars = Array(stem.unicodeScalars)
        func digits(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= scalars.count else { return nil }
            var value = 0
            for scalar in scalars[range] {
                guard ("0"..."9").contains(scalar) else { return nil }
                value = value * 10 + Int(scalar.value - 48)
            }
            return value
        }
        let separated = scalars.count >= 10 && (scalars[4] == "-" || scalars[4] == "_") && scalars[7] == scalars[4]
        let layout: (year: Range<Int>, month: Range<Int>, day: Range<Int>, end: Int) =
            separated ? (0..<4, 5..<7, 8..<10, 10) : (0..<4, 4..<6, 6..<8, 8)
        guard let year = digits(layout.year), let month = digits(layout.month), let day = digits(layout.day),
              year >= 1000, (1...12).contains(month), (1...31).contains(day) else { return false }
        guard layout.end < scalars.count else { return true }
        return !("0"..."9").contains(scalars[layout.end])
    }
}
