import Foundation
import QuireCore

/// The file that keeps git's dates of the notes beside the catalog, `.quire/cache/dates.tsv`:
/// a first line `quire-dates 1 <HEAD>`, then one line per note, `path TAB created TAB updated
/// TAB blob` (seconds since 1970, the blob's 40 hex digits). A file that does not read so is
/// computed again; paths holding a tab or a line break are not kept (those notes are dated
/// by their files).
enum HistoryDatesFile {
    /// What the file holds.
    struct Contents: Equatable {
        /// The commit the dates are up to date with, 40 hex digits.
        var head: String
        var entries: [String: HistoryDates.Entry]
    }

    static let header = "quire-dates 1 "
    /// Where it is, from the vault root.
    static let path = ".quire/cache/dates.tsv"

    /// The commit named by the file's first line (its first 120 bytes read); nil when there is
    /// no such line.
    static func head(_ url: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let start = try? handle.read(upToCount: 120) else { return nil }
        let line = String(decoding: start.prefix { $0 != 0x0A }, as: UTF8.self)
        guard line.hasPrefix(header), line.utf8.count == header.utf8.count + 40 else { return nil }
        return String(line.dropFirst(header.count))
    }

    /// The file's contents; nil when it is missing or does not read as the format says. Read as
    /// bytes (a line per note: 100,000 lines at 100,000 notes, read after every commit).
    static func read(_ url: URL) -> Contents? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return data.withUnsafeBytes { raw -> Contents? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var lines = DateLines(bytes)
            guard let first = lines.next(), first.count == header.utf8.count + 40,
                  first.prefix(header.utf8.count).elementsEqual(header.utf8) else { return nil }
            let head = String(decoding: first.dropFirst(header.utf8.count), as: UTF8.self)
            var entries: [String: HistoryDates.Entry] = [:]
            while let line = lines.next() {
                if line.isEmpty { continue }
                let fields = line.split(separator: UInt8(ascii: "\t"), maxSplits: 3, omittingEmptySubsequences: false)
                guard fields.count == 4, let created = integer(fields[1]), let updated = integer(fields[2]),
                      fields[3].count == 40, !fields[3].contains(UInt8(ascii: "\t")) else { return nil }
                entries[String(decoding: fields[0], as: UTF8.self)] = HistoryDates.Entry(
                    created: Date(timeIntervalSince1970: Double(created)), updated: Date(timeIntervalSince1970: Double(updated)),
                    blob: String(decoding: fields[3], as: UTF8.self))
            }
            return Contents(head: head, entries: entries)
        }
    }

    /// A decimal integer (an optional `-`, then digits), nil otherwise.
    private static func integer(_ field: Slice<UnsafeBufferPointer<UInt8>>) -> Int64? {
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

    /// Writes `contents` atomically; a failure leaves the dates to be computed again next time.
    static func write(_ contents: Contents, to url: URL) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128 * (contents.entries.count + 1))
        bytes += (header + contents.head + "\n").utf8
        for (path, entry) in contents.entries.sorted(by: { ExactPath.precedes($0.key, $1.key) }) {
            guard !path.utf8.contains(UInt8(ascii: "\t")) && !path.utf8.contains(UInt8(ascii: "\n")) else { continue }
            bytes += path.utf8
            bytes += "\t\(Int64(entry.created.timeIntervalSince1970))\t\(Int64(entry.updated.timeIntervalSince1970))\t".utf8
            bytes += entry.blob.utf8
            bytes.append(UInt8(ascii: "\n"))
        }
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? AtomicFile.write(Data(bytes), to: url, displayPath: path)
    }
}

/// The lines of a buffer, split at `\n` (a last line without one included).
private struct DateLines: IteratorProtocol {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func next() -> Slice<UnsafeBufferPointer<UInt8>>? {
        guard position < bytes.count else { return nil }
        let start = position
        while position < bytes.count && bytes[position] != UInt8(ascii: "\n") { position += 1 }
        let line = bytes[start..<position]
        position += 1
        return line
    }
}
