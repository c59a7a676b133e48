import Foundation
import QuireCore

/// The part of a note an embed transcludes, as Obsidian shows it: the whole body
/// (`![[Note]]`), a heading's section (`![[Note#Heading]]`: the heading and everything up to
/// the next heading of the same or a higher level), or a block (`![[Note#^id]]`: the paragraph
/// or list item ending in `^id`, or the block before an `^id` line of its own; the id left out).
enum EmbedFragment {
    /// The Markdown `link` transcludes from `body`; nil when its heading or block is not there.
    static func markdown(of link: NoteLink, in body: String) -> String? {
        if let block = link.blockID { return blockText(block, in: body) }
        guard let heading = link.heading else { return body }
        return section(heading, in: body)
    }

    /// The section of the heading `heading` names (`NoteAnchors.headingIndex`).
    static func section(_ heading: String, in body: String) -> String? {
        var found: [(level: Int, text: String, start: Int)] = []
        var copy = body
        copy.withUTF8 { bytes in
            MarkdownBody.forEachHeading(of: bytes, from: 0) { level, text, start in
                found.append((level, text, start))
                return true
            }
        }
        guard let index = NoteAnchors(headings: found.map(\.text)).headingIndex(of: heading) else { return nil }
        let start = found[index].start
        let end = found[(index + 1)...].first { $0.level <= found[index].level }?.start ?? body.utf8.count
        return String(decoding: Array(body.utf8)[start..<end], as: UTF8.self)
    }

    /// The block that ends in `^id` (case-insensitive), without the id.
    static func blockText(_ id: String, in body: String) -> String? {
        let lines = body.components(separatedBy: "\n")
        let suffix = "^" + id.lowercased()
        guard let index = lines.firstIndex(where: { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces).lowercased()
            guard trimmed.hasSuffix(suffix) else { return false }
            let before = trimmed.dropLast(suffix.count)
            return before.isEmpty || before.last == " " || before.last == "]" || before.last == ")"
        }) else { return nil }
        let line = lines[index]
        let cut = line.range(of: "^", options: .backwards).map { String(line[..<$0.lowerBound]) } ?? line
        let own = cut.trimmingCharacters(in: .whitespaces)
        var last = index
        if own.isEmpty {
            // `^id` alone on a line names the block above it.
            guard index > 0, !lines[index - 1].trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
            last = index - 1
        }
        if isListItem(own.isEmpty ? lines[last] : own) {
            return own.isEmpty ? lines[last] : cut
        }
        var first = last
        while first > 0, !lines[first - 1].trimmingCharacters(in: .whitespaces).isEmpty { first -= 1 }
        let block = Array(lines[first..<last]) + [own.isEmpty ? lines[last] : cut]
        return block.joined(separator: "\n")
    }

    /// Whether a line starts a list item (`-`, `*`, `+`, `1.`, `1)`).
    private static func isListItem(_ line: String) -> Bool {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        if let first = trimmed.first, "-*+".contains(first) { return trimmed.dropFirst().first == " " }
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        let rest = trimmed.dropFirst(digits.count)
        return !digits.isEmpty && (rest.first == "." || rest.first == ")") && rest.dropFirst().first == " "
    }
}
