import Foundation

/// How far apart two names are, for "did you mean …" suggestions: the Levenshtein distance
/// (insertions, deletions and substitutions of characters, each costing one).
public enum EditDistance {
    /// The number of single-character edits that turn `first` into `second`.
    public static func between(_ first: String, _ second: String) -> Int {
        let a = Array(first), b = Array(second)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// Up to `limit` of `names` closest to `query` (compared ignoring case and accents), nearest
    /// first, ties by name: those within a third of the query's length (at least 2 edits), or
    /// that start with it. Each name once; none for an empty query. For many queries among
    /// many names, `NearNames` answers the same at a fraction of the cost.
    public static func closest(to query: String, among names: [String], limit: Int = 3) -> [String] {
        let wanted = fold(query)
        guard !wanted.isEmpty else { return [] }
        let allowed = max(2, wanted.count / 3)
        var best: [String: Int] = [:]
        for name in names {
            let folded = fold(name)
            guard !folded.isEmpty, abs(folded.count - wanted.count) <= allowed || folded.hasPrefix(wanted) else { continue }
            let distance = folded.hasPrefix(wanted) ? min(allowed, between(wanted, folded)) : between(wanted, folded)
            guard distance <= allowed else { continue }
            best[name] = min(best[name] ?? distance, distance)
        }
        return best.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.prefix(limit).map(\.key)
    }

    /// `text` trimmed of outer blanks, ignoring case and accents: what names are compared as.
    static func fold(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespaces).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
