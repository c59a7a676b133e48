import Foundation

/// The regular files of a tar archive (POSIX ustar, with the pax `path` and GNU long-name
/// extensions that archivers use for names over 100 bytes), read in memory: what a Joplin JEX
/// export is. No external program is run.
struct TarArchive {
    /// One regular file: its path in the archive and its bytes.
    struct Entry: Equatable {
        var path: String
        var data: Data
    }

    /// Why an archive cannot be read.
    struct Problem: Error, Equatable, CustomStringConvertible {
        /// The byte offset of the header at fault.
        var offset: Int
        var reason: String
        var description: String { "not a tar archive (at byte \(offset): \(reason))" }
    }

    /// The regular files, in archive order.
    let entries: [Entry]

    /// Reads `data`; throws `Problem` when it is no tar archive or ends inside an entry.
    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.count >= 512 else { throw Problem(offset: 0, reason: "too short for a tar header") }
        var entries: [Entry] = []
        var offset = 0
        var longName: String?
        while offset + 512 <= bytes.count {
            let header = bytes[offset..<offset + 512]
            if header.allSatisfy({ $0 == 0 }) { break }  // the end: two zero blocks
            guard Self.checksumHolds(header) else { throw Problem(offset: offset, reason: "bad header checksum") }
            guard let size = Self.number(header, 124, 12) else { throw Problem(offset: offset, reason: "bad size") }
            let start = offset + 512
            guard size >= 0, start + size <= bytes.count else { throw Problem(offset: offset, reason: "the archive ends inside an entry") }
            let body = bytes[start..<start + size]
            let type = header[header.startIndex + 156]
            switch type {
            case UInt8(ascii: "L"):  // GNU: the next entry's name
                longName = Self.text(body[...], 0, size)
            case UInt8(ascii: "x"):  // pax: `length key=value\n` records; `path` names the next entry
                if let path = Self.paxPath(Array(body)) { longName = path }
            case 0, UInt8(ascii: "0"), UInt8(ascii: "7"):
                var name = Self.text(header, 0, 100)
                let prefix = Self.text(header, 345, 155)
                if !prefix.isEmpty, Self.text(header, 257, 5) == "ustar" { name = prefix + "/" + name }
                entries.append(Entry(path: longName ?? name, data: Data(body)))
                longName = nil
            default:
                longName = nil  // folders, links, devices: no file to take
            }
            offset = start + (size + 511) / 512 * 512
        }
        self.entries = entries
    }

    /// The NUL-terminated text of a header field.
    private static func text(_ header: ArraySlice<UInt8>, _ at: Int, _ length: Int) -> String {
        let field = header[(header.startIndex + at)..<(header.startIndex + at + length)]
        return String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// An octal number field (or GNU base-256 when its first byte has the high bit set).
    private static func number(_ header: ArraySlice<UInt8>, _ at: Int, _ length: Int) -> Int? {
        let field = header[(header.startIndex + at)..<(header.startIndex + at + length)]
        if let first = field.first, first & 0x80 != 0 {
            return field.dropFirst().reduce(Int(first & 0x7F)) { $0 << 8 | Int($1) }
        }
        let digits = field.prefix { $0 != 0 && $0 != UInt8(ascii: " ") }.drop { $0 == UInt8(ascii: " ") }
        if digits.isEmpty { return 0 }
        return Int(String(decoding: digits, as: UTF8.self), radix: 8)
    }

    /// Whether the header's checksum field is the sum of its bytes (the field read as spaces).
    private static func checksumHolds(_ header: ArraySlice<UInt8>) -> Bool {
        guard let stored = number(header, 148, 8) else { return false }
        var sum = 0
        for (index, byte) in header.enumerated() { sum += (148..<156).contains(index) ? 32 : Int(byte) }
        return sum == stored
    }

    /// The `path` of a pax extended header.
    private static func paxPath(_ body: [UInt8]) -> String? {
        var index = 0
        var found: String?
        while index < body.count {
            guard let space = body[index...].firstIndex(of: UInt8(ascii: " ")),
                  let length = Int(String(decoding: body[index..<space], as: UTF8.self)), length > 0,
                  index + length <= body.count else { break }
            let record = body[(space + 1)..<(index + length)]
            if let equals = record.firstIndex(of: UInt8(ascii: "=")),
               String(decoding: record[record.startIndex..<equals], as: UTF8.self) == "path" {
                found = String(decoding: record[(equals + 1)...].prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
            }
            index += length
        }
        return found
    }
}
