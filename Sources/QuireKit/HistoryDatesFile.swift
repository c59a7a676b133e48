import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// The file that keeps git's dates of the notes beside the catalog, `.quire/cache/dates.tsv`.
/// A first line `quire-dates 2 <n>` (`n`: the bytes after it when the file was last written
/// whole), then one line per note, `path TAB created TAB updated TAB blob` (seconds since 1970,
/// the blob's 40 hex digits), and `head <commit>`: the commit the lines above are up to date
/// with. When `HEAD` moves on, only the notes whose dates changed are appended (`path TAB -` for
/// a note gone), then a new `head` line: a later line wins, and lines after the last `head` line
/// (an append cut short) are not used. The file is written whole again once the appended lines
/// outgrow the rest (`append`), from its own bytes (`HistoryDatesCompaction`). A file that does
/// not read so is computed again; paths holding a tab or a line break are not kept (those notes
/// are dated by their files).
enum HistoryDatesFile {
    /// What the file holds.
    struct Contents: Equatable {
        /// The commit the dates are up to date with, 40 hex digits.
        var head: String
        var entries: [String: HistoryDates.Entry]
    }

    static let header = "quire-dates 2 "
    static let legacyHeader = "quire-dates 1 "
    static let headPrefix = "head "
    /// Where it is, from the vault root.
    static let path = ".quire/cache/dates.tsv"

    /// The commit named by the file's last line (its last 46 bytes read); nil when the file
    /// does not end with a `head` line.
    static func head(_ url: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        let tailLength = headPrefix.utf8.count + 41
        guard let size = try? handle.seekToEnd(), size > tailLength else { return nil }
        guard (try? handle.seek(toOffset: size - UInt64(tailLength + 1))) != nil,
              let tail = try? handle.read(upToCount: tailLength + 1), tail.count == tailLength + 1,
              tail.first == UInt8(ascii: "\n"), tail.last == UInt8(ascii: "\n") else { return nil }
        guard case .head(let hex) = HistoryDatesLine(Array(tail.dropFirst().dropLast())) else { return nil }
        return hex
    }

    /// The file's contents; nil when it is missing or does not read as the format says. With
    /// `only`, the lines of other paths are skipped unread (their path's bytes looked up in a
    /// `DatesPathTable`, no value built): the dates of the notes a pull touched cost one pass
    /// over the mapped bytes, no table of every note. Read as bytes (a line per note: 100,000
    /// lines at 100,000 notes).
    static func read(_ url: URL, only: Set<String>? = nil) -> Contents? {
        guard let data = try? Data(contentsOf: url, options: .alwaysMapped) else { return nil }
        let wanted = only.map(DatesPathTable.init)
        return data.withUnsafeBytes { raw -> Contents? in
            var lines = DateLines(raw.bindMemory(to: UInt8.self))
            guard let first = lines.next() else { return nil }
            // The format before (`quire-dates 1 <commit>` first, no `head` line) reads too, so that
            // the first walk after an upgrade parses again only the notes it dates differently.
            let legacyHead = first.count == legacyHeader.utf8.count + 40 && first.starts(with: legacyHeader.utf8)
                ? String(decoding: first.dropFirst(legacyHeader.utf8.count), as: UTF8.self) : nil
            guard legacyHead != nil || first.starts(with: header.utf8) else { return nil }
            var head: String?
            var entries: [String: HistoryDates.Entry] = [:]
            var pending: [(String, HistoryDates.Entry?)] = []
            // A line that does not read spoils the file unless no `head` line follows it.
            var damaged = false
            while let line = lines.next() {
                if line.isEmpty { continue }
                if let wanted, let tab = lines.tab(in: line),
                   wanted.position(of: UnsafeBufferPointer(rebasing: line[..<tab])) == nil {
                    continue
                }
                switch HistoryDatesLine(line) {
                case .head(let hex):
                    if damaged { return nil }
                    for (path, entry) in pending { entries[path] = entry }
                    pending.removeAll()
                    head = hex
                case .entry(let path, let entry):
                    pending.append((path, entry))
                case .removal(let path):
                    pending.append((path, nil))
                case nil:
                    damaged = true
                }
            }
            if let legacyHead, head == nil, !damaged {
                for (path, entry) in pending { entries[path] = entry }
                head = legacyHead
            }
            return head.map { Contents(head: $0, entries: entries) }
        }
    }

    /// Writes `contents` whole, atomically; a failure leaves the dates to be computed again
    /// next time.
    static func write(_ contents: Contents, to url: URL) {
        var body: [UInt8] = []
        body.reserveCapacity(128 * (contents.entries.count + 1))
        for (path, entry) in contents.entries.sorted(by: { ExactPath.precedes($0.key, $1.key) }) {
            appendLine(path, entry, to: &body)
        }
        body += (headPrefix + contents.head + "\n").utf8
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? AtomicFile.write(Data((header + "\(body.count)\n").utf8 + body), to: url, displayPath: path)
    }

    /// Brings the file from `old` (the commit its last line names) to `new`: the notes in
    /// `changes` get their new dates (nil: gone). Appended to the file, or the file written
    /// whole when the appended lines would outgrow the rest, or when its last line does not
    /// name `old`. Returns false when nothing could be written (the dates are computed again
    /// next time).
    @discardableResult
    static func append(_ changes: [String: HistoryDates.Entry?], from old: String, to new: String, at url: URL) -> Bool {
        guard head(url) == old, let handle = try? FileHandle(forReadingFrom: url) else { return rewrite(url, changes, new) }
        defer { try? handle.close() }
        let block = changeLines(changes) + (headPrefix + new + "\n").utf8
        guard let start = try? handle.read(upToCount: 64), let size = try? handle.seekToEnd(),
              let written = writtenLength(start), size + UInt64(block.count) <= 2 * UInt64(written) + 65_536 else {
            return rewrite(url, changes, new)
        }
        return appendAtomically(block, to: url)
    }

    /// The lines of `changes`, ordered by path.
    static func changeLines(_ changes: [String: HistoryDates.Entry?]) -> [UInt8] {
        var lines: [UInt8] = []
        for (path, entry) in changes.sorted(by: { ExactPath.precedes($0.key, $1.key) }) {
            appendLine(path, entry, to: &lines)
        }
        return lines
    }

    /// Appends `block` in one `write` to a file opened with `O_APPEND`: two commands that append
    /// at once (both saw HEAD move) each land whole after the other, never over each other.
    private static func appendAtomically(_ block: [UInt8], to url: URL) -> Bool {
        let descriptor = open(url.path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let written = block.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        return written == block.count
    }

    /// Writes the file whole again with `changes` laid over it, from its own bytes
    /// (`HistoryDatesCompaction`); a file that does not read so (of the format before, or
    /// damaged) through `read` and `write`. True when the file then names `new`.
    static func rewrite(_ url: URL, _ changes: [String: HistoryDates.Entry?], _ new: String) -> Bool {
        let lines = changeLines(changes)
        let compacted = (try? Data(contentsOf: url, options: .alwaysMapped)).flatMap { file in
            file.withUnsafeBytes { raw in lines.withUnsafeBytes { HistoryDatesCompaction.compacted(raw, changes: $0, head: new) } }
        }
        guard let compacted else { return rewriteThroughEntries(url, changes, new) }
        try? AtomicFile.write(compacted, to: url, displayPath: path)
        return head(url) == new
    }

    /// Reads the file whole into entries, applies `changes` and writes them whole.
    static func rewriteThroughEntries(_ url: URL, _ changes: [String: HistoryDates.Entry?], _ new: String) -> Bool {
        guard var contents = read(url) else { return false }
        for (path, entry) in changes { contents.entries[path] = entry }
        contents.head = new
        write(contents, to: url)
        return head(url) == new
    }

    /// The length of the file when it was last written whole, from its first line.
    private static func writtenLength(_ start: Data) -> Int? {
        let line = start.prefix { $0 != 0x0A }
        guard line.count < start.count, line.starts(with: header.utf8),
              let body = Int(String(decoding: line.dropFirst(header.utf8.count), as: UTF8.self)) else { return nil }
        return line.count + 1 + body
    }

    /// One line of an entry (`path TAB created TAB updated TAB blob`) or of a note gone (`path
    /// TAB -`); nothing for a path holding a tab or a line break.
    private static func appendLine(_ path: String, _ entry: HistoryDates.Entry?, to bytes: inout [UInt8]) {
        guard !path.utf8.contains(UInt8(ascii: "\t")) && !path.utf8.contains(UInt8(ascii: "\n")) else { return }
        bytes += path.utf8
        if let entry {
            bytes += "\t\(Int64(entry.created.timeIntervalSince1970))\t\(Int64(entry.updated.timeIntervalSince1970))\t".utf8
            bytes += entry.blob.utf8
        } else {
            bytes += "\t-".utf8
        }
        bytes.append(UInt8(ascii: "\n"))
    }
}
