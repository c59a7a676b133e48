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
        func symbols(from start: Int, level: Int) -> ([DocumentSymbol], Int) {
            var result: [DocumentSymbol] = []
            var index = start
            while index < headings.count && headings[index].level >= level {
                let heading = headings[index]
                let (children, next) = symbols(from: index + 1, level: heading.level + 1)
                result.append(DocumentSymbol(
                    name: heading.text.isEmpty ? "(untitled)" : heading.text, detail: String(repeating: "#", count: heading.level),
                    range: section(index), selectionRange: document.range(of: document.lineRange(heading.line)), children: children))
                index = next
            }
            return (result, index)
        }
        var all: [DocumentSymbol] = []
        var index = 0
        while index < headings.count {
            let (some, next) = symbols(from: index, level: headings[index].level)
            all += some
            index = max(next, index + 1)
        }
        return .array(all.map(\.json))
    }

    /// `workspace/symbol`: notes whose title, alias or path matches the query (fuzzy), best first.
    func workspaceSymbols(query: String, id: JSON) throws(ResponseError) -> JSON {
        guard let session else { return .array([]) }
        let matcher = FuzzyMatch(query)
        guard let ranked = session.directory.rank(matcher, limit: 200, stop: { isCancelled(id) }) else { throw .cancelled }
        return .array(ranked.hits.map { note, _ in
            let folder = (note.entry.path as NSString).deletingLastPathComponent
            return SymbolInformation(name: note.entry.title, containerName: folder.isEmpty ? nil : folder,
                                     location: Location.top(of: session.uri(ofPath: note.entry.path))).json
        })
    }
}
