import Foundation
import QuireCore

extension LinkTable {
    /// The notes in the order of their paths' bytes (`ExactPath`; the table keeps `PathOrder`,
    /// which differs only where a name holds a byte below `/`): the order of `graph`'s nodes and
    /// of `check`'s problems.
    public var notesInByteOrder: [Int] {
        let notes = Array(0..<count)
        let inOrder = notes.dropFirst().allSatisfy { index in
            paths.withBytes(index - 1) { previous in paths.withBytes(index) { PathRanks.precedes(previous, $0) } }
        }
        guard !inOrder else { return notes }
        return notes.sorted { left, right in
            paths.withBytes(left) { a in paths.withBytes(right) { PathRanks.precedes(a, $0) } }
        }
    }

    /// Calls `body` with the UTF-8 bytes of note `index`'s path.
    public func withPath<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T { paths.withBytes(index, body) }

    /// Calls `body` with the UTF-8 bytes of note `index`'s title.
    public func withTitle<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T { titles.withBytes(index, body) }

    /// The links written in the note at `path` with the edge of each, in file order (its record
    /// decoded, no other); nil when the table has no such note or does not match the catalog.
    public func outgoing(of path: String, in catalog: Catalog) -> [(link: NoteLink, edge: Int)]? {
        guard let index = index(of: path), documents.indices.contains(index) else { return nil }
        let links = catalog.mapRecords([documents[index]]) { $0.pointee.links }[0]
        let edges = edges(of: index)
        guard links.count == edges.count else { return nil }
        return Array(zip(links, edges))
    }

    /// Every link into the note at `path`, as `Catalog.backlinks(of:attachments:)` gives them
    /// (by the linking notes' paths, then in file order), from the incoming index: only the
    /// linking notes' links are read from their records (none decoded whole).
    public func backlinks(of path: String, in catalog: Catalog) -> [Backlink] {
        backlinkEdges(of: path, in: catalog).map(\.backlink)
    }

    /// `backlinks(of:in:)` with the edge of each (what `storedContext(_:)` takes).
    public func backlinkEdges(of path: String, in catalog: Catalog) -> [(edge: Int, backlink: Backlink)] {
        guard let target = index(of: path) else { return [] }
        var ordinals: [Int: [Int]] = [:]
        for edge in incomingEdges(of: target) {
            let source = source(ofEdge: Int(edge))
            ordinals[source, default: []].append(Int(edge) - Int(edgeStarts[source]))
        }
        // Each path made a String once, not at every comparison.
        let sources = ordinals.keys.map { ($0, paths[$0]) }.sorted { $0.1 < $1.1 }.map(\.0)
        let sourceDocuments = sources.map { documents[$0] }
        let records = zip(sourceDocuments.map(catalog.path), catalog.links(of: sourceDocuments))
        var found: [(edge: Int, backlink: Backlink)] = []
        for (source, (sourcePath, links)) in zip(sources, records) {
            for ordinal in ordinals[source] ?? [] where links.indices.contains(ordinal) {
                found.append((Int(edgeStarts[source]) + ordinal, Backlink(source: sourcePath, link: links[ordinal])))
            }
        }
        return found
    }

    /// The edges for which `matches` holds, as graph edges (their notes' records decoded, no
    /// others'), by source path's bytes, then in file order.
    public func edges(in catalog: Catalog, where matches: (Int) -> Bool) -> [LinkGraph.Edge] {
        let sources = notesInByteOrder.filter { edges(of: $0).contains(where: matches) }
        let links = catalog.mapRecords(sources.map { documents[$0] }) { ($0.pointee.path, $0.pointee.links) }
        var found: [LinkGraph.Edge] = []
        for (source, (path, written)) in zip(sources, links) where written.count == edges(of: source).count {
            for (link, edge) in zip(written, edges(of: source)) where matches(edge) {
                found.append(LinkGraph.Edge(source: path, link: link, resolution: resolution(edge), anchor: anchor(edge)))
            }
        }
        return found
    }
}
