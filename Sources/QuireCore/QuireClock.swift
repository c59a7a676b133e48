import Foundation

/// The current time, overridable for tests with `QUIRE_NOW`, and the one writer of instants:
/// every time quire prints, stores or names a file with is spelled by one of these functions
/// (all through `Timestamp`), never by a Foundation date formatter.
public enum QuireClock {
    /// `QUIRE_NOW` (any ISO 8601 shape quire reads, e.g. `2026-01-02T03:04:05Z`) when set and
    /// not empty, else the system clock. Throws `CoreError.invalidTime` for an unreadable value.
    public static func now(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Date {
        guard let text = environment["QUIRE_NOW"], !text.isEmpty else { return Date() }
        guard let date = parseISO8601(text) else { throw CoreError.invalidTime(text: text) }
        return date
    }

    /// `2026-01-02T03:04:05+01:00`: ISO 8601 with seconds and the offset of `timeZone`.
    public static func iso8601(_ date: Date, timeZone: TimeZone = .current) -> String {
        Timestamp.iso.format(date, timeZone: timeZone)
    }

    /// `2026-01-02T03:04:05+01:00` for a value the user wrote: ISO 8601 with seconds, in the
    /// offset `written` carries (`Z` stays `Z`, `+0100` is written `+01:00`); a date or time
    /// written without one (or no text) takes the offset of `timeZone`.
    public static func iso8601(_ date: Date, writtenAs written: String?, timeZone: TimeZone = .current) -> String {
        guard let written, let shape = Timestamp.parse(written.trimmingCharacters(in: .whitespaces),
                                                     timeZone: timeZone)?.shape else {
            return iso8601(date, timeZone: timeZone)
        }
        switch shape.zone {
        case .none: return iso8601(date, timeZone: timeZone)
        case .utc: return iso8601UTC(date)
        case .offset:
            let zone = Timestamp.writtenOffset(written).flatMap(TimeZone.init(secondsFromGMT:))
            return iso8601(date, timeZone: zone ?? timeZone)
        }
    }

    /// `2026-01-02`: the day of `date` in `timeZone`.
    public static func day(_ date: Date, timeZone: TimeZone = .current) -> String {
        Timestamp(dateOnly: true, separator: UInt8(ascii: "T"), hasSeconds: false, fractionDigits: 0, zone: .none)
            .format(date, timeZone: timeZone)
    }

    /// `2026-01-02T02:04:05Z`: ISO 8601 in UTC.
    public static func iso8601UTC(_ date: Date) -> String {
        Timestamp(dateOnly: false, separator: UInt8(ascii: "T"), hasSeconds: true, fractionDigits: 0, zone: .utc)
            .format(date, timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
    }

    /// `20260102T020405Z`: the compact UTC form used in ref and file names.
    public static func compactUTC(_ date: Date) -> String {
        iso8601UTC(date).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
    }

    /// Reads any timestamp shape quire understands (date only and naive times in `timeZone`).
    public static func parseISO8601(_ text: String, timeZone: TimeZone = .current) -> Date? {
        Timestamp.parse(text.trimmingCharacters(in: .whitespaces), timeZone: timeZone)?.date
    }
}
