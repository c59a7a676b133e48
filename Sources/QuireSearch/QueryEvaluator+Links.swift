import Foundation
import QuireCore

extension QueryEvaluator {
    /// The live documents a link filter matches. With the link table (`links`) every filter
    /// reads it; without, `links-to:` and `linked-from:` go through the index
    /// (`Catalog.backlinks`, one note's links) and `orphan:` and `broken-links:` build the whole
    /// link graph once per query.
    mutating func linkFilter(_ filter: FieldFilter) -> DocumentSet {
        if let links { return linkFilter(filter, table: links) }
        var set = DocumentSet(capacity: catalog.capacity)
        switch filter {
        case .linksTo(let name):
            for target in notes(named: name) {
                for (document, _) in catalog.backlinkDocuments(of: target, attachments: attachments) { set.insert(document) }
            }
        case .linkedFrom(let name):
            let resolver = catalog.linkResolver(attachments: attachments)
            for source in notes(named: name) {
                guard let record = catalog.record(path: source) else { continue }
                for link in record.links {
                    guard let path = resolver.resolve(link, from: source).notePath,
                          let document = catalog.document(path: path) else { continue }
                    set.insert(document)
                }
            }
        case .orphan(let flag), .brokenLinks(let flag):
            let graph = self.graph ?? catalog.linkGraph(attachments: attachments)
            self.graph = graph
            let live = catalog.liveSet
            for document in live.members {
                let path = catalog.path(document)
                let holds = filter == .orphan(flag) ? graph.isOrphan(path) : graph.hasBrokenLinks(path)
                if holds == flag { set.insert(document) }
            }
        default:
            break
        }
        return set
    }

    /// `linkFilter(_:)` answered from the link table: no link resolved, no record decoded.
    private func linkFilter(_ filter: FieldFilter, table: LinkTable) -> DocumentSet {
        var set = DocumentSet(capacity: catalog.capacity)
        switch filter {
        case .linksTo(let name):
            for target in notes(named: name).compactMap(table.index(of:)) {
                for edge in table.incomingEdges(of: target) { set.insert(table.document(table.source(ofEdge: Int(edge)))) }
            }
        case .linkedFrom(let name):
            for source in notes(named: name).compactMap(table.index(of:)) {
                for edge in table.edges(of: source) {
                    if let target = table.targetNote(edge) { set.insert(table.document(target)) }
                }
            }
        case .orphan(let flag), .brokenLinks(let flag):
            for note in 0..<table.count {
                let holds = filter == .orphan(flag) ? table.isOrphan(note) : table.hasBrokenLinks(note)
                if holds == flag { set.insert(table.document(note)) }
            }
        default:
            break
        }
        return set
    }

    /// The notes a filter value names, resolved as a link written at the vault root (every
    /// candidate of an ambiguous name).
    private func notes(named name: String) -> [String] {
        switch catalog.linkResolver(attachments: attachments).resolve(target: name, from: "") {
        case .note(let path): return [path]
        case .ambiguous(let paths): return paths.filter { $0.lowercased().hasSuffix(".md") }
        case .attachment, .unresolved: return []
        }
    }
}
