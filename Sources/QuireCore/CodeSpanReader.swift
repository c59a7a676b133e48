import Foundation

/// Finds where the code spans of one line end (`` `code` ``: a run of backticks closed by the
/// next run of the same length on the line), for `LinkExtractor` and `MarkdownBody`.
///
/// A search runs along the line once; when one finds no closing run, the start of every run of
/// the line is noted by length and later searches look there, so a line of many unclosed runs
/// of different lengths is read in linear time, not once per run.
struct CodeSpanReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let line: Range<Int>
    /// The start of each backtick run of the line by its length, in order; built when a search
    /// first fails.
    private var runs: [Int: [Int]]?

    /// A reader of the code spans of `line`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, line: Range<Int>) {
        self.bytes = bytes
        self.line = line
    }

    /// The index after the code span that opens at `start`, or after the run of backticks at
    /// `start` when nothing closes it.
    mutating func after(_ start: Int) -> Int {
        let end = line.upperBound
        var index = start
        while index < end, bytes[index] == UInt8(ascii: "`") { index += 1 }
        let length = index - start
        if let runs {
            guard let starts = runs[length] else { return index }
            var low = 0, high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] < index { low = middle + 1 } else { high = middle }
            }
            return low < starts.count ? starts[low] + length : index
        }
        var search = index
        while search < end {
            guard bytes[search] == UInt8(ascii: "`") else { search += 1; continue }
            let runStart = search
            while search < end, bytes[search] == UInt8(ascii: "`") { search += 1 }
            if search - runStart == length { return search }
        }
        runs = noteRuns()
        return index
    }

    /// The start of every backtick run of the line by length.
    private func noteRuns() -> [Int: [Int]] {
        var found: [Int: [Int]] = [:]
        var index = line.lowerBound
        while index < line.upperBound {
            guard bytes[index] == UInt8(ascii: "`") else { index += 1; continue }
            let runStart = index
            while index < line.upperBound, bytes[index] == UInt8(ascii: "`") { index += 1 }
            found[index - runStart, default: []].append(runStart)
        }
        return found
    }
}
