/// Glob matching for `path:` filters: `*` matches within one path component, `**` across
/// components, `?` one character, `[abc]` a set; everything else literally.
enum Glob {
    static func matches(_ pattern: String, _ text: String) -> Bool {
        matches(Array(pattern), 0, Array(text), 0)
    }

    private static func matches(_ pattern: [Character], _ p: Int, _ text: [Character], _ t: Int) -> Bool {
        var p = p
        var t = t
        while p < pattern.count {
            let character = pattern[p]
            if character == "*" {
                let crosses = p + 1 < pattern.count && pattern[p + 1] == "*"
                let next = p + (crosses ? 2 : 1)
                if crosses, next < pattern.count, pattern[next] == "/",
                   matches(pattern, next + 1, text, t) {
                    return true  // `**/` also matches no folder at all
                }
                var end = t
                while true {
                    if matches(pattern, next, text, end) { return true }
                    guard end < text.count, crosses || text[end] != "/" else { return false }
                    end += 1
                }
            }
            guard t < text.count else { return false }
            if character == "?" {
                guard text[t] != "/" else { return false }
            } else if character == "[", let close = pattern[(p + 1)...].firstIndex(of: "]") {
                let set = pattern[(p + 1)..<close]
                let negated = set.first == "!" || set.first == "^"
                let members = negated ? set.dropFirst() : set
                if members.contains(text[t]) == negated { return false }
                p = close + 1
                t += 1
                continue
            } else if character != text[t] {
                return false
            }
            p += 1
            t += 1
        }
        return t == text.count
    }
}
