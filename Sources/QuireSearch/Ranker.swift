import Foundation

/// Orders documents by a sort key; ties by path A→Z, missing values last.
struct Ranker {
    let catalog: Catalog
    let scores: [Double]

    func order(_ documents: [Int], by sort: SortKey?, reverse: Bool, limit: Int?) -> [Int] {
        // Scores, paths, pins, dates and word counts need no record: none is decoded. Paths
        // compare as UTF-8 bytes, which is Swift's string order for the NFC names file systems give.
        let catalog = catalog
        let tie: (Int, Int) -> Bool = { catalog.pathPrecedes($0, $1) }
        let descending = !reverse
        switch sort {
        case .path:
            return Self.arrange(documents, limit: limit, by: reverse ? { tie($1, $0) } : tie)
        case .relevance:
            let scores = scores
            return Self.arrange(documents, limit: limit) { left, right in
                let a = scores.isEmpty ? 0 : scores[left]
                let b = scores.isEmpty ? 0 : scores[right]
                if a == b { return tie(left, right) }
                return descending ? a > b : a < b
            }
        case nil:
            return Self.arrange(documents, limit: limit) { left, right in
                let a = catalog.isPinned(left)
                let b = catalog.isPinned(right)
                if a != b { return a != reverse }
                return Self.compare(catalog.sortKey(left, .updated), catalog.sortKey(right, .updated),
                                    descending: descending, tie: tie(left, right))
            }
        case .updated, .created, .words:
            let field: IndexSegment.SortField = sort == .updated ? .updated : sort == .created ? .created : .words
            return Self.arrange(documents, limit: limit) { left, right in
                Self.compare(catalog.sortKey(left, field), catalog.sortKey(right, field),
                             descending: descending, tie: tie(left, right))
            }
        case .title, .project:
            break
        }
        return catalog.withRecordPointers(documents) { records in
            let ascending = comparator(records, documents, by: sort, reverse: reverse)
            return Self.arrange(Array(documents.indices), limit: limit, by: ascending).map { documents[$0] }
        }
    }

    /// `items` sorted by `ascending` and cut at `limit` (a bounded insertion when the limit is
    /// small against the items).
    static func arrange(_ items: [Int], limit: Int?, by ascending: (Int, Int) -> Bool) -> [Int] {
        if let limit, limit < items.count / 8 { return smallest(max(limit, 0), of: items, by: ascending) }
        var sorted = items.sorted(by: ascending)
        if let limit, limit < sorted.count { sorted.removeSubrange(max(limit, 0)...) }
        return sorted
    }

    /// "Index a comes before index b" for the title and project orders; fields are read through
    /// the record pointers.
    private func comparator(_ records: [UnsafePointer<NoteRecord>], _ documents: [Int], by sort: SortKey?,
                            reverse: Bool) -> (Int, Int) -> Bool {
        let catalog = catalog
        let tie: (Int, Int) -> Bool = { catalog.pathPrecedes(documents[$0], documents[$1]) }
        let keys = sort == .project ? records.map { $0.pointee.project?.lowercased() }
                                    : records.map { $0.pointee.title.lowercased() }
        return { Self.compare(keys[$0], keys[$1], descending: reverse, tie: tie($0, $1)) }
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

    /// Orders two numbers where NaN stands for a missing value: after any value; equal values by `tie`.
    @inline(__always)
    static func compare(_ a: Double, _ b: Double, descending: Bool, tie: @autoclosure () -> Bool) -> Bool {
        if a.isNaN || b.isNaN { return a.isNaN && b.isNaN ? tie() : !a.isNaN }
        if a == b { return tie() }
        return descending ? a > b : a < b
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
