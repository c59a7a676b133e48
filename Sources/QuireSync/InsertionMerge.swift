import Foundation

/// Concurrent insertions at one spot (issue 21): two devices each add lines at the same place —
/// typically an item at the end of a checklist — and delete nothing. A line merge sees that as a
/// collision; both insertions are kept instead, the winner's (the newer) last.
enum InsertionMerge {
    /// `base` with both sides' insertions where each side only inserted lines at one and the same
    /// point of `base` and removed or changed none; the loser's lines first. Nil otherwise, and
    /// for an empty `base` (two texts written apart share no spot).
    static func merge(base: Data, winner: Data, loser: Data) -> Data? {
        let old = lines(base)
        guard !old.isEmpty, let mine = insertion(base: old, side: lines(winner)), let theirs = insertion(base: old, side: lines(loser)),
              mine.at == theirs.at, theirs.lines.allSatisfy({ $0.last == 0x0A }) else { return nil }
        // Lines inserted before others must end with a line break, or two lines would join.
        if mine.at < old.count, mine.lines.last?.last != 0x0A { return nil }
        let merged = old[..<mine.at] + theirs.lines + mine.lines + old[mine.at...]
        return Data(merged.joined())
    }

    /// The point of `base` where `side` inserted lines and those lines, when inserting is all
    /// `side` did (the point as late as the lines allow); nil otherwise.
    private static func insertion(base: [[UInt8]], side: [[UInt8]]) -> (at: Int, lines: ArraySlice<[UInt8]>)? {
        guard side.count > base.count else { return nil }
        var prefix = 0
        while prefix < base.count, base[prefix] == side[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < base.count - prefix, base[base.count - 1 - suffix] == side[side.count - 1 - suffix] { suffix += 1 }
        guard prefix + suffix == base.count else { return nil }
        return (prefix, side[prefix..<(side.count - suffix)])
    }

    /// The lines of `data`, each with its line break (the last one may have none).
    private static func lines(_ data: Data) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in data {
            current.append(byte)
            if byte == 0x0A {
                result.append(current)
                current = []
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}
