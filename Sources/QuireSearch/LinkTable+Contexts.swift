import Foundation
import QuireCore

/// The context lines the link table keeps (`contextEdges`, `contexts`): for some edges, what
/// `quire backlinks` prints beside the link (its line cut around it), so that an answer over
/// them opens no note. A context belongs to its source note as the table resolved it: an
/// update copies it only with the edges of a note that did not change (a note resolved again
/// has none until a backlinks answer reads its file and keeps them).
extension LinkTable {
    /// The context kept for `edge`, nil when none is.
    public func storedContext(_ edge: Int) -> String? {
        contextPosition(of: edge).map { contexts[$0] }
    }

    /// Whether any context is kept.
    public var keepsContexts: Bool { !contextEdges.isEmpty }

    /// This table with `texts` (by edge) kept besides the contexts it keeps already (a text
    /// given for an edge that has one replaces it); `changed` so that it is written back.
    public func keeping(contexts texts: [Int: String]) -> LinkTable {
        var merged: [(edge: Int, text: String)] = []
        merged.reserveCapacity(contextEdges.count + texts.count)
        for (position, edge) in contextEdges.enumerated() where texts[Int(edge)] == nil {
            merged.append((Int(edge), contexts[position]))
        }
        for (edge, text) in texts where edge >= 0 && edge < targets.count { merged.append((edge, text)) }
        merged.sort { $0.edge < $1.edge }
        var table = self
        table.contextEdges = LinkColumn(merged.map { UInt32($0.edge) })
        table.contexts = PackedStrings(merged.map(\.text))
        table.changed = true
        return table
    }

    /// Where `edge`'s context is in `contexts`, nil when none is kept (a binary search).
    func contextPosition(of edge: Int) -> Int? {
        var low = 0, high = contextEdges.count
        while low < high {
            let middle = (low + high) / 2
            let found = Int(contextEdges[middle])
            if found == edge { return middle }
            if found < edge { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// Copies the context `old` keeps for its edge `edge`, if any, to the edge last appended.
    mutating func copyContext(_ edge: Int, of old: LinkTable) {
        guard old.keepsContexts, let position = old.contextPosition(of: edge) else { return }
        contextEdges.append(UInt32(targets.count - 1))
        contexts.append(position, of: old.contexts)
    }

    /// Drops the contexts of the edges from `edges` on.
    mutating func truncateContexts(to edges: Int) {
        guard let last = contextEdges.last, Int(last) >= edges else { return }
        let kept = contextEdges.prefix { Int($0) < edges }.count
        contextEdges.removeSubrange(kept...)
        var strings = PackedStrings()
        for index in 0..<kept { strings.append(index, of: contexts) }
        contexts = strings
    }

    /// Whether the kept contexts fit the edges (ascending edges, one text each).
    var contextsFit: Bool {
        contexts.count == contextEdges.count
            && zip(contextEdges, contextEdges.dropFirst()).allSatisfy { $0 < $1 }
            && contextEdges.last.map { Int($0) < targets.count } ?? true
    }
}

extension CatalogStore {
    /// Keeps `texts` (by edge) as context lines of `table` (`LinkTable.keeping(contexts:)`)
    /// and writes it to `linkTablePath` when the catalog's base is a file's (a failure leaves
    /// the file as it was: the answers are the same without them).
    public func keepLinkContexts(_ texts: [Int: String], of table: LinkTable) {
        guard !texts.isEmpty, linkTableBasis.baseID != nil else { return }
        try? table.keeping(contexts: texts).write(to: linkTablePath)
    }
}
