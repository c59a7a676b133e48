import Foundation
import QuireCore
import QuireSearch

/// The graph of `VaultLinks.graphReport(matching:)` read from the link table: its nodes and
/// edges as notes of the table (by index), so that a front end writes their paths and titles
/// from the table's bytes without a string or a JSON value per node and edge.
public struct LinkGraphIndices: Sendable {
    /// The table the indices are of.
    public let table: LinkTable
    /// The notes, by path (their bytes).
    public let nodes: [Int]
    /// The links between two notes of the graph, counted, by source then target path.
    public let edges: [(source: Int, target: Int, count: Int)]

    /// The graph of the notes `query` matches in `links`' catalog (all for nil), from `table`.
    init(_ links: VaultLinks, table: LinkTable, matching query: NoteQuery?) {
        self.table = table
        let order = table.notesInByteOrder
        var rank = [Int32](repeating: -1, count: table.count)
        var nodes: [Int] = []
        if let query {
            var options = SearchOptions(sort: .path)
            options.attachments = links.attachments
            options.links = table
            nodes = links.catalog.run(query, options: options).compactMap { table.index(of: $0.path) }
        } else {
            nodes = order
        }
        for (position, note) in order.enumerated() { rank[note] = Int32(position) }
        var member = [Bool](repeating: false, count: table.count)
        for note in nodes { member[note] = true }
        var edges: [(source: Int, target: Int, count: Int)] = []
        var targets: [Int] = []
        for source in nodes {
            targets.removeAll(keepingCapacity: true)
            for edge in table.edges(of: source) {
                if let target = table.targetNote(edge), target != source, member[target] { targets.append(target) }
            }
            targets.sort { rank[$0] < rank[$1] }
            var start = 0
            while start < targets.count {
                var end = start + 1
                while end < targets.count && targets[end] == targets[start] { end += 1 }
                edges.append((source, targets[start], end - start))
                start = end
            }
        }
        self.nodes = nodes
        self.edges = edges
    }

    /// The same graph as a report of paths and titles.
    public var report: LinkGraphReport {
        LinkGraphReport(nodes: nodes.map { LinkGraphReport.Node(path: table.path($0), title: table.title($0)) },
                        edges: edges.map { LinkGraphReport.Edge(source: table.path($0.source), target: table.path($0.target),
                                                                count: $0.count) })
    }
}

extension VaultLinks {
    /// `graphReport(matching:)` as indices into the link table; nil when these links have none.
    public func graphIndices(matching query: NoteQuery?) -> LinkGraphIndices? {
        table.map { LinkGraphIndices(self, table: $0, matching: query) }
    }
}
