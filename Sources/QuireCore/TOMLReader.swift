import Foundation

/// Reads the simple top-level `key = value` lines of TOML front matter (strings, numbers,
/// booleans, dates, one-line arrays). Tables, inline tables and multi-line values are skipped:
/// TOML front matter is read-only, listed with what this reader understands.
enum TOMLReader {
    /// Entries in written order.
    static func read(_ text: String, timeZone: TimeZone) -> [FrontMatterEntry] {
        var entries: [FrontMatterEntry] = []
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") { break }
            guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            var key = line[..<equals].trimmingCharacters(in: .whitespaces)
            if key.count >= 2, key.hasPrefix("\"") || key.hasPrefix("'") { key = String(key.dropFirst().dropLast()) }
            let rawValue = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, let value = value(rawValue, timeZone: timeZone) else { continue }
            entries.append(FrontMatterEntry(key: key, value: value))
        }
        return entries
    }

    private static func value(_ raw: String, timeZone: TimeZone) -> FrontMatterValue? {
        if raw.hasPrefix("\"") || raw.hasPrefix("'") {
            return string(raw).map { .string($0.text) }
        }
        if raw.hasPrefix("[") {
            var items: [FrontMatterValue] = []
            var rest = Substring(raw.dropFirst())
            while true {
                rest = rest.drop(while: { $0 == " " || $0 == "\t" || $0 == "," })
                if rest.hasPrefix("]") { return .list(items) }
                guard let first = rest.first else { return nil }
                if first == "\"" || first == "'" {
                    guard let (text, used) = string(String(rest)) else { return nil }
                    items.append(.string(text))
                    rest = rest.dropFirst(used)
                } else {
                    let token = rest.prefix(while: { $0 != "," && $0 != "]" })
                    guard let item = value(token.trimmingCharacters(in: .whitespaces), timeZone: timeZone)
                    else { return nil }
                    items.append(item)
                    rest = rest.dropFirst(token.count)
                }
            }
        }
        let bare = raw.split(separator: "#", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        if bare == "true" { return .bool(true) }
        if bare == "false" { return .bool(false) }
        if let number = ScalarResolver.number(bare.replacingOccurrences(of: "_", with: "")) { return number }
        if let (date, _) = Timestamp.parse(bare, timeZone: timeZone) { return .date(date, text: bare) }
        return nil
    }

    /// A quoted string at the start of `raw` and how many characters it used.
    private static func string(_ raw: String) -> (text: String, used: Int)? {
        guard let quote = raw.first else { return nil }
        var text = ""
        var escaped = false
        var used = 1
        for character in raw.dropFirst() {
            used += 1
            if escaped {
                switch character {
                case "n": text.append("\n")
                case "t": text.append("\t")
                default: text.append(character)
                }
                escaped = false
            } else if character == "\\" && quote == "\"" {
                escaped = true
            } else if character == quote {
                return (text, used)
            } else {
                text.append(character)
            }
        }
        return nil
    }
}
