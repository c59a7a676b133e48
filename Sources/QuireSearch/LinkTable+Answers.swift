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

    /// `backlinks(of:in:)` with the edge of each (what `storedContext(_:)` takes). The incoming
    /// edges come by source in table order (`PathOrder`), which is the answer's order unless
    /// two neighbours' paths compare the other way as Strings (then they are sorted); each
    /// linking note's links are read from its record up to the last one asked for.
    public func backlinkEdges(of path: String, in catalog: Catalog) -> [(edge: Int, backlink: Backlink)] {
        guard let target = index(of: path) else { return [] }
        var pairs = incomingEdges(of: target).map { edge in (source: source(ofEdge: Int(edge)), edge: Int(edge)) }
        if !zip(pairs, pairs.dropFirst()).allSatisfy({ $0.edge < $1.edge }) { pairs.sort { $0.edge < $1.edge } }
        // One run of edges a linking note (edges ascend with their notes' places).
        var sources: [Int] = []
        var ordinals: [[Int]] = []
        for (source, edge) in pairs {
            if sources.last != source { sources.append(source); ordinals.append([]) }
            ordinals[ordinals.count - 1].append(edge - Int(edgeStarts[source]))
        }
        var order = Array(sources.indices)
        if !inStringOrder(sources) {
            // Each path made a String once, not at every comparison.
            let keys = sources.map { paths[$0] }
            order.sort { keys[$0] < keys[$1] }
        }
        var found: [(edge: Int, backlink: Backlink)] = []
        found.reserveCapacity(pairs.count)
        for position in order {
            let source = sources[position], document = documents[source]
            let sourcePath = catalog.path(document)
            for (ordinal, link) in catalog.links(of: document, at: ordinals[position]) {
                found.append((Int(edgeStarts[source]) + ordinal, Backlink(source: sourcePath, link: link)))
            }
        }
        return found
    }

    /// Whether the paths of `notes` come in the order Strings compare in: by their bytes where
    /// both of two neighbours are ASCII (the same order), as Strings otherwise.
    private func inStringOrder(_ notes: [Int]) -> Bool {
        zip(notes, notes.dropFirst()).allSatisfy { left, right in
            paths.withBytes(left) { a in
                paths.withBytes(right) { b in
                    guard a.allSatisfy({ $0 < 0x80 }), b.allSatisfy({ $0 < 0x80 }) else {
                        return String(decoding: a, as: UTF8.self) < String(decoding: b, as: UTF8.self)
                    }
                    return PathRanks.precedes(a, b)
                }
            }
        }
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
