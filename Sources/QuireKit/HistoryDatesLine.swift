import Foundation

/// One line of the dates file after its first (`HistoryDatesFile`), read from its bytes.
enum HistoryDatesLine: Equatable {
    /// `head <commit>`: the lines above are up to date with that commit (40 hex digits).
    case head(String)
    /// `path TAB created TAB updated TAB blob`.
    case entry(String, HistoryDates.Entry)
    /// `path TAB -`: the note is gone.
    case removal(String)

    /// The line `bytes` (without its line break) says; nil when it reads as none of them.
    init?<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        guard let shape = Shape(bytes) else { return nil }
        switch shape {
        case .head:
            let hex = bytes.dropFirst(HistoryDatesFile.headPrefix.utf8.count)
            self = .head(String(decoding: hex, as: UTF8.self).lowercased())
        case .removal(let pathEnd):
            self = .removal(String(decoding: bytes[..<pathEnd], as: UTF8.self))
        case .entry(let pathEnd, let created, let updated):
            self = .entry(String(decoding: bytes[..<pathEnd], as: UTF8.self), HistoryDates.Entry(
                created: Date(timeIntervalSince1970: Double(created)), updated: Date(timeIntervalSince1970: Double(updated)),
                blob: String(decoding: bytes.suffix(40), as: UTF8.self)))
        }
    }

    /// What a line is and where its path ends, read without making a value (no string, no
    /// array of fields): the rule for every reader of the file.
    enum Shape<Index: Comparable>: Equatable {
        /// `head <commit>`.
        case head
        /// `path TAB -`; the path ends at `pathEnd`.
        case removal(pathEnd: Index)
        /// `path TAB created TAB updated TAB blob`.
        case entry(pathEnd: Index, created: Int64, updated: Int64)

        /// The shape of the line `bytes` (without its line break); nil when it reads as none.
        /// Its fields are split at its first three tabs: one field is a `head` line, two a
        /// removal, four an entry (a fourth field holding a tab is 41 bytes or more).
        init?<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8, Bytes.Index == Index {
            let tab = UInt8(ascii: "\t")
            guard let first = bytes.firstIndex(of: tab) else {
                let prefix = HistoryDatesFile.headPrefix.utf8
                guard bytes.count == prefix.count + 40, bytes.starts(with: prefix),
                      bytes.dropFirst(prefix.count).allSatisfy({ HistoryDatesLine.isHexDigit($0) }) else { return nil }
                self = .head
                return
            }
            guard first != bytes.startIndex else { return nil }
            let afterFirst = bytes.index(after: first)
            guard let second = bytes[afterFirst...].firstIndex(of: tab) else {
                guard bytes[afterFirst...].elementsEqual("-".utf8) else { return nil }
                self = .removal(pathEnd: first)
                return
            }
            let afterSecond = bytes.index(after: second)
            guard let third = bytes[afterSecond...].firstIndex(of: tab),
                  let created = HistoryDatesLine.integer(bytes[afterFirst..<second]),
                  let updated = HistoryDatesLine.integer(bytes[afterSecond..<third]) else { return nil }
            let blob = bytes[bytes.index(after: third)...]
            guard blob.count == 40, !blob.contains(tab) else { return nil }
            self = .entry(pathEnd: first, created: created, updated: updated)
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// A decimal integer (an optional `-`, then digits), nil otherwise.
    private static func integer<Bytes: Collection>(_ field: Bytes) -> Int64? where Bytes.Element == UInt8 {
        var digits = field[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return negative ? -value : value
    }
}

/// The lines of a buffer, split at `\n` (a last line without one included), found with `memchr`.
struct DateLines: IteratorProtocol {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func next() -> Slice<UnsafeBufferPointer<UInt8>>? {
        guard position < bytes.count, let base = bytes.baseAddress else { return nil }
        let start = position
        let end = Self.find(UInt8(ascii: "\n"), in: base + start, count: bytes.count - start).map { start + $0 } ?? bytes.count
        position = end + 1
        return bytes[start..<end]
    }

    /// The index of the first tab in `line` (one of this buffer's lines), nil when it has none.
    func tab(in line: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard let base = bytes.baseAddress, !line.isEmpty else { return nil }
        return Self.find(UInt8(ascii: "\t"), in: base + line.startIndex, count: line.count).map { line.startIndex + $0 }
    }

    private static func find(_ byte: UInt8, in start: UnsafePointer<UInt8>, count: Int) -> Int? {
        guard let found = memchr(start, Int32(byte), count) else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(start)
    }
}
