import Foundation
import QuireCore

/// The headings of a Markdown text (`# Title` … `###### Detail`, and setext), skipping front matter and
/// code blocks as quire reads a note (`MarkdownBody.forEachHeading`): document symbols and
/// heading completion come from here.
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
        let data = document.data
        let bodyStart = NoteParser.bodyOffset(of: data)
        var found: [Heading] = []
        var line = 0
        data.withUnsafeBytes { raw in
            MarkdownBody.forEachHeading(of: raw.bindMemory(to: UInt8.self), from: bodyStart) { level, text, lineStart in
                while line + 1 < document.lineStarts.count, document.lineStarts[line + 1] <= lineStart { line += 1 }
                found.append(Heading(level: level, text: text, line: line))
                return true
            }
        }
        headings = found
    }
}
