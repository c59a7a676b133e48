import Foundation

/// Orders documents by a sort key; ties by path A→Z, missing values last.
struct Ranker {
    let catalog: Catalog
    let scores: [Int: Double]

    func order(_ documents: [Int], by sort: SortKey?, reverse: Bool, limit: Int?) -> [Int] {
        let records = documents.map { catalog.record($0) }
        var indices = Array(documents.indices)
        let ascending: (Int, Int) -> Bool
        switch sort {
        case nil:
            let keys = records.map { ($0.pinned, $0.updatedAt) }
            ascending = { left, right in
                let a = keys[left]
                let b = keys[right]
                if a.0 != b.0 { return a.0 != reverse }
                return Self.compare(a.1, b.1, descending: !reverse, tie: records[left].path < records[right].path)
            }
        case .relevance:
            let keys = documents.map { scores[$0] ?? 0 }
            ascending = { Self.compare(keys[$0], keys[$1], descending: !reverse, tie: records[$0].path < records[$1].path) }
        case .updated:
            ascending = { Self.compare(records[$0].updatedAt, records[$1].updatedAt, descending: !reverse,
                                       tie: records[$0].path < records[$1].path) }
        case .created:
            ascending = { Self.compare(records[$0].createdAt, records[$1].createdAt, descending: !reverse,
                                       tie: records[$0].path < records[$1].path) }
        case .words:
            ascending = { Self.compare(records[$0].words, records[$1].words, descending: !reverse,
                                       tie: records[$0].path < records[$1].path) }
        case .title:
            let keys = records.map { $0.title.lowercased() }
            ascending = { Self.compare(keys[$0], keys[$1], descending: reverse, tie: records[$0].path < records[$1].path) }
        case .project:
            let keys = records.map { $0.project?.lowercased() }
            ascending = { Self.compare(keys[$0], keys[$1], descending: reverse, tie: records[$0].path < records[$1].path) }
        case .path:
            ascending = { reverse ? records[$0].path > records[$1].path : records[$0].path < records[$1].path }
        }
        indices.sort(by: ascending)
        if let limit, limit < indices.count { indices.removeSubrange(max(limit, 0)...) }
        return indices.map { documents[$0] }
    }

    /// Orders two optional values; nil after any value; equal values by `tie`.
    static func compare<T: Comparable>(_ a: T?, _ b: T?, descending: Bool, tie: Bool) -> Bool {
        switch (a, b) {
        case let (a?, b?):
            if a == b { return tie }
            return descending ? a > b : a < b
        case (nil, nil): return tie
        case (nil, _): return false
        case (_, nil): return true
        }
    }
}
