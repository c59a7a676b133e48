import Foundation

/// The lines of a file's bytes, found on demand: a backlink's line is cut from its note's bytes
/// instead of decoding and splitting the whole note. Lines end at `\n` or `\r\n` (as a
/// `String` split at those `Character`s numbers them).
struct NoteLines {
    private let bytes: [UInt8]
    /// The byte offset where each line starts, found so far.
    private var starts: [Int] = [0]
    private var scanned = 0

    /// The lines of `bytes`.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The lines of `data`.
    init(_ data: Data) {
        self.init([UInt8](data))
    }

    /// Line `number` (1-based), without its line break, decoded as UTF-8 (invalid bytes
    /// repaired); nil past the last line.
    mutating func line(_ number: Int) -> String? {
        guard let range = range(number) else { return nil }
        return String(decoding: bytes[range], as: UTF8.self)
    }

    /// `body` given the bytes of line `number` (1-based) without its line break; empty past the
    /// last line.
    mutating func withLine<T>(_ number: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        let range = self.range(number) ?? 0..<0
        return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// Where line `number` is in the bytes (line break excluded), nil past the last line.
    private mutating func range(_ number: Int) -> Range<Int>? {
        guard number >= 1 else { return nil }
        while starts.count <= number, scanned < bytes.count {
            if bytes[scanned] == 0x0A { starts.append(scanned + 1) }
            scanned += 1
        }
        guard number <= starts.count else { return nil }
        let start = starts[number - 1]
        var end = number < starts.count ? starts[number] - 1 : bytes.count
        if number < starts.count, end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return start..<end
    }
}
