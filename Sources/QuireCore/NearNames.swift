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
/// those of a length within k. The index is read from the query's rarest pairs up: the names of
/// its commonest pairs, as many as together hold fewer than that many of the query's pairs, are
/// never listed (a name found in none of the rest cannot share enough), and a name found is
/// measured when the pairs read and those left unread could hold enough. Names the query begins
/// are found by binary search among the names in order. Every distance stops being computed once
/// it is over k.
public struct NearNames: Sendable {
    private let names: [String]
    private let text: FoldedNames
    /// Name numbers ordered by their folded characters, for the names a query begins.
    private let inOrder: [Int32]
    /// Name numbers ordered by their folded length.
    private let byLength: [Int32]
    /// For each pair of adjacent characters, where its names are in `entries`: the names of
    /// pair list `l` are `entries[listStarts[l]..<listStarts[l + 1]]`.
    private let pairLists: [UInt64: Int32]
    private let listStarts: [Int32]
    /// Per pair list, its names, each with how often it holds the pair (`name << 32 | times`).
    private let entries: [UInt64]

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
        // Two passes over each name's distinct pairs (sorted, counted): the first numbers the
        // pairs and sizes their lists, the second places each (name << 32 | times) in its list.
        // One array for every list, no array per pair.
        var lists: [UInt64: Int32] = [:]
        var sizes: [Int32] = []
        var own: [UInt64] = []
        func forEachDistinctPair(of name: Int, _ body: (UInt64, Int) -> Void) {
            own.removeAll(keepingCapacity: true)
            text.forEachPair(of: name) { own.append($0) }
            own.sort()
            var at = 0
            while at < own.count {
                var end = at + 1
                while end < own.count && own[end] == own[at] { end += 1 }
                body(own[at], end - at)
                at = end
            }
        }
        for name in 0..<distinct.count {
            forEachDistinctPair(of: name) { pair, _ in
                if let list = lists[pair] {
                    sizes[Int(list)] += 1
                } else {
                    lists[pair] = Int32(sizes.count)
                    sizes.append(1)
                }
            }
        }
        var starts = [Int32](repeating: 0, count: sizes.count + 1)
        for (list, size) in sizes.enumerated() { starts[list + 1] = starts[list] + size }
        var next = starts
        var entries = [UInt64](repeating: 0, count: Int(starts[sizes.count]))
        for name in 0..<distinct.count {
            forEachDistinctPair(of: name) { pair, times in
                guard let list = lists[pair] else { return }
                entries[Int(next[Int(list)])] = UInt64(name) << 32 | UInt64(times)
                next[Int(list)] += 1
            }
        }
        pairLists = lists
        listStarts = starts
        self.entries = entries
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
        var rows = ([Int](), [Int]())
        // The names the query begins: within `allowed` however long.
        var low = 0, high = inOrder.count
        while low < high {
            let middle = (low + high) / 2
            if text.compare(Int(inOrder[middle]), with: wanted) < 0 { low = middle + 1 } else { high = middle }
        }
        while low < inOrder.count, text.hasPrefix(Int(inOrder[low]), wanted) {
            let name = Int(inOrder[low])
            best[name] = min(allowed, text.distance(from: wanted, to: name, atMost: allowed, rows: &rows))
            low += 1
        }
        for name in candidates(near: wanted, within: allowed, shared: &shared) where best[name] == nil {
            let distance = text.distance(from: wanted, to: name, atMost: allowed, rows: &rows)
            if distance <= allowed { best[name] = distance }
        }
        return Self.ranked(best, names: names, limit: limit)
    }

    /// Up to `limit` of `names` closest to `query`, nearest first: what
    /// `NearNames(names).closest(to: query, limit: limit)` answers, for one query without the
    /// index (which costs more than measuring every name of a fitting length once: a NOTE
    /// argument that names no note asks once).
    public static func closest(to query: String, among names: [String], limit: Int = 3) -> [String] {
        let text = FoldedNames(names)
        let wanted = text.characters(of: query)
        guard !wanted.isEmpty else { return [] }
        let allowed = max(2, wanted.count / 3)
        var best: [Int: Int] = [:]
        var rows = ([Int](), [Int]())
        for name in names.indices {
            if text.hasPrefix(name, wanted) {
                best[name] = min(allowed, text.distance(from: wanted, to: name, atMost: allowed, rows: &rows))
                continue
            }
            let length = text.length(name)
            guard length > 0, abs(length - wanted.count) <= allowed else { continue }
            let distance = text.distance(from: wanted, to: name, atMost: allowed, rows: &rows)
            if distance <= allowed { best[name] = distance }
        }
        return ranked(best, names: names, limit: limit)
    }

    /// The names of `best` (name number → distance), nearest first, then by name, each name
    /// once, `limit` at most.
    private static func ranked(_ best: [Int: Int], names: [String], limit: Int) -> [String] {
        var answer: [String] = []
        for (name, _) in best.map({ (name: names[$0.key], distance: $0.value) })
            .sorted(by: { ($0.distance, $0.name) < ($1.distance, $1.name) }) where answer.last != name {
            if answer.count == limit { break }
            answer.append(name)
        }
        return answer
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
        // The query's pairs by how many names hold them, commonest first; those left unread
        // hold fewer than `least` of the query's pairs together.
        var read = times.map { pair, inQuery -> (pair: UInt64, range: Range<Int>, inQuery: UInt64) in
            guard let list = pairLists[pair] else { return (pair, 0..<0, inQuery) }
            return (pair, Int(listStarts[Int(list)])..<Int(listStarts[Int(list) + 1]), inQuery)
        }
        read.sort { $0.range.count > $1.range.count }
        var unread = 0
        var unreadPairs: [(pair: UInt64, inQuery: Int)] = []
        while let first = read.first, unread + Int(first.inQuery) < least {
            unread += Int(first.inQuery)
            unreadPairs.append((first.pair, Int(first.inQuery)))
            read.removeFirst()
        }
        var touched: [Int] = []
        entries.withUnsafeBufferPointer { entries in
            for (_, range, inQuery) in read {
                for entry in entries[range] {
                    let name = Int(entry >> 32)
                    if shared[name] == 0 { touched.append(name) }
                    shared[name] += Int32(min(inQuery, entry & 0xFFFF_FFFF))
                }
            }
        }
        var found: [Int] = []
        for name in touched {
            // What the pairs read found, and then, where it takes them to reach `least`, what
            // the name shares of the pairs left unread, counted in the name itself.
            let partial = Int(shared[name])
            shared[name] = 0
            guard partial + unread >= least, fits(name) else { continue }
            if partial >= least || partial + text.shared(name, unreadPairs) >= least { found.append(name) }
        }
        return found
    }
}
