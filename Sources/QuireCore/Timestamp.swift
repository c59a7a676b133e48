import Foundation

/// The written shape of a timestamp (`2024-05-01`, `2024-05-01 09:30`,
/// `2024-05-01T09:30:00+02:00`, `2024-05-01 09:30:00 +0200`, ...), recognised by its form and
/// reused to write a new time in the same form. Arithmetic is done by hand on integers: no
/// `DateFormatter` on the parse path.
struct Timestamp: Equatable, Sendable {
    /// How the zone is written after the time.
    enum Zone: Equatable, Sendable {
        /// No zone: local time (honours `TZ`).
        case none
        /// `Z`: UTC.
        case utc
        /// `+02:00` (`colon`), `+0200` or `+02` (`digits` 4 or 2), with or without a space before it.
        case offset(colon: Bool, digits: Int, space: Bool)
    }

    /// Whether only a date was written (`YYYY-MM-DD`).
    var dateOnly: Bool
    /// The character between date and time (`T` or a space).
    var separator: UInt8
    /// Whether seconds were written.
    var hasSeconds: Bool
    /// How many fraction digits were written after the seconds.
    var fractionDigits: Int
    /// The zone notation.
    var zone: Zone

    /// The shape quire writes: ISO 8601 with seconds and the local offset.
    static let iso = Timestamp(dateOnly: false, separator: UInt8(ascii: "T"), hasSeconds: true,
                               fractionDigits: 0, zone: .offset(colon: true, digits: 4, space: false))

    /// Parses `text` when it has a timestamp shape; naive times are read in `timeZone`.
    static func parse(_ text: String, timeZone: TimeZone) -> (date: Date, shape: Timestamp)? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 10, bytes.count <= 40 else { return nil }
        var reader = DigitReader(bytes: bytes)
        guard let year = reader.digits(exactly: 4), reader.skip("-"),
              let month = reader.digits(exactly: 2), reader.skip("-"),
              let day = reader.digits(exactly: 2),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        if reader.atEnd {
            let shape = Timestamp(dateOnly: true, separator: UInt8(ascii: "T"), hasSeconds: false,
                                  fractionDigits: 0, zone: .none)
            let naive = civilSeconds(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
            return (localDate(naive: Double(naive), timeZone: timeZone), shape)
        }
        guard let separator = reader.next(), separator == UInt8(ascii: "T")
                || separator == UInt8(ascii: "t") || separator == UInt8(ascii: " "),
              let hour = reader.digits(min: 1, max: 2), reader.skip(":"),
              let minute = reader.digits(exactly: 2), hour < 24, minute < 60
        else { return nil }
        var second = 0, fraction = 0.0, fractionDigits = 0, hasSeconds = false
        if reader.skip(":") {
            guard let value = reader.digits(exactly: 2), value <= 60 else { return nil }
            second = value
            hasSeconds = true
            if reader.skip(".") {
                let start = reader.position
                guard let digits = reader.digits(min: 1, max: 9) else { return nil }
                fractionDigits = reader.position - start
                fraction = Double(digits) / pow(10, Double(fractionDigits))
            }
        }
        let space = reader.skip(" ")
        var zone = Zone.none
        var offsetSeconds = 0
        if reader.skip("Z") || reader.skip("z") {
            guard !space else { return nil }
            zone = .utc
        } else if let sign = reader.peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            reader.position += 1
            guard let hours = reader.digits(exactly: 2), hours < 24 else { return nil }
            var minutes = 0, colon = false, digits = 2
            if reader.skip(":") {
                guard let value = reader.digits(exactly: 2) else { return nil }
                minutes = value; colon = true; digits = 4
            } else if let value = reader.digits(exactly: 2) {
                minutes = value; digits = 4
            }
            guard minutes < 60 else { return nil }
            offsetSeconds = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
            zone = .offset(colon: colon, digits: digits, space: space)
        } else if space {
            return nil
        }
        guard reader.atEnd else { return nil }
        let shape = Timestamp(dateOnly: false, separator: separator, hasSeconds: hasSeconds,
                              fractionDigits: fractionDigits, zone: zone)
        let naive = Double(civilSeconds(year: year, month: month, day: day, hour: hour,
                                        minute: minute, second: second)) + fraction
        if zone == .none { return (localDate(naive: naive, timeZone: timeZone), shape) }
        return (Date(timeIntervalSince1970: naive - Double(offsetSeconds)), shape)
    }

    /// Writes `date` in this shape: UTC for `Z`, else the wall time and offset of `timeZone`.
    func format(_ date: Date, timeZone: TimeZone) -> String {
        let offset = zone == .utc ? 0 : timeZone.secondsFromGMT(for: date)
        let limit = NoteFields.maxEpochSeconds
        let instant = date.timeIntervalSince1970.isFinite ? date.timeIntervalSince1970 : 0
        let local = min(max(instant + Double(offset), -limit), limit)
        let whole = Int(local.rounded(.down))
        let days = Int((Double(whole) / 86400).rounded(.down))
        let secondsOfDay = whole - days * 86400
        let (year, month, day) = Timestamp.civil(fromDays: days)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        if dateOnly { return text }
        text += String(UnicodeScalar(separator)) + pad(secondsOfDay / 3600, 2) + ":"
            + pad(secondsOfDay / 60 % 60, 2)
        if hasSeconds {
            text += ":" + pad(secondsOfDay % 60, 2)
            if fractionDigits > 0 {
                let scale = pow(10, Double(fractionDigits))
                let fraction = min(Int(((local - Double(whole)) * scale).rounded()), Int(scale) - 1)
                text += "." + pad(fraction, fractionDigits)
            }
        }
        switch zone {
        case .none: break
        case .utc: text += "Z"
        case let .offset(colon, digits, space):
            let magnitude = abs(offset) / 60
            text += (space ? " " : "") + (offset < 0 ? "-" : "+") + pad(magnitude / 60, 2)
            if digits == 4 || magnitude % 60 != 0 { text += (colon ? ":" : "") + pad(magnitude % 60, 2) }
        }
        return text
    }

    /// The offset in seconds written at the end of `text` (`+02:00` → 7200); nil when it has
    /// none, is `Z`, or is not a timestamp.
    static func writtenOffset(_ text: String) -> Int? {
        let bytes = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        guard bytes.count > 10,
              let sign = bytes[10...].lastIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") })
        else { return nil }
        let utc = TimeZone(secondsFromGMT: 0) ?? .current
        let wall = String(decoding: bytes[..<sign], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        guard let instant = parse(String(decoding: bytes, as: UTF8.self), timeZone: utc)?.date,
              let naive = parse(wall, timeZone: utc)?.date else { return nil }
        return Int((naive.timeIntervalSince1970 - instant.timeIntervalSince1970).rounded())
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// The instant whose wall time in `timeZone` is `naive` seconds after 1970-01-01 00:00.
    static func localDate(naive: Double, timeZone: TimeZone) -> Date {
        let guess = Date(timeIntervalSince1970: naive)
        var result = naive - Double(timeZone.secondsFromGMT(for: guess))
        let second = Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: result)))
        if naive - second != result { result = naive - second }
        return Date(timeIntervalSince1970: result)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Seconds since the epoch of a civil UTC time (Howard Hinnant's days-from-civil).
    static func civilSeconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        return days * 86400 + hour * 3600 + minute * 60 + second
    }

    /// The civil date of a day count since 1970-01-01.
    static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// Reads ASCII digits and punctuation from a short byte array.
private struct DigitReader {
    let bytes: [UInt8]
    var position = 0

    var atEnd: Bool { position == bytes.count }

    func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func next() -> UInt8? {
        guard position < bytes.count else { return nil }
        position += 1
        return bytes[position - 1]
    }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    mutating func digits(exactly count: Int) -> Int? { digits(min: count, max: count) }

    mutating func digits(min: Int, max: Int) -> Int? {
        var value = 0, count = 0
        while count < max, position < bytes.count, bytes[position] >= 48, bytes[position] <= 57 {
            value = value * 10 + Int(bytes[position] - 48)
            position += 1
            count += 1
        }
        return count >= min ? value : nil
    }
}
