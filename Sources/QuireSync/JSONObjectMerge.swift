import Foundation

/// JSON configuration files (`.obsidian/*.json`) merged key by key: each top-level key changed
/// on one side takes that side's value; changed on both, the winner's.
enum JSONObjectMerge {
    /// The merged object and the keys both sides changed differently; nil unless every side
    /// is a JSON object (an empty base counts as `{}`). The bytes are one side's own when the
    /// merge equals it, else the merged object with sorted keys, indented by two spaces.
    static func merge(base: Data, winner: Data, loser: Data) -> (data: Data, collided: [String])? {
        guard let old = object(base, emptyAllowed: true), let mine = object(winner), let theirs = object(loser) else {
            return nil
        }
        var merged = mine
        var collided: [String] = []
        for key in Set(old.keys).union(theirs.keys).sorted() {
            let (original, winning, losing) = (old[key], mine[key], theirs[key])
            if winning == losing || losing == original { continue }
            if winning == original { merged[key] = losing } else { collided.append(key) }
        }
        if merged == mine { return (winner, collided) }
        if merged == theirs { return (loser, collided) }
        var text = "{"
        for (index, key) in merged.keys.sorted().enumerated() {
            guard let value = merged[key] else { continue }
            text += (index == 0 ? "\n" : ",\n") + "  " + quoted(key) + ": "
                + value.replacingOccurrences(of: "\n", with: "\n  ")
        }
        text += merged.isEmpty ? "}\n" : "\n}\n"
        return (Data(text.utf8), collided)
    }

    /// Each top-level key of a JSON object with its value as canonical JSON text.
    private static func object(_ data: Data, emptyAllowed: Bool = false) -> [String: String]? {
        if emptyAllowed, data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return [:] }
        guard let parsed = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
              let object = parsed as? [String: Any] else { return nil }
        var result: [String: String] = [:]
        for (key, value) in object {
            guard let text = try? JSONSerialization.data(withJSONObject: value,
                                                         options: [.sortedKeys, .prettyPrinted, .fragmentsAllowed, .withoutEscapingSlashes])
            else { return nil }
            result[key] = String(decoding: text, as: UTF8.self)
        }
        return result
    }

    /// `key` as a JSON string.
    private static func quoted(_ key: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: key, options: [.fragmentsAllowed, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
