import Foundation
import QuireCore

/// Where a buffer's front matter lies, line by line: enough to place a diagnostic on a key and
/// to know whether the cursor is inside the front matter. The fences are QuireCore's rule
/// (`FrontMatterSpan`, YAML and TOML alike); the typed values come from QuireCore's parser,
/// never from here.
struct FrontMatterLines {
    /// YAML, TOML, or none.
    let format: FrontMatterFormat
    /// The lines between the fences (0-based), empty when the buffer has no front matter.
    let contentLines: Range<Int>
    /// The 0-based line of each top-level key (first occurrence), by key as written.
    let keyLines: [String: Int]

    init(_ document: TextDocument) {
        let span = FrontMatterSpan(bytes: document.bytes)
        format = span.format
        contentLines = span.contentLines
        var keys: [String: Int] = [:]
        let separator: Character = span.format == .toml ? "=" : ":"
        for line in span.contentLines {
            if let key = Self.topLevelKey(document.lineText(line), separator: separator), keys[key] == nil { keys[key] = line }
        }
        keyLines = keys
    }

    /// Whether `line` is between the fences.
    func contains(line: Int) -> Bool { contentLines.contains(line) }

    /// The key a top-level `key: value` line (`key = value` in TOML) starts with (not indented,
    /// not a comment or list item).
    static func topLevelKey(_ line: String, separator: Character = ":") -> String? {
        guard let first = line.first, first != " ", first != "\t", first != "#", first != "-",
              let colon = line.firstIndex(of: separator) else { return nil }
        var key = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
        if key.count >= 2, let quote = key.first, quote == "\"" || quote == "'", key.last == quote {
            key = String(key.dropFirst().dropLast())
        }
        return key.isEmpty ? nil : key
    }
}
