import Foundation

/// Reads the date values of `created:` and `updated:` filters: `YYYY`, `YYYY-MM`,
/// `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM]` (local time unless an offset is given),
/// `today`, `yesterday`, and relative values `N` + `h|d|w|m|y` (m = month) meaning that long
/// before `now`, in local time.
///
/// The time zone is asked for, and the calendar made, only when a date is read: most queries
/// have none, and finding the current time zone (reading `/etc/localtime`, the environment) and
/// making a calendar cost a warm search a tenth of a millisecond or more.
struct QueryDateParser {
    let now: Date
    private let timeZone: () -> TimeZone

    init(now: Date, timeZone: @escaping () -> TimeZone) {
        self.now = now
        self.timeZone = timeZone
    }

    /// The Gregorian calendar in the time zone dates are read in.
    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone()
        return calendar
    }

    /// The span or instant `text` names; `ahead` reads an age (`7d`) as that long after `now`
    /// instead of before it (deadlines).
    func parse(_ text: String, ahead: Bool = false) -> DateBound? {
        let lowered = text.lowercased()
        if lowered == "today" || lowered == "yesterday" {
            let calendar = self.calendar
            let today = calendar.startOfDay(for: now)
            let start = lowered == "today" ? today : calendar.date(byAdding: .day, value: -1, to: today)
            guard let start, let end = calendar.date(byAdding: .day, value: 1, to: start) else { return nil }
            return DateBound(start: start, end: end)
        }
        if let relative = relative(lowered, sign: ahead ? 1 : -1) { return DateBound(start: relative, end: relative) }
        return absolute(text)
    }

    private func relative(_ text: String, sign: Int) -> Date? {
        guard let unit = text.last, let amount = Int(text.dropLast()), amount >= 0,
              text.dropLast().allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let calendar = self.calendar
        switch unit {
        case "h": return now.addingTimeInterval(3600 * Double(sign * amount))
        case "d": return calendar.date(byAdding: .day, value: sign * amount, to: now)
        case "w": return calendar.date(byAdding: .day, value: sign * 7 * amount, to: now)
        case "m": return calendar.date(byAdding: .month, value: sign * amount, to: now)
        case "y": return calendar.date(byAdding: .year, value: sign * amount, to: now)
        default: return nil
        }
    }

    private func absolute(_ text: String) -> DateBound? {
        var rest = Substring(text)
        func number(_ digits: Int) -> Int? {
            let part = rest.prefix(digits)
            guard part.count == digits, part.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            rest = rest.dropFirst(digits)
            return Int(part)
        }
        func skip(_ separator: Character) -> Bool {
            guard rest.first == separator else { return false }
            rest = rest.dropFirst()
            return true
        }
        guard let year = number(4) else { return nil }
        let calendar = self.calendar
        var parts = DateComponents(year: year, month: 1, day: 1, hour: 0, minute: 0, second: 0)
        var unit = Calendar.Component.year
        if skip("-") {
            guard let month = number(2), (1...12).contains(month) else { return nil }
            parts.month = month; unit = .month
            if skip("-") {
                guard let day = number(2), (1...31).contains(day) else { return nil }
                parts.day = day; unit = .day
                if skip("T") || skip("t") {
                    guard let hour = number(2), hour < 24, skip(":"), let minute = number(2), minute < 60
                    else { return nil }
                    parts.hour = hour; parts.minute = minute; unit = .minute
                    if skip(":") {
                        guard let second = number(2), second < 61 else { return nil }
                        parts.second = second; unit = .second
                    }
                }
            }
        }
        var zone = calendar.timeZone
        if skip("Z") || skip("z") {
            zone = TimeZone(secondsFromGMT: 0) ?? zone
        } else if let sign = rest.first, sign == "+" || sign == "-", unit == .minute || unit == .second {
            rest = rest.dropFirst()
            guard let hours = number(2) else { return nil }
            _ = skip(":")
            guard let minutes = number(2),
                  let offsetZone = TimeZone(secondsFromGMT: (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60))
            else { return nil }
            zone = offsetZone
        }
        guard rest.isEmpty else { return nil }
        var local = calendar
        local.timeZone = zone
        guard let start = local.date(from: parts),
              local.component(.day, from: start) == parts.day,
              let end = local.date(byAdding: unit, value: 1, to: start) else { return nil }
        return DateBound(start: start, end: end)
    }
}
