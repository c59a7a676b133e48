import Foundation

/// Writes `FrontMatterValue`s as YAML text: strings quoted only when a plain scalar would read
/// back differently, lists in flow style (`[a, b]`), maps as indented blocks, dates as written
/// (or ISO 8601 with offset and seconds).
enum FrontMatterRenderer {
    /// A complete entry, `key: value` plus its line break (maps continue on indented lines).
    static func entry(key: String, value: FrontMatterValue, newline: String, indent: String = "",
                      preferring style: YAMLEntry.Style = .plain) -> String {
        entry(keyText: self.key(key), value: value, newline: newline, indent: indent, preferring: style)
    }

    /// Like `entry(key:...)` with the key already written out (kept byte for byte).
    static func entry(keyText: String, value: FrontMatterValue, newline: String, indent: String = "",
                      preferring style: YAMLEntry.Style = .plain) -> String {
        if case let .map(entries) = value, !entries.isEmpty {
            var text = indent + keyText + ":" + newline
            for item in entries {
                text += entry(key: item.key, value: item.value, newline: newline, indent: indent + "  ")
            }
            return text
        }
        return indent + keyText + ": " + inline(value, preferring: style) + newline
    }

    /// Whether `value` is a scalar (not a list or map).
    static func isScalar(_ value: FrontMatterValue) -> Bool {
        switch value {
        case .list, .map: return false
        default: return true
        }
    }

    /// A key, quoted when needed.
    static func key(_ key: String) -> String {
        plainIsSafe(key, inFlow: false) ? key : doubleQuoted(key)
    }

    /// A value on one line in block context (after `key: `).
    static func inline(_ value: FrontMatterValue, preferring style: YAMLEntry.Style = .plain) -> String {
        if case let .string(text) = value { return string(text, inFlow: false, preferring: style) }
        return flow(value)
    }

    /// A value in flow context (inside `[...]` or `{...}`).
    static func flow(_ value: FrontMatterValue) -> String {
        switch value {
        case .null: return "null"
        case let .bool(flag): return flag ? "true" : "false"
        case let .int(number): return String(number)
        case let .float(number): return float(number)
        case let .string(text): return string(text, inFlow: true, preferring: .plain)
        case let .date(date, text):
            if !text.isEmpty, Timestamp.parse(text, timeZone: .current) != nil { return text }
            return Timestamp.iso.format(date, timeZone: .current)
        case let .list(items): return "[" + items.map(flow).joined(separator: ", ") + "]"
        case let .map(entries):
            return "{" + entries.map { key($0.key) + ": " + flow($0.value) }.joined(separator: ", ") + "}"
        }
    }

    /// A string as a plain, single- or double-quoted scalar: the preferred quoting if it can
    /// hold the text, else plain when safe, else double quotes.
    static func string(_ text: String, inFlow: Bool, preferring style: YAMLEntry.Style) -> String {
        let printable = !text.unicodeScalars.contains(where: needsEscape)
        switch style {
        case .doubleQuoted: return doubleQuoted(text)
        case .singleQuoted where printable: return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        default: return plainIsSafe(text, inFlow: inFlow) && !yaml11Booleans.contains(text) ? text : doubleQuoted(text)
        }
    }

    /// A float that reads back as a float.
    static func float(_ number: Double) -> String {
        if number.isNaN { return ".nan" }
        if number.isInfinite { return number < 0 ? "-.inf" : ".inf" }
        let text = String(number)
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    /// Whether `text` can be written unquoted and read back as the same string.
    static func plainIsSafe(_ text: String, inFlow: Bool) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        if first == " " || last == " " || last == ":" { return false }
        if "#&*!|>'\"%@`,[]{}".unicodeScalars.contains(first) { return false }
        if "-?:".unicodeScalars.contains(first) {
            let second = text.unicodeScalars.dropFirst().first
            if second == nil || second == " " { return false }
        }
        if text.hasPrefix("---") || text.hasPrefix("...") { return false }
        if text.contains(": ") || text.contains(" #") { return false }
        if inFlow, text.unicodeScalars.contains(where: { ",[]{}:".unicodeScalars.contains($0) }) { return false }
        if text.unicodeScalars.contains(where: needsEscape) { return false }
        if case .string = ScalarResolver.resolve(plain: text, timeZone: utc) { return true }
        return false
    }

    /// Words a YAML 1.1 reader (PyYAML, Ruby's Psych in Jekyll, older Go readers) takes for a
    /// boolean where YAML 1.2 reads a string: a value is written quoted, so that `"on"` and
    /// `"yes"` stay strings for every tool.
    static let yaml11Booleans: Set<String> = ["yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF"]

    /// `"..."` with YAML escapes.
    static func doubleQuoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\u{0}": out += "\\0"
            case "\u{85}": out += "\\N"
            case "\u{2028}": out += "\\L"
            case "\u{2029}": out += "\\P"
            default:
                if needsEscape(scalar) {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += scalar.value <= 0xFF ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                        : "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    private static let utc = TimeZone(secondsFromGMT: 0) ?? .current

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x85 || scalar.value == 0xFEFF
            || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
