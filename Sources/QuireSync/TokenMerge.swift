import Foundation
import QuireGit

/// The word-by-word merge of lines both sides changed (`BodyMerge`): the same three-way rules as
/// for lines, on `TextTokens`. Where both sides changed the same words, the newer side's words
/// are kept and the older side's are reported lost; both sides adding words at one place is such
/// a collision too (`Chen (chair)` against `Chen (joins late)`), except where one of them added
/// whole lines there (its run begins or ends with a line break): both are kept, in the order the
/// lines say (`insertionOrder`).
enum TokenMerge {
    /// The merged bytes, and each place where the older side's words were dropped with the line
    /// (counted from 0 in the merged region) it is on; nil where a side rewrote the lines (it
    /// changed more than half their words): the caller gives them to the newer side whole.
    static func merge(base: TextTokens, older: TextTokens, newer: TextTokens) throws
        -> (bytes: [UInt8], lost: [(lineOffset: Int, lost: String, kept: String)])? {
        var ids: [ArraySlice<UInt8>: Int32] = [:]
        func numbered(_ tokens: TextTokens) -> [Int32] {
            tokens.ranges.indices.map { index in
                let token = tokens[index]
                if let known = ids[token] { return known }
                let id = Int32(ids.count)
                ids[token] = id
                return id
            }
        }
        let numbers = (base: numbered(base), older: numbered(older), newer: numbered(newer))
        let changes = (older: try LineDiff.changes(old: numbers.base, new: numbers.older),
                       newer: try LineDiff.changes(old: numbers.base, new: numbers.newer))
        // Lines one side rewrote (it kept less than half the words there) are no place for a
        // word merge: two rewrites share only chance words, and merging them mixes both.
        let words = base.ranges.indices.filter(base.isWord)
        if !words.isEmpty {
            for side in [changes.older, changes.newer] {
                var touched = [Bool](repeating: false, count: numbers.base.count)
                for change in side { for index in change.old { touched[index] = true } }
                if words.filter({ touched[$0] }).count * 2 > words.count { return nil }
            }
        }
        // Two sides' edits of one phrase with no word between them (`stays shut:` beside `, and
        // Remy cooks`) would read as neither side wrote: they collide, unless a line break
        // stands between them or at their facing ends (one of them adds whole lines).
        let apart = { (first: SequenceMerge.Change, second: SequenceMerge.Change) -> Bool in
            let gap = first.old.upperBound..<second.old.lowerBound
            if gap.contains(where: { base.isWord($0) || base.isLineBreak($0) }) { return true }
            let (firstTokens, secondTokens) = (first.side == .older ? older : newer, second.side == .older ? older : newer)
            if let last = first.new.last, firstTokens.isLineBreak(last) { return true }
            if let head = second.new.first, secondTokens.isLineBreak(head) { return true }
            return false
        }
        let chunks = SequenceMerge.chunks(baseCount: numbers.base.count, older: changes.older, newer: changes.newer, apart: apart)
        var output: [UInt8] = []
        var lost: [(lineOffset: Int, lost: String, kept: String)] = []
        var lineBreaks = 0
        func append(_ tokens: TextTokens, _ range: Range<Int>) {
            for index in range {
                output.append(contentsOf: tokens[index])
                if tokens.isLineBreak(index) { lineBreaks += 1 }
            }
        }
        for chunk in chunks {
            switch chunk {
            case let .base(range): append(base, range)
            case let .take(side, range): append(side == .older ? older : newer, range)
            case let .collision(baseRange, olderRange, newerRange):
                if numbers.older[olderRange] == numbers.newer[newerRange] {
                    append(newer, newerRange)
                } else if baseRange.isEmpty, let olderFirst = insertionOrder(older, olderRange, newer, newerRange) {
                    if olderFirst {
                        append(older, olderRange)
                        append(newer, newerRange)
                    } else {
                        append(newer, newerRange)
                        append(older, olderRange)
                    }
                } else {
                    lost.append((lineBreaks, text(older, olderRange), text(newer, newerRange)))
                    append(newer, newerRange)
                }
            }
        }
        return (output, lost)
    }

    /// Where both sides added words at one place, whether both can be kept and in which order
    /// (true: the older side's first): when both add whole lines (each run begins, or each
    /// ends, with a line break) the older side's come first; when one adds whole lines and the
    /// other words, a run that ends with a line break (lines before the words) goes first and one
    /// that begins with it (lines after) last. Nil: a collision.
    private static func insertionOrder(_ older: TextTokens, _ olderRange: Range<Int>,
                                       _ newer: TextTokens, _ newerRange: Range<Int>) -> Bool? {
        guard let olderFirst = olderRange.first, let olderLast = olderRange.last,
              let newerFirst = newerRange.first, let newerLast = newerRange.last else { return nil }
        let olderEnds = older.isLineBreak(olderLast), olderBegins = older.isLineBreak(olderFirst)
        let newerEnds = newer.isLineBreak(newerLast), newerBegins = newer.isLineBreak(newerFirst)
        if (olderEnds && newerEnds) || (olderBegins && newerBegins) { return true }
        if olderEnds && !newerBegins { return true }
        if newerEnds && !olderBegins { return false }
        if olderBegins && !newerEnds { return false }
        if newerBegins && !olderEnds { return true }
        return nil
    }

    /// The words of run `range`, widened to whole words (`-A` inside `BETA-A` reads `BETA-A`).
    private static func text(_ tokens: TextTokens, _ range: Range<Int>) -> String {
        guard var first = range.first, var last = range.last else { return "" }
        func isBlank(_ index: Int) -> Bool { tokens.isLineBreak(index) || tokens[index].allSatisfy { $0 == 0x20 || $0 == 0x09 } }
        while first > 0, !isBlank(first), !isBlank(first - 1) { first -= 1 }
        while last + 1 < tokens.ranges.count, !isBlank(last), !isBlank(last + 1) { last += 1 }
        return String(decoding: tokens.bytes[tokens.ranges[first].lowerBound..<tokens.ranges[last].upperBound], as: UTF8.self)
    }
}

/// The guard of a merge inside lines: whether a merged text holds a run of text twice where
/// neither side did — a whole line with two words or more, or a run of five words — the sign of a
/// merge that took one change twice (a sentence moved on one side and edited on the other). Lines
/// without words (fences, rules, table separators) repeat in any Markdown and do not count.
enum DuplicateRuns {
    /// The shortest run of words that counts.
    static let words = 5

    /// Whether `merged` holds a line or a run of `words` words more often than once and more
    /// often than any of `sides` does. A merge that is one side's text repeats nothing new.
    static func found(in merged: [UInt8], sides: [[UInt8]]) -> Bool {
        if sides.contains(merged) { return false }
        let counts = (merged: runs(merged), sides: sides.map(runs))
        for (run, count) in counts.merged where count >= 2 {
            if counts.sides.allSatisfy({ $0[run, default: 0] < count }) { return true }
        }
        return false
    }

    /// A line or a run of words, by the hashes of its bytes (a collision of hashes only makes
    /// the guard refuse a merge, which costs a region, never text).
    private struct Run: Hashable {
        var line: Bool
        var hashes: [Int]
    }

    /// How often each line of two words or more and each run of `words` words occurs in `bytes`.
    private static func runs(_ bytes: [UInt8]) -> [Run: Int] {
        var result: [Run: Int] = [:]
        let tokens = TextTokens(bytes)
        func hash(_ range: Range<Int>) -> Int {
            var hasher = Hasher()
            bytes[range].withUnsafeBytes { hasher.combine(bytes: $0) }
            return hasher.finalize()
        }
        // Lines (without the spaces around them) that hold two words or more.
        var lineStart = 0, lineWords = 0
        func endLine(at end: Int) {
            if lineWords >= 2 {
                var low = lineStart, high = end
                while low < high, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[low]) { low += 1 }
                while high > low, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[high - 1]) { high -= 1 }
                result[Run(line: true, hashes: [hash(low..<high)]), default: 0] += 1
            }
            lineStart = end
            lineWords = 0
        }
        var wordHashes: [Int] = []
        for index in tokens.ranges.indices {
            if tokens.isLineBreak(index) {
                endLine(at: tokens.ranges[index].upperBound)
            } else if tokens.isWord(index) {
                lineWords += 1
                wordHashes.append(hash(tokens.ranges[index]))
            }
        }
        endLine(at: bytes.count)
        if wordHashes.count >= words {
            for start in 0...(wordHashes.count - words) {
                result[Run(line: false, hashes: Array(wordHashes[start..<(start + words)])), default: 0] += 1
            }
        }
        return result
    }
}
