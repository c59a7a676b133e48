/// Fuzzy matching of what the user typed against a name (a title, an alias, a path): every
/// character of the query appears in order, case-insensitively; runs of consecutive matches,
/// a match at the start and at word starts score higher, a shorter name breaks ties.
struct FuzzyMatch {
    private let query: [Unicode.Scalar]

    /// A matcher for `query` (spaces are ignored).
    init(_ query: String) {
        self.query = Array(query.lowercased().unicodeScalars.filter { $0 != " " })
    }

    /// Whether the query is empty (everything matches, equally).
    var isEmpty: Bool { query.isEmpty }

    /// Lowercased scalars of a name, prepared once per name.
    static func prepare(_ name: String) -> [Unicode.Scalar] { Array(name.lowercased().unicodeScalars) }

    /// The score of `name` (prepared), nil when it does not match. Higher is better.
    func score(_ name: [Unicode.Scalar]) -> Int? {
        name.withUnsafeBufferPointer { score($0) }
    }

    /// The score of a prepared name in place.
    func score(_ name: UnsafeBufferPointer<Unicode.Scalar>) -> Int? {
        if query.isEmpty { return 0 }
        guard query.count <= name.count else { return nil }
        var score = 0
        var position = 0
        var previous = -2
        for character in query {
            var found: Int?
            while position < name.count {
                if name[position] == character {
                    found = position
                    break
                }
                position += 1
            }
            guard let index = found else { return nil }
            if index == 0 {
                score += 12
            } else if index == previous + 1 {
                score += 8
            } else if Self.isBoundary(name[index - 1]) {
                score += 6
            } else {
                score -= min(3, index - previous - 1)
            }
            previous = index
            position = index + 1
        }
        return score * 16 - min(name.count, 15)
    }

    private static func isBoundary(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "-" || scalar == "_" || scalar == "/" || scalar == "." || scalar == "("
    }
}
