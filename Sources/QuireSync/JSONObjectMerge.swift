import Foundation
import QuireCore

/// JSON configuration files (`.obsidian/*.json`) merged key by key: each top-level key changed
/// on one side takes that side's value; changed on both, the winner's. Read and written with
/// QuireCore's `JSON`, so the keys keep the order the files give them.
enum JSONObjectMerge {
    /// The merged object and the keys both sides changed differently (sorted); nil unless every
    /// side is a JSON object (an empty base counts as `{}`). The bytes are one side's own when
    /// the merge equals it, else the merged object indented by two spaces: the winner's keys in
    /// its order, a key only the loser has after the key it follows there.
    static func merge(base: Data, winner: Data, loser: Data) -> (data: Data, collided: [String])? {
        guard let old = members(base, emptyAllowed: true), let mine = members(winner), let theirs = members(loser) else {
            return nil
        }
        func value(_ key: String, in pairs: [(key: String, value: JSON)]) -> JSON? { pairs.first { $0.key == key }?.value }
        var merged = mine
        var collided: [String] = []
        var keys = mine.map(\.key)
        for key in old.map(\.key) + theirs.map(\.key) where !keys.contains(key) { keys.append(key) }
        for key in keys {
            let (original, winning, losing) = (value(key, in: old), value(key, in: mine), value(key, in: theirs))
            if winning == losing || losing == original { continue }
            guard winning == original else {
                collided.append(key)
                continue
            }
            if let losing {
                if let index = merged.firstIndex(where: { $0.key == key }) {
                    merged[index].value = losing
                } else {
                    merged.insert((key, losing), at: insertion(of: key, after: theirs, in: merged))
                }
            } else {
                merged.removeAll { $0.key == key }
            }
        }
        if same(merged, mine) { return (winner, collided.sorted()) }
        if same(merged, theirs) { return (loser, collided.sorted()) }
        let text = JSON.object(merged.map { ($0.key, $0.value) }).rendered(JSON.Style(indent: 2)) + "\n"
        return (Data(text.utf8), collided.sorted())
    }

    /// Where `key` (a key of `source` only) goes in `merged`: after the nearest key before it in
    /// `source` that `merged` has, else first.
    private static func insertion(of key: String, after source: [(key: String, value: JSON)],
                                  in merged: [(key: String, value: JSON)]) -> Int {
        guard let position = source.firstIndex(where: { $0.key == key }) else { return merged.count }
        for earlier in source[..<position].reversed() {
            if let index = merged.firstIndex(where: { $0.key == earlier.key }) { return index + 1 }
        }
        return 0
    }

    /// Whether two objects hold the same keys in the same order with equal values.
    private static func same(_ first: [(key: String, value: JSON)], _ second: [(key: String, value: JSON)]) -> Bool {
        first.count == second.count && zip(first, second).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    /// The top-level members of a JSON object, in written order (a repeated key: its first).
    private static func members(_ data: Data, emptyAllowed: Bool = false) -> [(key: String, value: JSON)]? {
        if emptyAllowed, data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return [] }
        guard let members = (try? JSON.parse(data))?.members else { return nil }
        var seen = Set<String>()
        return members.filter { seen.insert($0.key).inserted }
    }
}
