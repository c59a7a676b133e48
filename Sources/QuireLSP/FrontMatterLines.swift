import Foundation

/// Where a buffer's YAML front matter lies, line by line: enough to place a diagnostic on a
/// key and to know whether the cursor is inside the front matter (the typed values come from
/// QuireCore's parser, never from here).
struct FrontMatterLines {
    /// The lines between the fences (0-based), empty when the buffer has no front matter.
    let contentLines: Range<Int>
    /// The 0-based line of each top-level key (first occurrence), by key as written.
    let keyLines: [String: Int]

    init(_ document: TextDocument) {
        var first = document.lineText(0)
        if first.hasPrefix("\u{FEFF}") { first.removeFirst() }
        guard first.trimmingCharacters(in: .whitespaces) == "---" else {
            contentLines = 0..<0
            keyLines = [:]
            return
        }
        var end: Int?
        var keys: [String: Int] = [:]
        var line = 1
        while line < document.lineCount {
            let text = document.lineText(line)
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed == "---" || trimmed == "..." {
                end = line
                break
            }
            if let key = Self.topLevelKey(text), keys[key] == nil { keys[key] = line }
            line += 1
        }
        guard let end else {
            // No closing fence: no front matter (DESIGN.md §2).
            contentLines = 0..<0
            keyLines = [:]
            return
        }
        contentLines = 1..<end
        keyLines = keys
    }

    /// Whether `line` is between the fences.
    func contains(line: Int) -> Bool { contentLines.contains(line) }

    /// The key a top-level `key: value` line starts with (not indented, not a comment or list item).
    static func topLevelKey(_ line: String) -> String? {
        guard let first = line.first, first != " ", first != "\t", first != "#", first != "-",
              let colon = line.firstIndex(of: ":") else { return nil }
        var key = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
        if key.count >= 2, let quote = key.first, quote == "\"" || quote == "'", key.last == quote {
            key = String(key.dropFirst().dropLast())
        }
        return key.isEmpty ? nil : key
    }
}
