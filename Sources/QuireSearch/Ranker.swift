import Foundation

/// Orders documents by a sort key; ties by path A→Z, missing values last.
struct Ranker {
    let catalog: Catalog
    let scores: [Double]

    func order(_ documents: [Int], by sort: SortKey?, reverse: Bool, limit: Int?) -> [Int] {
        let paths = catalog.mapRecords(documents) { $0.pointee.path }
        var indices = Array(documents.indices)
        func key<T>(_ read: (UnsafePointer<NoteRecord>) -> T) -> [T] {
            catalog.mapRecords(documents, read)
        }
        let ascending: (Int, Int) -> Bool
        switch sort {
        case nil:
            let keys = key { ($0.pointee.pinned, $0.pointee.updatedAt) }
            ascending = { left, right in
                let a = keys[left]
                let b = keys[right]
                if a.0 != b.0 { return a.0 != reverse }
                return Self.compare(a.1, b.1, descending: !reverse, tie: paths[left] < paths[right])
            }
        case .relevance:
            let keys = documents.map { scores.isEmpty ? 0 : scores[$0] }
            ascending = { Self.compare(keys[$0], keys[$1], descending: !reverse, tie: paths[$0] < paths[$1]) }
        case .updated:
            let keys = key { $0.pointee.updatedAt }
            ascending = { Self.compare(keys[$0], keys[$1], descending: !reverse,
                                       tie: paths[$0] < paths[$1]) }
        case .created:
            let keys = key { $0.pointee.createdAt }
            ascending = { Self.compare(keys[$0], keys[$1], descending: !reverse,
                                       tie: paths[$0] < paths[$1]) }
        case .words:
            let keys = key { $0.pointee.words }
            ascending = { Self.compare(keys[$0], keys[$1], descending: !reverse,
                                       tie: paths[$0] < paths[$1]) }
        case .title:
            let keys = key { $0.pointee.title.lowercased() }
            ascending = { Self.compare(keys[$0], keys[$1], descending: reverse, tie: paths[$0] < paths[$1]) }
        case .project:
            let keys = key { $0.pointee.project?.lowercased() }
            ascending = { Self.compare(keys[$0], keys[$1], descending: reverse, tie: paths[$0] < paths[$1]) }
        case .path:
            ascending = { reverse ? paths[$0] > paths[$1] : paths[$0] < paths[$1] }
        }
        if let limit, limit < indices.count / 8 {
            indices = Self.smallest(max(limit, 0), of: indices, by: ascending)
        } else {
            indices.sort(by: ascending)
            if let limit, limit < indices.count { indices.removeSubrange(max(limit, 0)...) }
        }
        return indices.map { documents[$0] }
    }

    /// The first `count` items in order (a bounded insertion sort: O(n log k) comparisons).
    static func smallest(_ count: Int, of items: [Int], by ascending: (Int, Int) -> Bool) -> [Int] {
        var best: [Int] = []
        best.reserveCapacity(count + 1)
        guard count > 0 else { return best }
        for item in items {
            if best.count == count, let last = best.last, !ascending(item, last) { continue }
            var low = 0
            var high = best.count
            while low < high {
                let middle = (low + high) / 2
                if ascending(item, best[middle]) { high = middle } else { low = middle + 1 }
            }
            best.insert(item, at: low)
            if best.count > count { best.removeLast() }
        }
        return best
    }

    /// Orders two optional values; nil after any value; equal values by `tie`.
    static func compare<T: Comparable>(_ a: T?, _ b: T?, descending: Bool, tie: @autoclosure () -> Bool) -> Bool {
        switch (a, b) {
        case let (a?, b?):
            if a == b { return tie() }
            return descending ? a > b : a < b
        case (nil, nil): return tie()
        case (nil, _): return false
        case (_, nil): return true
        }
    }
}
