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

    /// The file's contents; nil when it is missing or does not read as the format says.
    static func read(_ url: URL) -> Contents? {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)[...]
        guard let first = lines.popFirst(), first.hasPrefix(header) else { return nil }
        let head = String(first.dropFirst(header.count))
        guard head.count == 40 else { return nil }
        var entries: [String: HistoryDates.Entry] = [:]
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4, let created = Double(fields[1]), let updated = Double(fields[2]), fields[3].count == 40 else {
                return nil
            }
            entries[String(fields[0])] = HistoryDates.Entry(created: Date(timeIntervalSince1970: created),
                                                             updated: Date(timeIntervalSince1970: updated), blob: String(fields[3]))
        }
        return Contents(head: head, entries: entries)
    }

    /// Writes `contents` atomically; a failure leaves the dates to be computed again next time.
    static func write(_ contents: Contents, to url: URL) {
        var text = header + contents.head + "\n"
        for path in contents.entries.keys.sorted(by: ExactPath.precedes) where !path.contains("\t") && !path.contains("\n") {
            guard let entry = contents.entries[path] else { continue }
            text += "\(path)\t\(Int64(entry.created.timeIntervalSince1970))\t\(Int64(entry.updated.timeIntervalSince1970))\t\(entry.blob)\n"
        }
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? AtomicFile.write(Data(text.utf8), to: url, displayPath: path)
    }
}
