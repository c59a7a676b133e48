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
        // Items are positions in `documents`. A bounded selection (a small limit) breaks few
        // ties: it compares the paths in place. A full sort ranks the paths once (`PathRanks`)
        // and sorts entries of integer keys: scores, pins, dates and word counts need no record,
        // none is decoded, and no comparison reads a path.
        let bounded = limit.map { $0 < documents.count / 8 } ?? false
        let positions = Array(documents.indices)
        let descending = !reverse
        if !bounded, sort != .title, sort != .project {
            return sorted(documents, by: sort, reverse: reverse, limit: limit)
        }
        let ranks = bounded ? nil : PathRanks(catalog, documents).ranks
        let tie: (Int, Int) -> Bool = { left, right in
            if let ranks { return ranks[left] < ranks[right] }
            return PathRanks.precedes(catalog.pathBytes(documents[left]), catalog.pathBytes(documents[right]))
        }
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

    /// The full sort of `documents` by a key that is a number (or none: by path), as entries
    /// of integer keys (`RankedEntry`): the same order as the comparisons of a bounded
    /// selection above, missing values last in both directions, ties by path A→Z.
    private func sorted(_ documents: [Int], by sort: SortKey?, reverse: Bool, limit: Int?) -> [Int] {
        let paths = PathRanks(catalog, documents)
        var ordered: [Int]
        if sort == .path {
            ordered = reverse ? paths.ordered.reversed() : paths.ordered
        } else {
            let descending = !reverse
            var entries: [RankedEntry] = []
            entries.reserveCapacity(documents.count)
            for (position, document) in documents.enumerated() {
                let first: UInt8
                let value: Double
                switch sort {
                case .relevance:
                    let tier = tiers.isEmpty ? 0 : tiers[document]
                    first = descending ? UInt8.max - tier : tier
                    value = scores.isEmpty ? 0 : scores[document]
                case nil:
                    first = catalog.isPinned(document) != reverse ? 0 : 1
                    value = catalog.sortKey(document, .updated)
                case .updated: first = 0; value = catalog.sortKey(document, .updated)
                case .created: first = 0; value = catalog.sortKey(document, .created)
                case .words: first = 0; value = catalog.sortKey(document, .words)
                case .title, .project, .path: first = 0; value = 0
                }
                entries.append(RankedEntry(first: first, value: RankedEntry.key(value, descending: descending),
                                           rank: paths.ranks[position], position: Int32(position)))
            }
            entries.sort()
            ordered = entries.map { Int($0.position) }
        }
        if let limit, limit < ordered.count { ordered.removeSubrange(max(limit, 0)...) }
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

/// One document in a full sort by a number: its keys as integers, compared in order (`first`,
/// `value`, then the path's `rank`), ascending; `position` is where it was given.
private struct RankedEntry: Comparable {
    var first: UInt8
    var value: UInt64
    var rank: UInt32
    var position: Int32

    static func < (a: RankedEntry, b: RankedEntry) -> Bool {
        if a.first != b.first { return a.first < b.first }
        if a.value != b.value { return a.value < b.value }
        return a.rank < b.rank
    }

    static func == (a: RankedEntry, b: RankedEntry) -> Bool {
        a.first == b.first && a.value == b.value && a.rank == b.rank
    }

    /// A number as a key that sorts as the numbers do (reversed when `descending`), a missing
    /// value (NaN) after every other in both directions, 0 and -0 alike (equal numbers tie).
    static func key(_ value: Double, descending: Bool) -> UInt64 {
        guard !value.isNaN else { return .max }
        let bits = (value == 0 ? 0.0 : value).bitPattern
        let ascending = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
        return descending ? ~ascending : ascending
    }
}
