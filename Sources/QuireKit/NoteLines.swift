import Foundation

/// The lines of a file's bytes, found on demand: a backlink's line is cut from its note's bytes
/// instead of decoding and splitting the whole note. Lines end at `\n` or `\r\n` (as a
/// `String` split at those `Character`s numbers them).
struct NoteLines {
    private let data: Data
    /// The byte offset where each line starts, found so far.
    private var starts: [Int] = [0]
    private var scanned = 0

    /// The lines of `data`.
    init(_ data: Data) {
        self.data = data
    }

    /// Line `number` (1-based), without its line break, decoded as UTF-8 (invalid bytes
    /// repaired); nil past the last line.
    mutating func line(_ number: Int) -> String? {
        guard number >= 1 else { return nil }
        data.withUnsafeBytes { raw in
            while starts.count <= number, scanned < raw.count {
                if raw[scanned] == 0x0A { starts.append(scanned + 1) }
                scanned += 1
            }
        }
        guard number <= starts.count else { return nil }
        let start = starts[number - 1]
        var end = number < starts.count ? starts[number] - 1 : data.count
        if number < starts.count, end > start, data[data.startIndex + end - 1] == 0x0D { end -= 1 }
        return String(decoding: data[(data.startIndex + start)..<(data.startIndex + end)], as: UTF8.self)
    }
}
