import Foundation

/// Dates written with moment.js format tokens, as Obsidian's daily notes and core templates
/// write them (`YYYY-MM-DD`, `dddd, MMMM Do YYYY`, `HH:mm`), English day and month names. Text
/// in `[brackets]` is written as it is; any character that starts no token too.
///
/// Tokens: `YYYY` `YY` (year), `Q` (quarter), `MMMM` `MMM` `MM` `M` `Mo` (month), `DDDD` `DDD`
/// (day of the year), `DD` `D` `Do` (day of the month), `dddd` `ddd` `dd` `d` (weekday, `d` 0 for
/// Sunday), `E` (ISO weekday, 1 for Monday), `WW` `W` `Wo` `ww` `w` (ISO week), `GGGG` `gggg`
/// (ISO week year), `HH` `H` `hh` `h` `kk` `k` (hour), `mm` `m`, `ss` `s`, `SSS` (milliseconds),
/// `A` `a` (AM/PM), `X` (Unix seconds), `x` (milliseconds), `Z` `ZZ` (offset).
public enum MomentFormat {
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                         "October", "November", "December"]
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    /// Longest first, so that `MMMM` is read before `MM`.
    static let tokens = ["YYYY", "GGGG", "gggg", "MMMM", "DDDD", "dddd", "MMM", "DDD", "ddd", "SSS", "YY", "MM", "Mo", "DD",
                         "Do", "dd", "WW", "Wo", "ww", "HH", "hh", "kk", "mm", "ss", "ZZ", "Q", "M", "D", "d", "E", "W", "w",
                         "H", "h", "k", "m", "s", "A", "a", "X", "x", "Z"]

    /// `date` written in `format`, in `timeZone`.
    public static func string(_ date: Date, format: String, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var iso = Calendar(identifier: .iso8601)
        iso.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond, .weekday], from: date)
        let week = iso.dateComponents([.weekOfYear, .yearForWeekOfYear], from: date)
        let dayOfYear = calendar.ordinality(of: .day, in: .year, for: date) ?? 1
        let values = Values(parts: parts, week: week.weekOfYear ?? 1, weekYear: week.yearForWeekOfYear ?? (parts.year ?? 0),
                            dayOfYear: dayOfYear, date: date, offset: timeZone.secondsFromGMT(for: date))
        var result = ""
        var rest = Substring(format)
        scan: while let first = rest.first {
            if first == "[", let close = rest.firstIndex(of: "]") {
                result += rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
                continue
            }
            for token in tokens where rest.hasPrefix(token) {
                result += values.text(of: token)
                rest = rest.dropFirst(token.count)
                continue scan
            }
            result.append(first)
            rest = rest.dropFirst()
        }
        return result
    }

    /// The parts of one date each token reads.
    private struct Values {
        let parts: DateComponents
        let week: Int
        let weekYear: Int
        let dayOfYear: Int
        let date: Date
        let offset: Int

        func text(of token: String) -> String {
            let year = parts.year ?? 0, month = parts.month ?? 1, day = parts.day ?? 1, hour = parts.hour ?? 0
            let weekday = ((parts.weekday ?? 1) - 1 + 7) % 7
            let hour12 = hour % 12 == 0 ? 12 : hour % 12
            switch token {
            case "YYYY": return String(format: "%04d", year)
            case "YY": return String(format: "%02d", year % 100)
            case "GGGG", "gggg": return String(format: "%04d", weekYear)
            case "Q": return String((month - 1) / 3 + 1)
            case "MMMM": return MomentFormat.months[month - 1]
            case "MMM": return String(MomentFormat.months[month - 1].prefix(3))
            case "MM": return pad(month)
            case "M": return String(month)
            case "Mo": return ordinal(month)
            case "DDDD": return String(format: "%03d", dayOfYear)
            case "DDD": return String(dayOfYear)
            case "DD": return pad(day)
            case "D": return String(day)
            case "Do": return ordinal(day)
            case "dddd": return MomentFormat.weekdays[weekday]
            case "ddd": return String(MomentFormat.weekdays[weekday].prefix(3))
            case "dd": return String(MomentFormat.weekdays[weekday].prefix(2))
            case "d": return String(weekday)
            case "E": return String(weekday == 0 ? 7 : weekday)
            case "WW", "ww": return pad(week)
            case "W", "w": return String(week)
            case "Wo": return ordinal(week)
            case "HH": return pad(hour)
            case "H": return String(hour)
            case "hh": return pad(hour12)
            case "h": return String(hour12)
            case "kk": return pad(hour == 0 ? 24 : hour)
            case "k": return String(hour == 0 ? 24 : hour)
            case "mm": return pad(parts.minute ?? 0)
            case "m": return String(parts.minute ?? 0)
            case "ss": return pad(parts.second ?? 0)
            case "s": return String(parts.second ?? 0)
            case "SSS": return String(format: "%03d", (parts.nanosecond ?? 0) / 1_000_000)
            case "A": return hour < 12 ? "AM" : "PM"
            case "a": return hour < 12 ? "am" : "pm"
            case "X": return String(Int64(date.timeIntervalSince1970.rounded(.down)))
            case "x": return String(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
            case "Z", "ZZ":
                let sign = offset < 0 ? "-" : "+"
                let minutes = abs(offset) / 60
                return sign + pad(minutes / 60) + (token == "Z" ? ":" : "") + pad(minutes % 60)
            default: return token
            }
        }

        private func pad(_ number: Int) -> String { String(format: "%02d", number) }

        private func ordinal(_ number: Int) -> String {
            let suffix: String
            switch (number % 10, number % 100) {
            case (_, 11...13): suffix = "th"
            case (1, _): suffix = "st"
            case (2, _): suffix = "nd"
            case (3, _): suffix = "rd"
            default: suffix = "th"
            }
            return String(number) + suffix
        }
    }
}
