import Foundation

/// Chooses the merge strategy for a note from the `merge:` rules of `.quire/config.yml`:
/// pattern → strategy, the first matching rule wins, else the fallback.
///
/// Patterns follow `.gitattributes`: `*` and `?` match within one path segment, `**` matches
/// across segments (`Journal/**`, `**/draft-*.md`); a pattern without `/` matches the file
/// name at any depth (`*.md`); a leading `/` anchors at the vault root (as every pattern with a
/// `/` is); a trailing `/` matches everything below that folder.
public struct MergeStrategySelector: Sendable {
    private struct Rule: Sendable {
        var pattern: [Character]
        var matchesName: Bool
        var strategy: MergeStrategy
    }

    private let rules: [Rule]
    /// The strategy for paths no rule matches.
    public let fallback: MergeStrategy

    /// Creates a selector from rules in priority order.
    public init(rules: [(pattern: String, strategy: MergeStrategy)], fallback: MergeStrategy = .newest) {
        self.rules = rules.map { rule in
            var pattern = rule.pattern.trimmingCharacters(in: .whitespaces)
            let matchesName = !pattern.contains("/")
            if pattern.hasPrefix("/") { pattern.removeFirst() }
            if pattern.hasSuffix("/") { pattern += "**" }
            return Rule(pattern: Array(pattern), matchesName: matchesName, strategy: rule.strategy)
        }
        self.fallback = fallback
    }

    /// The strategy for `path` (relative to the vault root, `/`-separated).
    public func strategy(for path: String) -> MergeStrategy {
        let path = path.hasPrefix("/") ? String(path.dropFirst()) : path
        let name = path.split(separator: "/").last.map(String.init) ?? path
        for rule in rules where Self.matches(rule.pattern, Array(rule.matchesName ? name : path)) {
            return rule.strategy
        }
        return fallback
    }

    /// Whether glob `pattern` matches all of `text`.
    static func matches(_ pattern: [Character], _ text: [Character]) -> Bool {
        var memo: [Int: Bool] = [:]
        func match(_ p: Int, _ t: Int) -> Bool {
            let slot = p * (text.count + 1) + t
            if let known = memo[slot] { return known }
            let result: Bool
            if p == pattern.count {
                result = t == text.count
            } else if pattern[p] == "*", p + 1 < pattern.count, pattern[p + 1] == "*" {
                var next = p + 2
                while next < pattern.count, pattern[next] == "*" { next += 1 }
                let slashFollows = next < pattern.count && pattern[next] == "/"
                let atSegmentStart = p == 0 || pattern[p - 1] == "/"
                if slashFollows, atSegmentStart {
                    // `**/` matches zero or more whole folders.
                    result = match(next + 1, t) || (t..<text.count).contains { text[$0] == "/" && match(next + 1, $0 + 1) }
                } else {
                    result = (t...text.count).contains { match(next, $0) }
                }
            } else if pattern[p] == "*" {
                var end = t
                var found = match(p + 1, end)
                while !found, end < text.count, text[end] != "/" {
                    end += 1
                    found = match(p + 1, end)
                }
                result = found
            } else if t < text.count, pattern[p] == "?" {
                result = text[t] != "/" && match(p + 1, t + 1)
            } else {
                result = t < text.count && pattern[p] == text[t] && match(p + 1, t + 1)
            }
            memo[slot] = result
            return result
        }
        return match(0, 0)
    }
}
