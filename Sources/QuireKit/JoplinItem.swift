import Foundation
import QuireCore

/// One of Joplin's raw items, as a JEX archive holds them (Joplin's `BaseItem.serialize`): the
/// title on the first line, a blank line, the body, a blank line, then `key: value` lines — the
/// metadata, read from the end up to the first blank line. `type_` says what it is.
struct JoplinItem: Equatable {
    /// Joplin's item types (`BaseModel.TYPE_*`) that an import reads.
    enum Kind: Int {
        case note = 1, folder = 2, resource = 4, tag = 5, noteTag = 6
    }

    /// The first line (empty for items without one, such as note-tag links).
    var title: String
    /// The text between the title and the metadata.
    var body: String
    /// The metadata, unescaped (`\n` in a value is a line break).
    var properties: [String: String]

    /// What the item is; nil for a type the import does not read (revisions, settings…).
    var kind: Kind? { properties["type_"].flatMap(Int.init).flatMap(Kind.init(rawValue:)) }
    /// Its 32-hex-digit id.
    var id: String { properties["id"] ?? "" }

    /// Reads one item's text; nil when it has no `type_` (it is no Joplin item).
    init?(_ text: String) {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
        var properties: [String: String] = [:]
        var index = lines.count - 1
        while index >= 0 {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            if line.isEmpty {
                if properties.isEmpty { index -= 1; continue }  // trailing blank lines
                break
            }
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            properties[key] = Self.unescaped(value)
            index -= 1
        }
        guard properties["type_"] != nil else { return nil }
        let content = index > 0 ? Array(lines[0..<index]) : []
        title = content.first ?? ""
        body = content.count > 2 ? content[2...].joined(separator: "\n") : ""
        self.properties = properties
    }

    /// A time property: ISO 8601 (`created_time`, `user_updated_time`) or epoch milliseconds
    /// (`todo_due`, `todo_completed`); nil when missing, empty or 0.
    func time(_ key: String) -> Date? {
        guard let text = properties[key], !text.isEmpty, text != "0" else { return nil }
        if text.allSatisfy({ $0.isASCII && $0.isNumber }), let milliseconds = Double(text) {
            return Date(timeIntervalSince1970: milliseconds / 1000)
        }
        return QuireClock.parseISO8601(text)
    }

    /// A number property that is not zero (`latitude: 0.00000000` is Joplin's "none").
    func nonZero(_ key: String) -> Double? {
        guard let number = properties[key].flatMap(Double.init), number != 0 else { return nil }
        return number
    }

    /// Joplin escapes line breaks in values as `\n` (and `\r`).
    private static func unescaped(_ value: String) -> String {
        guard value.contains("\\") else { return value }
        return value.replacingOccurrences(of: "\\n", with: "\n").replacingOccurrences(of: "\\r", with: "\r")
    }
}
