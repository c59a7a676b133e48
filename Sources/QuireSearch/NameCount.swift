import Foundation

/// A name with the number of notes that carry it (`tags()`, `projects()`).
public struct NameCount: Equatable, Sendable {
    /// The name as written (its most common spelling when notes differ in case).
    public var name: String
    /// Notes carrying it.
    public var count: Int

    /// Creates a count.
    public init(name: String, count: Int) {
        self.name = name
        self.count = count
    }

    /// The one rule for counting tags and projects (`quire tags`, `quire projects`,
    /// `quire stats`, the language server, the site's tag page): names compared
    /// case-insensitively, a note counted once per name, each shown in its most common spelling
    /// (a tie: the smallest), sorted by name case-insensitively. `lists` holds one list per note.
    public static func counting<Lists: Sequence>(_ lists: Lists) -> [NameCount] where Lists.Element == [String] {
        var counts: [String: NameCount] = [:]
        var spellings: [String: [String: Int]] = [:]
        for list in lists {
            var seen = Set<String>()
            for name in list {
                let key = name.lowercased()
                guard seen.insert(key).inserted else { continue }
                counts[key, default: NameCount(name: name, count: 0)].count += 1
                spellings[key, default: [:]][name, default: 0] += 1
            }
        }
        for (key, forms) in spellings where forms.count > 1 {
            let best = forms.max { $0.value == $1.value ? $0.key > $1.key : $0.value < $1.value }
            if let best { counts[key]?.name = best.key }
        }
        return counts.sorted { $0.key < $1.key }.map(\.value)
    }

    /// `rows` with the most used first, ties by name case-insensitively.
    public static func mostUsedFirst(_ rows: [NameCount]) -> [NameCount] {
        rows.sorted { $0.count != $1.count ? $0.count > $1.count : ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) }
    }
}
