import Foundation

/// Orders documents by a sort key; ties by path A→Z, missing values last. By relevance, a
/// note whose title or alias is the query's words comes first, then one whose title or alias
/// starts with them (`tiers`), then by score.
struct Ranker {
    let catalog: Catalog
    let scores: [Double]
    /// Per document, its name tier (see `Catalog.nameTiers`); empty: all 0.
    var tiers: [UInt8] = []

    func order(_ documents: [Int], by sort: SortKey?, reverse: Bool, limit: Int?) -> [Int] {
        // The first few by relevance: only the documents scoring at least the limit-th best
        // score (ties included) are ordered, so most comparisons are of two numbers.
        if sort == .relevance, !scores.isEmpty, let limit, limit < documents.count / 8 {
            let best = Self.bestScored(documents, scores, tiers: tiers, limit: limit, descending: !reverse)
            // (Many ties at the threshold may leave every document: then on as usual.)
            if best.count < documents.count { return order(best, by: sort, reverse: reverse, limit: limit) }
        }
        // Items are positions in `documents`; each order's keys are gathered once, so the
        // comparisons touch flat arrays only. Scores, paths, pins, dates and word counts need no
        // record: none is decoded. Paths compare as UTF-8 bytes, which is Swift's string order
        // for the NFC names file systems give.
        // A full sort compares paths often: they are gathered once. A bounded selection (a
        // small limit) breaks few ties: it reads the paths in place instead.
        let bounded = limit.map { $0 < documents.count / 8 } ?? false
        let paths = PathKeys(catalog, documents, gather: !bounded)
        let tie: (Int, Int) -> Bool = { paths.precedes($0, $1) }
        let positions = Array(documents.indices)
        let descending = !reverse
        let ordered: [Int]
        switch sort {
        case .path:
            ordered = Self.arrange(positions, limit: limit, by: reverse ? { tie($1, $0) } : tie)
        case .relevance:
            let all = scores
            let relevance = all.isEmpty ? [Double](repeating: 0, count: documents.count) : documents.map { all[$0] }
            let allTiers = tiers
            let tier = allTiers.isEmpty ? [] : documents.map { allTiers[$0] }
            ordered = Self.arrange(positions, limit: limit) { left, right in
                if !tier.isEmpty, tier[left] != tier[right] {
                    return descending ? tier[left] > tier[right] : tier[left] < tier[right]
                }
                let a = relevance[left]
                let b = relevance[right]
                if a == b { return tie(left, right) }
                return descending ? a > b : a < b
            }
        case nil:
            let pinned = documents.map { catalog.isPinned($0) }
            let updated = documents.map { catalog.sortKey($0, .updated) }
            ordered = Self.arrange(positions, limit: limit) { left, right in
                if pinned[left] != pinned[right] { return pinned[left] != reverse }
                return Self.compare(updated[left], updated[right], descending: descending, tie: tie(left, right))
            }
        case .updated, .created, .words:
            let field: IndexSegment.SortField = sort == .updated ? .updated : sort == .created ? .created : .words
            let keys = documents.map { catalog.sortKey($0, field) }
            ordered = Self.arrange(positions, limit: limit) { left, right in
                Self.compare(keys[left], keys[right], descending: descending, tie: tie(left, right))
            }
        case .title, .project:
            let keys = catalog.withRecordPointers(documents) { records in
                sort == .project ? records.map { $0.pointee.project.map(Self.sortText) }
                                 : records.map { Optional(Self.sortText($0.pointee.title)) }
            }
            ordered = Self.arrange(positions, limit: limit) { left, right in
                Self.compare(keys[left], keys[right], descending: reverse, tie: tie(left, right))
            }
        }
        return ordered.map { documents[$0] }
    }

    /// A title or project as it sorts: without case and diacritics (`écrire` between `Banana`
    /// and `Zebra`, not after `Z`), as words match; ASCII text only lowercased (no Foundation call).
    static func sortText(_ text: String) -> String {
        text.utf8.allSatisfy { $0 < 0x80 } ? text.lowercased()
            : text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// The documents whose (tier, score) is at least the `limit`-th best of `documents` (at
    /// most, when not `descending`), ties included, in the order given.
    static func bestScored(_ documents: [Int], _ scores: [Double], tiers: [UInt8] = [], limit: Int,
                           descending: Bool) -> [Int] {
        guard limit > 0 else { return [] }
        // Keys negated when ascending, so that "better" is always "greater".
        let sign = descending ? 1.0 : -1.0
        func key(_ document: Int) -> (Double, Double) {
            (tiers.isEmpty ? 0 : Double(tiers[document]) * sign, scores[document] * sign)
        }
        var best: [(Double, Double)] = []  // the best keys so far, best first
        best.reserveCapacity(limit + 1)
        var worstKept = (-Double.infinity, -Double.infinity)  // beaten by any key while fewer than `limit` are kept
        for document in documents {
            let score = key(document)
            if score <= worstKept && best.count == limit { continue }
            var index = best.count
            best.append(score)
            while index > 0 && best[index - 1] < score {
                best[index] = best[index - 1]
                index -= 1
            }
            best[index] = score
            if best.count > limit { best.removeLast() }
            if best.count == limit { worstKept = best[limit - 1] }
        }
        guard let threshold = best.last else { return [] }
        return documents.filter { key($0) >= threshold }
    }

    /// `items` sorted by `ascending` and cut at `limit` (a bounded insertion when the limit is
    /// small against the items).
    static func arrange(_ items: [Int], limit: Int?, by ascending: (Int, Int) -> Bool) -> [Int] {
        if let limit, limit < items.count / 8 { return smallest(max(limit, 0), of: items, by: ascending) }
        var sorted = items.sorted(by: ascending)
        if let limit, limit < sorted.count { sorted.removeSubrange(max(limit, 0)...) }
        return sorted
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

/// The paths of a list of documents, compared byte by byte: copied into one buffer for a full
/// sort (no record, no reference counting per comparison), or read in place when few
/// comparisons are expected.
private struct PathKeys {
    private let catalog: Catalog
    private let documents: [Int]
    private let gathered: Bool
    private var bytes: [UInt8] = []
    private var starts: [Int] = [0]

    init(_ catalog: Catalog, _ documents: [Int], gather: Bool) {
        self.catalog = catalog
        self.documents = documents
        gathered = gather
        guard gather else { return }
        starts.reserveCapacity(documents.count + 1)
        for document in documents {
            catalog.withPath(document) { bytes.append(contentsOf: $0) }
            starts.append(bytes.count)
        }
    }

    /// Whether the path at position `a` comes before the one at `b` (byte order).
    func precedes(_ a: Int, _ b: Int) -> Bool {
        guard gathered else {
            return catalog.withPath(documents[a]) { left in
                catalog.withPath(documents[b]) { right in Self.precedes(left, right) }
            }
        }
        return bytes.withUnsafeBytes { buffer in
            let base = UnsafeRawBufferPointer(rebasing: buffer[starts[a]..<starts[a + 1]])
            let other = UnsafeRawBufferPointer(rebasing: buffer[starts[b]..<starts[b + 1]])
            return Self.precedes(base, other)
        }
    }

    private static func precedes(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        let common = min(left.count, right.count)
        if common > 0, let x = left.baseAddress, let y = right.baseAddress {
            let order = memcmp(x, y, common)
            if order != 0 { return order < 0 }
        }
        return left.count < right.count
    }
}
