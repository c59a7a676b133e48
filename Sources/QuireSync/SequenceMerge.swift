import Foundation
import QuireGit

/// The three-way merge of two sequences (of lines, or of words) that changed one base: which
/// stretches each side changed, and where their changes collide. Docs/sync.md, "The body".
///
/// A change of one side collides with a change of the other when they overlap: they replace a
/// common element of the base, or one inserts strictly inside what the other replaces, or both
/// insert at one point. Lines that merely touch — edits of adjacent lines, an insertion right
/// before or after the other side's edit — are kept both, which is where this differs from git's
/// own merge (xdiff's merge joins adjacent changes into one conflict). Words are held to more:
/// two edits of one sentence with no word between them are one edit of that phrase (`apart`).
enum SequenceMerge {
    /// The two sides, named by rank: `older` loses collisions to `newer`.
    enum Side: Int, Comparable {
        case older, newer
        static func < (left: Side, right: Side) -> Bool { left.rawValue < right.rawValue }
    }

    /// One stretch of the merged sequence.
    enum Chunk: Equatable {
        /// Base elements neither side changed.
        case base(Range<Int>)
        /// One side's elements, a change only that side made there.
        case take(Side, Range<Int>)
        /// Both sides changed `base` (empty: both inserted at that point): the older side made it
        /// `older`, the newer side `newer` (ranges in each side's sequence).
        case collision(base: Range<Int>, older: Range<Int>, newer: Range<Int>)
    }

    /// One side's change: base elements `old` made into `new` of that side's sequence.
    struct Change {
        var side: Side
        var old: Range<Int>
        var new: Range<Int>
    }

    /// The merged sequence as chunks, from each side's changes against a base of `baseCount`
    /// elements (`LineDiff` order: sorted, not overlapping within one side). `apart` decides
    /// whether two changes of different sides that touch or lie near each other without
    /// overlapping (the first before the second in the base) are separate: always, for lines;
    /// for words, only with a word or a line between them (`TokenMerge`).
    static func chunks(baseCount: Int, older: [LineChange], newer: [LineChange],
                       apart: (Change, Change) -> Bool = { _, _ in true }) -> [Chunk] {
        var changes = older.map { Change(side: .older, old: $0.old, new: $0.new) }
            + newer.map { Change(side: .newer, old: $0.old, new: $0.new) }
        changes.sort { ($0.old.lowerBound, $0.old.upperBound, $0.side) < ($1.old.lowerBound, $1.old.upperBound, $1.side) }
        var groups: [[Change]] = []
        for change in changes {
            if let last = groups.last, last.contains(where: { $0.side != change.side && collide($0, change, apart: apart) }) {
                groups[groups.count - 1].append(change)
            } else {
                groups.append([change])
            }
        }
        var result: [Chunk] = []
        var position = 0
        for group in groups {
            let low = group.map(\.old.lowerBound).min() ?? position
            let high = group.map(\.old.upperBound).max() ?? position
            if position < low { result.append(.base(position..<low)) }
            if group.count == 1, let only = group.first {
                result.append(.take(only.side, only.new))
            } else {
                result.append(.collision(base: low..<high, older: span(of: .older, in: group, low: low, high: high),
                                         newer: span(of: .newer, in: group, low: low, high: high)))
            }
            position = max(position, high)
        }
        if position < baseCount { result.append(.base(position..<baseCount)) }
        return result
    }

    /// Whether two changes of different sides collide (see the type's note); changes that do
    /// not overlap collide too where `apart` says they are not apart.
    private static func collide(_ left: Change, _ right: Change, apart: (Change, Change) -> Bool) -> Bool {
        let overlap: Bool
        switch (left.old.isEmpty, right.old.isEmpty) {
        case (true, true): overlap = left.old.lowerBound == right.old.lowerBound
        case (true, false): overlap = right.old.lowerBound < left.old.lowerBound && left.old.lowerBound < right.old.upperBound
        case (false, true): overlap = left.old.lowerBound < right.old.lowerBound && right.old.lowerBound < left.old.upperBound
        case (false, false): overlap = left.old.lowerBound < right.old.upperBound && right.old.lowerBound < left.old.upperBound
        }
        if overlap { return true }
        let (first, second) = left.old.lowerBound <= right.old.lowerBound ? (left, right) : (right, left)
        return !apart(first, second)
    }

    /// What `side` made of the base stretch `low..<high`, as a range of its own sequence: its
    /// changes there, and the base elements around them it kept (each side's changes are
    /// ordered; unchanged elements map one to one).
    private static func span(of side: Side, in group: [Change], low: Int, high: Int) -> Range<Int> {
        let own = group.filter { $0.side == side }
        guard let first = own.first, let last = own.last else { return low..<low }
        let start = first.new.lowerBound - (first.old.lowerBound - low)
        let end = last.new.upperBound + (high - last.old.upperBound)
        return start..<max(start, end)
    }
}
