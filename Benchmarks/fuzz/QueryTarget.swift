import Foundation

/// Fuzz target for the query parser (compiled into the QuireSearch module by fuzz.sh).
/// Property: `NoteQuery.parse` never crashes; a thrown `QueryError` is a fine answer.
enum FuzzTarget {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let utc = TimeZone(identifier: "UTC") ?? .current

    static func run(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        _ = try? NoteQuery.parse(text, now: now, timeZone: utc)
        // The CLI path: NUL-separated arguments, re-quoted and joined.
        let arguments = data.split(separator: 0, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        _ = try? NoteQuery.parse(arguments: arguments, now: now, timeZone: utc)
    }
}
