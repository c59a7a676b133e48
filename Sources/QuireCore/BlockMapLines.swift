import Foundation

/// Surgical edits of one entry of a top-level block mapping in a YAML file's text (`folders:`,
/// `merge:`, `defaults:` of `.quire/config.yml`): the entry's own lines are replaced, added at
/// the end of the block or removed, and every other line — comments, quoting, blank lines, key
/// order — stays byte for byte. Writing the whole mapping anew (what `NoteDocument.set` does
/// for a top-level key) dropped the comments and quotes of every entry in it.
///
/// Each edit returns nil when the text is not laid out as this type reads it (a flow mapping
/// other than `{}`, a sequence, a complex key, irregular indentation): the caller then writes
/// the whole value, as before.
enum BlockMapLines {
    /// One line of the text: its bytes with their line ending, and what it holds.
    private struct Line {
        var text: Substring
        /// Leading spaces.
        var indent: Int {
            text.prefix { $0 == " " }.count
        }
        /// The line without indentation, line ending or trailing spaces.
        var content: Substring {
            var content = text.drop { $0 == " " }
            while let last = content.last, last == "\n" || last == "\r" || last == " " || last == "\t" { content = content.dropLast() }
            return content
        }
        var isBlankOrComment: Bool { content.isEmpty || content.hasPrefix("#") }
    }

    /// The text with entry `key` of the top-level mapping `parent` replaced by `entry` (lines as
    /// written at indentation 0: `key: value`, or `key:` and its deeper lines), or added at the
    /// end when there is none; removed when `entry` is nil.
    static func replacing(_ key: String, of parent: String, in text: String, with entry: [String]?) -> String? {
        guard var layout = Layout(text, parent: parent) else { return nil }
        let newLines = entry.map { lines in lines.map { String(repeating: " ", count: layout.childIndent) + $0 + layout.lineEnding } } ?? []
        if let child = layout.children.first(where: { $0.key == key }) {
            layout.lines.replaceSubrange(child.range, with: newLines.map { Line(text: Substring($0)) })
        } else if !newLines.isEmpty {
            if layout.emptyFlow {
                // `folders: {}` becomes a block mapping (a comment after it stays).
                let header = layout.lines[layout.header]
                let comment = header.content.range(of: " #").map { String(header.content[$0.lowerBound...]) } ?? ""
                layout.lines[layout.header] = Line(text: Substring(parent + ":" + comment + layout.lineEnding))
            }
            layout.lines.insert(contentsOf: newLines.map { Line(text: Substring($0)) }, at: layout.blockEnd)
        } else {
            return text
        }
        return layout.lines.map { String($0.text) }.joined()
    }

    /// The text with entry `key` of the top-level mapping `parent` renamed to `newKey` (written
    /// as `keyText`, quoted as YAML needs), its value and every other line as they were.
    static func renaming(_ key: String, of parent: String, to keyText: String, in text: String) -> String? {
        guard var layout = Layout(text, parent: parent), let child = layout.children.first(where: { $0.key == key }) else { return nil }
        let line = layout.lines[child.range.lowerBound]
        let rest = line.text.dropFirst(line.indent + child.keyLength)
        layout.lines[child.range.lowerBound] = Line(text: Substring(String(repeating: " ", count: line.indent) + keyText + rest))
        return layout.lines.map { String($0.text) }.joined()
    }

    /// Where the mapping and its entries are.
    private struct Layout {
        var lines: [Line]
        var header: Int
        /// The header's value is `{}`.
        var emptyFlow: Bool
        /// The line after the mapping's last entry.
        var blockEnd: Int
        var childIndent: Int
        var children: [(key: String, keyLength: Int, range: Range<Int>)]
        var lineEnding: String

        init?(_ text: String, parent: String) {
            var lines: [Line] = []
            var start = text.startIndex
            while start < text.endIndex {
                let end = text[start...].firstIndex(of: "\n").map { text.index(after: $0) } ?? text.endIndex
                lines.append(Line(text: text[start..<end]))
                start = end
            }
            self.lines = lines
            lineEnding = lines.first?.text.hasSuffix("\r\n") == true ? "\r\n" : "\n"
            guard let header = lines.firstIndex(where: { line in
                line.indent == 0 && BlockMapLines.key(of: line.content).map { $0.key == parent } == true
            }), let parsed = BlockMapLines.key(of: lines[header].content) else { return nil }
            self.header = header
            var value = lines[header].content.dropFirst(parsed.length).drop { $0 == ":" || $0 == " " || $0 == "\t" }
            if let comment = value.range(of: "#"), value[..<comment.lowerBound].allSatisfy({ $0 == " " || $0 == "\t" }) || value.hasPrefix("#") {
                value = value[..<comment.lowerBound]
            }
            value = value.drop { $0 == " " }
            while value.last == " " || value.last == "\t" { value = value.dropLast() }
            guard value.isEmpty || value == "{}" else { return nil }
            emptyFlow = value == "{}"
            // The mapping's lines: every indented line up to the next top-level key.
            var end = header + 1
            var last = header
            while end < lines.count && (lines[end].indent > 0 || lines[end].isBlankOrComment) {
                if lines[end].indent > 0 && !lines[end].isBlankOrComment { last = end }
                end += 1
            }
            blockEnd = last + 1
            if emptyFlow && blockEnd > header + 1 { return nil }  // `{}` and indented lines after it
            let body = (header + 1)..<blockEnd
            let entries = body.filter { !lines[$0].isBlankOrComment }
            childIndent = entries.first.map { lines[$0].indent } ?? 2
            guard childIndent > 0 else { return nil }
            var children: [(key: String, keyLength: Int, range: Range<Int>)] = []
            for index in entries where lines[index].indent <= childIndent {
                guard lines[index].indent == childIndent, !lines[index].content.hasPrefix("- "), !lines[index].content.hasPrefix("? "),
                      let parsed = BlockMapLines.key(of: lines[index].content) else { return nil }
                if let previous = children.last {
                    // The previous entry ends after its last deeper line (comments between stay).
                    let deeper = entries.filter { $0 > previous.range.lowerBound && $0 < index }
                    children[children.count - 1].range = previous.range.lowerBound..<((deeper.last ?? previous.range.lowerBound) + 1)
                }
                children.append((parsed.key, parsed.length, index..<(index + 1)))
            }
            if let previous = children.last {
                let deeper = entries.filter { $0 > previous.range.lowerBound }
                children[children.count - 1].range = previous.range.lowerBound..<((deeper.last ?? previous.range.lowerBound) + 1)
            }
            self.children = children
        }
    }

    /// The key at the start of `content` (plain, `'single'` or `"double"` quoted) and how many
    /// characters it takes, when a `:` follows it (then a space, or the end of the line).
    static func key(of content: Substring) -> (key: String, length: Int)? {
        var key = ""
        var index = content.startIndex
        if let quote = content.first, quote == "'" || quote == "\"" {
            index = content.index(after: index)
            var closed = false
            while index < content.endIndex {
                let character = content[index]
                if quote == "'" && character == "'" {
                    let next = content.index(after: index)
                    if next < content.endIndex && content[next] == "'" {
                        key.append("'")
                        index = content.index(after: next)
                        continue
                    }
                    closed = true
                } else if quote == "\"" && character == "\\" {
                    let next = content.index(after: index)
                    guard next < content.endIndex, content[next] == "\"" || content[next] == "\\" else { return nil }
                    key.append(content[next])
                    index = content.index(after: next)
                    continue
                } else if quote == "\"" && character == "\"" {
                    closed = true
                }
                if closed { index = content.index(after: index); break }
                key.append(character)
                index = content.index(after: index)
            }
            guard closed else { return nil }
        } else {
            while index < content.endIndex {
                if content[index] == ":" {
                    let next = content.index(after: index)
                    if next == content.endIndex || content[next] == " " || content[next] == "\t" { break }
                }
                key.append(content[index])
                index = content.index(after: index)
            }
            while key.last == " " { key.removeLast() }
            guard !key.isEmpty, !key.hasPrefix("#"), !key.hasPrefix("{"), !key.hasPrefix("[") else { return nil }
        }
        guard index < content.endIndex, content[index] == ":" else { return nil }
        let next = content.index(after: index)
        guard next == content.endIndex || content[next] == " " || content[next] == "\t" else { return nil }
        return (key, content.distance(from: content.startIndex, to: index))
    }
}
