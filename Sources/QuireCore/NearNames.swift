import Foundation

/// Many names prepared once for "did you mean …" look-ups: `closest(to:limit:)` answers what
/// `EditDistance.closest(to:among:limit:)` answers for the same names, without folding and
/// measuring every name for every query (`quire check` asks once per broken link, and a vault
/// of 10,000 notes has 20,000 names).
///
/// Each name is folded (case and accents, as `EditDistance` does) once and its characters
/// numbered. A name within k edits of a query of n characters shares at least n − 1 − 2k of the
/// query's pairs of adjacent characters (an edit breaks at most two), so when that bound is
/// positive only the names an index of pairs finds sharing that many are measured; otherwise
/// those of a length within k. Names the query begins are found by binary search among the
/// names in order. Every distance stops being computed once it is over k.
public struct NearNames: Sendable {
    private let names: [String]
    private let text: FoldedNames
    /// Name numbers ordered by their folded characters, for the names a query begins.
    private let inOrder: [Int32]
    /// Name numbers ordered by their folded length.
    private let byLength: [Int32]
    /// For each pair of adjacent characters, its names with how often each holds it.
    private let pairs: [UInt64: [UInt64]]

    /// Prepares `names` (each distinct one counts once).
    public init(_ names: [String]) {
        var seen = Set<String>()
        let distinct = names.filter { seen.insert($0).inserted }
        self.names = distinct
        let text = FoldedNames(distinct)
        self.text = text
        let count = Int32(distinct.count)
        inOrder = (0..<count).sorted { text.precedes(Int($0), Int($1)) }
        byLength = (0..<count).sorted { text.length(Int($0)) < text.length(Int($1)) }
        var pairs: [UInt64: [UInt64]] = [:]
        var counts: [UInt64: UInt64] = [:]
        for name in 0..<distinct.count {
            counts.removeAll(keepingCapacity: true)
            text.forEachPair(of: name) { counts[$0, default: 0] += 1 }
            for (pair, times) in counts { pairs[pair, default: []].append(UInt64(name) << 32 | times) }
        }
        self.pairs = pairs
    }

    /// Up to `limit` names closest to each of `queries`, nearest first (see
    /// `EditDistance.closest`); a query asked twice is answered once.
    public func closest(to queries: [String], limit: Int = 3) -> [[String]] {
        var shared = [Int32](repeating: 0, count: names.count)
        var answers: [String: [String]] = [:]
        return queries.map { query in
            if let known = answers[query] { return known }
            let answer = closest(to: query, limit: limit, shared: &shared)
            answers[query] = answer
            return answer
        }
    }

    /// Up to `limit` names closest to `query`, nearest first (see `EditDistance.closest`).
    public func closest(to query: String, limit: Int = 3) -> [String] {
        closest(to: [query], limit: limit)[0]
    }

    private func closest(to query: String, limit: Int, shared: inout [Int32]) -> [String] {
        let wanted = text.characters(of: query)
        guard !wanted.isEmpty else { return [] }
        let allowed = max(2, wanted.count / 3)
        var best: [Int: Int] = [:]
        // The names the query begins: within `allowed` however long.
        var low = 0, high = inOrder.count
        while low < high {
            let middle = (low + high) / 2
            if text.compare(Int(inOrder[middle]), with: wanted) < 0 { low = middle + 1 } else { high = middle }
        }
        while low < inOrder.count, text.hasPrefix(Int(inOrder[low]), wanted) {
            let name = Int(inOrder[low])
            best[name] = min(allowed, text.distance(from: wanted, to: name, atMost: allowed))
            low += 1
        }
        for name in candidates(near: wanted, within: allowed, shared: &shared) where best[name] == nil {
            let distance = text.distance(from: wanted, to: name, atMost: allowed)
            if distance <= allowed { best[name] = distance }
        }
        return best.map { (name: names[$0.key], distance: $0.value) }
            .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
            .prefix(limit).map(\.name)
    }

    /// The names whose length is within `allowed` of the query's and, when the bound says
    /// anything, that share enough of its pairs of characters.
    private func candidates(near wanted: [Int32], within allowed: Int, shared: inout [Int32]) -> [Int] {
        let least = wanted.count - 1 - 2 * allowed
        let fits = { (name: Int) in
            let length = self.text.length(name)
            return length > 0 && abs(length - wanted.count) <= allowed
        }
        guard least > 0 else {
            var low = 0, high = byLength.count
            while low < high {
                let middle = (low + high) / 2
                if text.length(Int(byLength[middle])) < wanted.count - allowed { low = middle + 1 } else { high = middle }
            }
            var found: [Int] = []
            while low < byLength.count, text.length(Int(byLength[low])) <= wanted.count + allowed {
                if fits(Int(byLength[low])) { found.append(Int(byLength[low])) }
                low += 1
            }
            return found
        }
        var times: [UInt64: UInt64] = [:]
        for index in 1..<wanted.count { times[FoldedNames.pair(wanted[index - 1], wanted[index]), default: 0] += 1 }
        var touched: [Int] = []
        for (pair, inQuery) in times {
            for entry in pairs[pair] ?? [] {
                let name = Int(entry >> 32)
                if shared[name] == 0 { touched.append(name) }
                shared[name] += Int32(min(inQuery, entry & 0xFFFF_FFFF))
            }
        }
        var found: [Int] = []
        for name in touched {
            if shared[name] >= least && fits(name) { found.append(name) }
            shared[name] = 0
        }
        return found
    }
}
