import Foundation
import QuireCore

extension LanguageServer {
    /// `textDocument/documentSymbol`: the note's headings, nested by level.
    func documentSymbols(_ params: DocumentPosition) throws(ResponseError) -> JSON {
        let document = try openDocument(params).document
        let headings = MarkdownOutline(document).headings
        // Each heading's section runs to the next heading of the same or a higher level.
        func section(_ index: Int) -> TextRange {
            let heading = headings[index]
            let next = headings[(index + 1)...].first { $0.level <= heading.level }
            let endLine = next.map { $0.line - 1 } ?? document.lineCount - 1
            let end = document.lineRange(max(heading.line, endLine)).upperBound
            return document.range(of: document.lineRange(heading.line).lowerBound..<end)
        }
        func symbols(from start: Int, level: Int) -> (JSON, Int) {
            var result: [JSON] = []
            var index = start
            while index < headings.count && headings[index].level >= level {
                let heading = headings[index]
                let (children, next) = symbols(from: index + 1, level: heading.level + 1)
                result.append(.object([
                    ("name", .string(heading.text.isEmpty ? "(untitled)" : heading.text)),
                    ("detail", .string(String(repeating: "#", count: heading.level))), ("kind", .int(15)),
                    ("range", section(index).json),
                    ("selectionRange", document.range(of: document.lineRange(heading.line)).json),
                    ("children", children),
                ]))
                index = next
            }
            return (.array(result), index)
        }
        var all: [JSON] = []
        var index = 0
        while index < headings.count {
            let (some, next) = symbols(from: index, level: headings[index].level)
            all += some.array ?? []
            index = max(next, index + 1)
        }
        return .array(all)
    }

    /// `workspace/symbol`: notes whose title, alias or path matches the query (fuzzy), best first.
    func workspaceSymbols(query: String, id: JSON) throws(ResponseError) -> JSON {
        guard let session else { return .array([]) }
        let matcher = FuzzyMatch(query)
        guard let ranked = session.directory.rank(matcher, limit: 200, stop: { isCancelled(id) }) else { throw .cancelled }
        return .array(ranked.hits.map { note, _ in
            let folder = (note.entry.path as NSString).deletingLastPathComponent
            let location = Location.top(of: session.uri(ofPath: note.entry.path)).json
            return .object([
                "name": .string(note.entry.title), "kind": .int(1),
                "containerName": folder.isEmpty ? nil : .string(folder), "location": location,
            ])
        })
    }
}
