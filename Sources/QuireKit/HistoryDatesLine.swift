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
        let fields = bytes.split(separator: UInt8(ascii: "\t"), maxSplits: 3, omittingEmptySubsequences: false)
        switch fields.count {
        case 1:
            let prefix = HistoryDatesFile.headPrefix.utf8
            guard bytes.count == prefix.count + 40, bytes.starts(with: prefix) else { return nil }
            let hex = bytes.dropFirst(prefix.count)
            guard hex.allSatisfy({ Self.isHexDigit($0) }) else { return nil }
            self = .head(String(decoding: hex, as: UTF8.self).lowercased())
        case 2:
            guard !fields[0].isEmpty, fields[1].elementsEqual("-".utf8) else { return nil }
            self = .removal(String(decoding: fields[0], as: UTF8.self))
        case 4:
            guard !fields[0].isEmpty, let created = Self.integer(fields[1]), let updated = Self.integer(fields[2]),
                  fields[3].count == 40, !fields[3].contains(UInt8(ascii: "\t")) else { return nil }
            self = .entry(String(decoding: fields[0], as: UTF8.self), HistoryDates.Entry(
                created: Date(timeIntervalSince1970: Double(created)), updated: Date(timeIntervalSince1970: Double(updated)),
                blob: String(decoding: fields[3], as: UTF8.self)))
        default:
            return nil
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
