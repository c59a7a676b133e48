import Foundation

/// Paths by their letter-case-folded form: `Plan.md` and `plan.md` (or `Café.md` and `café.md`
/// in either Unicode form) are one key — one file on the case-insensitive file systems of
/// macOS and Windows, where a checkout writes one over the other. The merge asks it before it
/// places a file that arrives from another device (`TreeMerger`).
struct CaseFoldedNames {
    private var names: [String: [String]] = [:]

    init<Paths: Sequence>(_ paths: Paths) where Paths.Element == String {
        for path in paths { insert(path) }
    }

    mutating func insert(_ path: String) {
        names[Self.key(path), default: []].append(path)
    }

    /// The names held that differ from `path` only in letter case (a name equal to it, or equal
    /// but for its Unicode form, is not a twin: that is one path to the merge).
    func twins(of path: String) -> [String] {
        (names[Self.key(path)] ?? []).filter { $0 != path }
    }

    /// The folded form: lowercased (Swift then compares it by canonical equivalence, so both
    /// Unicode forms of a name are one key too).
    static func key(_ path: String) -> String { path.lowercased() }
}
