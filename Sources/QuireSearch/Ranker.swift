import Foundation

/// Orders documents by a sort key; ties by path A→Z, missing values last.
struct Ranker {
    let catalog: Catalog
    let scores: [Double]

    func order(_ documents: [Int], by sort: SortKey?, reverse: Bool, limit: Int?) -> [Int] {
        if sort == .relevance || sort == .path {
            // Scores and paths need no record: none is decoded. Paths compare as UTF-8 bytes,
            // which is Swift's string order for the NFC names file systems give.
            let tie: (Int, Int) -> Bool = { catalog.pathPrecedes(documents[$0], documents[$1]) }
            let ascending: (Int, Int) -> Bool
            if sort == .path {
                ascending = { reverse ? tie($1, $0) : tie($0, $1) }
            } else {
                let keys = documents.map { scores.isEmpty ? 0 : scores[$0] }
                ascending = { Self.compare(keys[$0], keys[$1], descending: !reverse, tie: tie($0, $1)) }
            }
            return arrange(documents, ascending, limit: limit)
        }
        return catalog.withRecordPointers(documents) { records in
            arrange(documents, comparator(records, documents, by: sort, reverse: reverse), limit: limit)
        }
    }

    /// `documents` sorted by `ascending` (over their indices) and cut at `limit`.
    private func arrange(_ documents: [Int], _ ascending: (Int, Int) -> Bool, limit: Int?) -> [Int] {
        var indices = Array(documents.indices)
        if let limit, limit < indices.count / 8 {
            indices = Self.smallest(max(limit, 0), of: indices, by: ascending)
        } else {
            indices.sort(by: ascending)
            if let limit, limit < indices.count { indices.removeSubrange(max(limit, 0)...) }
        }
        return indices.map { documents[$0] }
    }

    /// "Index a comes before index b" for `sort`; fields are read through the record pointers.
    private func comparator(_ records: [UnsafePointer<NoteRecord>], _ documents: [Int], by sort: SortKey?,
                            reverse: Bool) -> (Int, Int) -> Bool {
        let tie: (Int, Int) -> Bool = { records[$0].pointee.path < records[$1].pointee.path }
        switch sort {
        case nil:
            return { left, right in
                let a = records[left].pointee.pinned
                let b = records[right].pointee.pinned
                if a != b { return a != reverse }
                return Self.compare(records[left].pointee.updatedAt, records[right].pointee.updatedAt,
                                    descending: !reverse, tie: tie(left, right))
            }
        case .relevance:
            let keys = documents.map { scores.isEmpty ? 0 : scores[$0] }
            return { Self.compare(keys[$0], keys[$1], descending: !reverse, tie: tie($0, $1)) }
        case .updated:
            return { Self.compare(records[$0].pointee.updatedAt, records[$1].pointee.updatedAt,
                                  descending: !reverse, tie: tie($0, $1)) }
        case .created:
            return { Self.compare(records[$0].pointee.createdAt, records[$1].pointee.createdAt,
                                  descending: !reverse, tie: tie($0, $1)) }
        case .words:
            return { Self.compare(records[$0].pointee.words, records[$1].pointee.words,
                                  descending: !reverse, tie: tie($0, $1)) }
        case .title:
            let keys = records.map { $0.pointee.title.lowercased() }
            return { Self.compare(keys[$0], keys[$1], descending: reverse, tie: tie($0, $1)) }
        case .project:
            let keys = records.map { $0.pointee.project?.lowercased() }
            return { Self.compare(keys[$0], keys[$1], descending: reverse, tie: tie($0, $1)) }
        case .path:
            return { reverse ? tie($1, $0) : tie($0, $1) }
        }
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
