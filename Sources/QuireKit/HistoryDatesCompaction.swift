import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The dates file (`HistoryDatesFile`) written whole again from its own bytes, as `write` would
/// write what `read` gives with the changes laid over: each path's last line up to the last
/// `head` line kept as the bytes it is (a removal drops the path; lines after the last `head`
/// line, an append cut short, are not used), the changes' lines over them, ordered by their
/// paths' bytes. No string and no entry is made per line: the lines are checked in place
/// (`HistoryDatesLine.Shape`), ordered as spans of the mapped file (its base part and each
/// appended block are already in order: the sort finds those runs and merges them) and copied.
/// Paths are told apart by their exact bytes (a name and its NFD twin are two paths, as in git).
struct HistoryDatesCompaction {
    /// One line of the file or of the changes: where it is, its path's length, whether it
    /// removes the path, and its place among the lines (a later line wins).
    private struct Line {
        var start: Int
        var pathLength: Int32
        var length: Int32
        var sequence: Int32
        var removal: Bool
    }

    /// The lines of the file up to its last `head` line, each path's last alone, by path.
    private var lines: [Line] = []

    /// The compacted bytes of the file whose bytes are `file` with the lines of `changes` (lines
    /// as `append` makes them, without a `head` line) laid over, ending with `head <new>`; nil
    /// when `file` does not read as the format says (a damaged line before a `head` line, no
    /// `head` line, another first line: the format before too).
    static func compacted(_ file: UnsafeRawBufferPointer, changes: UnsafeRawBufferPointer, head new: String) -> Data? {
        let fileBytes = file.bindMemory(to: UInt8.self)
        let changeBytes = changes.bindMemory(to: UInt8.self)
        guard var kept = HistoryDatesCompaction(fileBytes),
              let changed = HistoryDatesCompaction(lines: changeBytes, from: nil) else { return nil }
        kept.lines = merge(kept.lines, in: fileBytes, changed.lines, in: changeBytes)
        var length = 0
        for line in kept.lines where !line.removal { length += Int(line.length) + 1 }
        let tail = Array((HistoryDatesFile.headPrefix + new + "\n").utf8)
        let firstLine = Array((HistoryDatesFile.header + "\(length + tail.count)\n").utf8)
        var data = Data(capacity: firstLine.count + length + tail.count)
        data.append(contentsOf: firstLine)
        for line in kept.lines where !line.removal {
            // A change's start counts from the end of the file (`merge`). Copied with its line
            // break: a line used is followed by a `head` line, a change's line ends with one.
            let (source, start) = line.start < fileBytes.count ? (fileBytes, line.start) : (changeBytes, line.start - fileBytes.count)
            guard let base = source.baseAddress else { continue }
            data.append(base + start, count: Int(line.length) + 1)
        }
        data.append(contentsOf: tail)
        return data
    }

    /// The lines of a whole file (its first line checked); nil when it does not read.
    private init?(_ file: UnsafeBufferPointer<UInt8>) {
        var reader = DateLines(file)
        guard let first = reader.next(), first.starts(with: HistoryDatesFile.header.utf8) else { return nil }
        self.init(lines: file, from: reader.position)
    }

    /// The lines of `bytes` from `start` on (all of them when `start` is nil: the changes,
    /// which hold no `head` line and are all used), each path's last alone, ordered by path;
    /// nil when a damaged line comes before a `head` line, or `start` is given and no `head`
    /// line follows it.
    private init?(lines bytes: UnsafeBufferPointer<UInt8>, from start: Int?) {
        var reader = DateLines(bytes)
        reader.position = start ?? 0
        var used = 0
        var damaged = false
        var sawHead = start == nil
        while let line = reader.next() {
            if line.isEmpty { continue }
            switch HistoryDatesLine.Shape(line) {
            case .head:
                if damaged { return nil }
                used = lines.count
                sawHead = true
            case .removal(let pathEnd):
                append(line, pathEnd: pathEnd, removal: true)
            case .entry(let pathEnd, _, _):
                append(line, pathEnd: pathEnd, removal: false)
            case nil:
                damaged = true
            }
        }
        guard sawHead, start != nil || !damaged else { return nil }
        if start != nil { lines.removeSubrange(used...) }
        guard let base = bytes.baseAddress else { return }
        lines = Self.lastOfEachPath(lines, in: base)
    }

    /// Adds `line` (an entry or a removal whose path ends at `pathEnd`) after the others.
    private mutating func append(_ line: Slice<UnsafeBufferPointer<UInt8>>, pathEnd: Int, removal: Bool) {
        lines.append(Line(start: line.startIndex, pathLength: Int32(pathEnd - line.startIndex), length: Int32(line.count),
                          sequence: Int32(lines.count), removal: removal))
    }

    /// `lines` ordered by their paths' bytes, of each path its last line alone.
    private static func lastOfEachPath(_ lines: [Line], in base: UnsafePointer<UInt8>) -> [Line] {
        let sorted = lines.sorted { first, second in
            let order = compare(base + first.start, Int(first.pathLength), base + second.start, Int(second.pathLength))
            return order != 0 ? order < 0 : first.sequence < second.sequence
        }
        var result: [Line] = []
        result.reserveCapacity(sorted.count)
        for line in sorted {
            if let last = result.last, compare(base + last.start, Int(last.pathLength), base + line.start, Int(line.pathLength)) == 0 {
                result[result.count - 1] = line
            } else {
                result.append(line)
            }
        }
        return result
    }

    /// The file's lines and the changes' (both ordered by path, one line a path) in one order,
    /// a change replacing the file's line of its path; a change's `start` then counts from the
    /// end of the file.
    private static func merge(_ kept: [Line], in file: UnsafeBufferPointer<UInt8>,
                              _ changes: [Line], in changeBytes: UnsafeBufferPointer<UInt8>) -> [Line] {
        guard !changes.isEmpty, let fileBase = file.baseAddress, let changeBase = changeBytes.baseAddress else { return kept }
        var result: [Line] = []
        result.reserveCapacity(kept.count + changes.count)
        var (old, new) = (0, 0)
        while new < changes.count {
            var change = changes[new]
            let order = old == kept.count ? 1 : compare(fileBase + kept[old].start, Int(kept[old].pathLength),
                                                        changeBase + change.start, Int(change.pathLength))
            if order < 0 {
                result.append(kept[old])
                old += 1
            } else {
                change.start += file.count
                result.append(change)
                new += 1
                if order == 0 { old += 1 }
            }
        }
        result += kept[old...]
        return result
    }

    /// `memcmp` of two paths, then the shorter first: the order of `ExactPath.precedes`.
    private static func compare(_ first: UnsafePointer<UInt8>, _ firstLength: Int,
                                _ second: UnsafePointer<UInt8>, _ secondLength: Int) -> Int {
        let order = memcmp(first, second, min(firstLength, secondLength))
        if order != 0 { return Int(order) }
        return firstLength - secondLength
    }
}
