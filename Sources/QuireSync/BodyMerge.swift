import Foundation
import QuireGit

/// The three-way merge of a note's body (or of a whole file that has no editable front matter),
/// as Docs/sync.md "The body" describes: every change of either side that overlaps nothing of the
/// other's is kept (edits of adjacent lines too); both sides' insertions at one place are kept,
/// the older side's first; where both changed the same lines, those lines merge again word by
/// word, and only the words both changed go to the newer side. A word merge that would hold a run
/// of text twice where neither side did is refused, and then those lines alone go to the newer
/// side. Each place where the older side's text was dropped is returned as a `Collision`.
///
/// Deterministic and symmetric: the result depends on which side is older, never on which side
/// is local.
enum BodyMerge {
    /// A place where the older side's text lost to the newer side's.
    struct Collision: Equatable {
        /// The line of the merged text where it is (1-based).
        var line: Int
        /// The older side's text there (dropped; empty when the older side deleted it).
        var lost: String
        /// The newer side's text there (kept).
        var kept: String
    }

    /// Regions longer than this many tokens on a side are not merged word by word (the diff's
    /// cost): the region goes to the newer side whole.
    static let tokenLimit = 20_000

    /// Merges `older`'s and `newer`'s changes of `base`.
    static func merge(base: Data, older: Data, newer: Data) throws -> (merged: Data, collisions: [Collision]) {
        if older == newer || base == older { return (newer, []) }
        if base == newer { return (older, []) }
        let texts = (base: Lines(base), older: Lines(older), newer: Lines(newer))
        let chunks = SequenceMerge.chunks(baseCount: texts.base.count,
                                          older: try LineDiff.changes(old: base, new: older),
                                          newer: try LineDiff.changes(old: base, new: newer))
        var output: [UInt8] = []
        output.reserveCapacity(max(older.count, newer.count) + 64)
        var lineCount = 0
        var collisions: [Collision] = []
        func append(_ bytes: ArraySlice<UInt8>) {
            output.append(contentsOf: bytes)
            lineCount += bytes.lazy.filter { $0 == 0x0A }.count
        }
        for chunk in chunks {
            switch chunk {
            case let .base(range): append(texts.base.bytes(range))
            case let .take(side, range): append((side == .older ? texts.older : texts.newer).bytes(range))
            case let .collision(baseRange, olderRange, newerRange):
                let region = (base: texts.base.bytes(baseRange), older: texts.older.bytes(olderRange),
                              newer: texts.newer.bytes(newerRange))
                let line = lineCount + 1
                let resolved = try resolve(base: region.base, older: region.older, newer: region.newer, insertion: baseRange.isEmpty)
                append(resolved.bytes[...])
                collisions += resolved.lost.map { Collision(line: line + $0.lineOffset, lost: $0.lost, kept: $0.kept) }
            }
        }
        return (Data(output), collisions)
    }

    /// A region both sides changed: word by word where that is clean enough, else the newer side.
    private static func resolve(base: ArraySlice<UInt8>, older: ArraySlice<UInt8>, newer: ArraySlice<UInt8>,
                                insertion: Bool) throws -> (bytes: [UInt8], lost: [(lineOffset: Int, lost: String, kept: String)]) {
        if older == newer { return (Array(newer), []) }
        let whole = [(lineOffset: 0, lost: String(decoding: older, as: UTF8.self), kept: String(decoding: newer, as: UTF8.self))]
        if insertion {
            // Both added lines at one place: both kept, the older side's first — unless one
            // holds the other's lines (in order), or together they would repeat a run of text.
            let (olderLines, newerLines) = (Lines(Data(older)), Lines(Data(newer)))
            if olderLines.isSubsequence(of: newerLines) { return (Array(newer), []) }
            if newerLines.isSubsequence(of: olderLines) { return (Array(older), []) }
            // Lines put before others end with a line break: the older side's first, unless only
            // the newer side's end with one (the older side's then go last, at the text's end);
            // where neither does (both added a last line without one), a line break joins them.
            let both: [UInt8]
            if older.last == 0x0A {
                both = Array(older) + Array(newer)
            } else if newer.last == 0x0A {
                both = Array(newer) + Array(older)
            } else {
                both = Array(older) + [0x0A] + Array(newer)
            }
            if !DuplicateRuns.found(in: both, sides: [Array(older), Array(newer)]) { return (both, []) }
            return (Array(newer), whole)
        }
        let tokens = (base: TextTokens(Array(base)), older: TextTokens(Array(older)), newer: TextTokens(Array(newer)))
        guard max(tokens.base.ranges.count, tokens.older.ranges.count, tokens.newer.ranges.count) <= tokenLimit,
              let merged = try TokenMerge.merge(base: tokens.base, older: tokens.older, newer: tokens.newer),
              !DuplicateRuns.found(in: merged.bytes, sides: [Array(older), Array(newer)])
        else { return (Array(newer), whole) }
        return (merged.bytes, merged.lost)
    }
}

/// A text's lines, each with its line break (the last may have none).
struct Lines {
    let bytes: [UInt8]
    let ranges: [Range<Int>]

    init(_ data: Data) {
        bytes = Array(data)
        var ranges: [Range<Int>] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            ranges.append(start..<(index + 1))
            start = index + 1
        }
        if start < bytes.count { ranges.append(start..<bytes.count) }
        self.ranges = ranges
    }

    var count: Int { ranges.count }

    /// The bytes of lines `range`.
    func bytes(_ range: Range<Int>) -> ArraySlice<UInt8> {
        guard !range.isEmpty else { return [] }
        return bytes[ranges[range.lowerBound].lowerBound..<ranges[range.upperBound - 1].upperBound]
    }

    /// Whether every line of this text is in `other`, in order.
    func isSubsequence(of other: Lines) -> Bool {
        var index = 0
        for range in other.ranges where index < ranges.count {
            if bytes[ranges[index]] == other.bytes[range] { index += 1 }
        }
        return index == ranges.count
    }
}
