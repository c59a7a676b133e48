import Foundation

/// The ATX headings of a Markdown text (`# Title` … `###### Detail`), skipping front matter and
/// fenced code blocks: document symbols and heading completion come from here.
struct MarkdownOutline {
    struct Heading: Equatable {
        /// 1–6.
        var level: Int
        /// The heading's text without the marks and a closing `#` run.
        var text: String
        /// 0-based line.
        var line: Int
    }

    let headings: [Heading]

    init(_ document: TextDocument) {
        let frontMatter = FrontMatterLines(document)
        var found: [Heading] = []
        var fence: String?
        var line = frontMatter.contentLines.isEmpty ? 0 : frontMatter.contentLines.upperBound + 1
        while line < document.lineCount {
            defer { line += 1 }
            let text = document.lineText(line)
            let trimmed = text.drop { $0 == " " }
            guard text.count - trimmed.count <= 3 else { continue }
            if let open = fence {
                if trimmed.hasPrefix(open) && trimmed.drop(while: { String($0) == String(open.first ?? "`") })
                    .allSatisfy({ $0 == " " || $0 == "\t" }) { fence = nil }
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                let mark = trimmed.first ?? "`"
                fence = String(trimmed.prefix { $0 == mark })
                continue
            }
            let hashes = trimmed.prefix { $0 == "#" }.count
            guard (1...6).contains(hashes) else { continue }
            let rest = trimmed.dropFirst(hashes)
            guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { continue }
            var title = rest.trimmingCharacters(in: .whitespaces)
            // A closing sequence of `#` preceded by a space is not part of the text.
            if let last = title.lastIndex(where: { $0 != "#" }), last < title.index(before: title.endIndex),
               title[last] == " " {
                title = String(title[...last]).trimmingCharacters(in: .whitespaces)
            } else if title.allSatisfy({ $0 == "#" }) {
                title = ""
            }
            found.append(Heading(level: hashes, text: title, line: line))
        }
        headings = found
    }
}
