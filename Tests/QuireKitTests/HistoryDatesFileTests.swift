import Foundation
import Testing
import QuireCore
@testable import QuireKit
import QuireSync

/// `.quire/cache/dates.tsv` reads back what was written (Unicode names, dates before 1970), its
/// head alone from the last line, a few paths' lines alone, and a damaged file is not used.
@Suite struct HistoryDatesFileTests {
    @Test func writtenDatesReadBack() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dates-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("dates.tsv")
        let head = String(repeating: "ab", count: 20)
        let blob = String(repeating: "0f", count: 20)
        let entries: [String: HistoryDates.Entry] = [
            "Caf\u{E9}/n.md": .init(created: Date(timeIntervalSince1970: 1_600_000_000), updated: Date(timeIntervalSince1970: 1_700_000_000), blob: blob),
            "cafe\u{301}.md": .init(created: Date(timeIntervalSince1970: -86_400), updated: Date(timeIntervalSince1970: 0), blob: blob),
            "a\tb.md": .init(created: Date(timeIntervalSince1970: 1), updated: Date(timeIntervalSince1970: 2), blob: blob),
        ]
        HistoryDatesFile.write(.init(head: head, entries: entries), to: url)
        let read = try #require(HistoryDatesFile.read(url))
        #expect(read.head == head)
        #expect(read.entries.count == 2 && read.entries["a\tb.md"] == nil)  // a tab in a name is not kept
        for key in ["Caf\u{E9}/n.md", "cafe\u{301}.md"] {
            #expect(read.entries.keys.contains { ExactPath.same($0, key) })
            #expect(read.entries.first { ExactPath.same($0.key, key) }?.value == entries[key])
        }
        #expect(HistoryDatesFile.head(url) == head)
        try Data("quire-dates 2 0\nx.md\t12\tnot a number\t\(blob)\nhead \(head)\n".utf8).write(to: url)
        #expect(HistoryDatesFile.read(url) == nil)
        #expect(HistoryDatesFile.head(url) == head)
        try Data("quire-dates 2 0\nhead short\n".utf8).write(to: url)
        #expect(HistoryDatesFile.read(url) == nil && HistoryDatesFile.head(url) == nil)
        // The format before (its head on the first line) reads, but is not current: it is
        // computed again, and only the notes dated differently are parsed again.
        try Data("quire-dates 1 \(head)\nx.md\t12\t13\t\(blob)\n".utf8).write(to: url)
        #expect(HistoryDatesFile.head(url) == nil)
        #expect(HistoryDatesFile.read(url)?.head == head && HistoryDatesFile.read(url)?.entries["x.md"]?.updated == Date(timeIntervalSince1970: 13))
        try Data("quire-dates 1 \(head)\nx.md\t12\tnot a number\t\(blob)\n".utf8).write(to: url)
        #expect(HistoryDatesFile.read(url) == nil)
    }

    /// The lines of a few paths, read alone, are those a whole read gives for them (a later
    /// line wins, a removal removes, lines after the last `head` are not used), matched by their
    /// exact bytes (the NFD name is not its NFC twin); a damaged line of a path not asked for is
    /// skipped unread, one of a path asked for spoils the read.
    @Test func aFewPathsReadAlone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dates-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("dates.tsv")
        let (head, later) = (String(repeating: "ab", count: 20), String(repeating: "cd", count: 20))
        let blob = String(repeating: "0f", count: 20)
        var entries: [String: HistoryDates.Entry] = [:]
        for number in 0..<500 {
            entries["notes/n\(number).md"] = .init(created: Date(timeIntervalSince1970: Double(number)),
                                                  updated: Date(timeIntervalSince1970: Double(number + 1)), blob: blob)
        }
        HistoryDatesFile.write(.init(head: head, entries: entries), to: url)
        let handle = try FileHandle(forUpdating: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(("cafe\u{301}.md\t5\t6\t\(blob)\ncaf\u{E9}.md\t7\t8\t\(blob)\nnotes/n7.md\t70\t71\t\(blob)\n"
            + "notes/n8.md\t-\nnotes/n9.md\tnot a line\nhead \(later)\nnotes/n10.md\t1\t2\t\(blob)\n").utf8))
        try handle.close()
        let asked: Set<String> = ["cafe\u{301}.md", "notes/n7.md", "notes/n8.md", "notes/n10.md", "notes/n11.md", "gone.md"]
        let read = try #require(HistoryDatesFile.read(url, only: asked))
        #expect(read.head == later)
        #expect(read.entries.count == 4)
        #expect(read.entries.first { ExactPath.same($0.key, "cafe\u{301}.md") }?.value.created == Date(timeIntervalSince1970: 5))
        #expect(read.entries["notes/n7.md"]?.updated == Date(timeIntervalSince1970: 71) && read.entries["notes/n8.md"] == nil)
        #expect(read.entries["notes/n10.md"] == entries["notes/n10.md"] && read.entries["notes/n11.md"] == entries["notes/n11.md"])
        #expect(HistoryDatesFile.read(url, only: ["notes/n9.md"]) == nil)
    }

    /// A note without front-matter dates takes its updated date from history only while the
    /// file is HEAD's blob; under `core.autocrlf=true` the checkout has CRLF line ends and is
    /// still that blob (it had no updated date there), and an edited file is not.
    @Test func aCRLFCheckoutOfHEADsBlobIsDatedByHistory() throws {
        let text = "# Plain\n\nA note with no front matter.\n"
        let created = Date(timeIntervalSince1970: 1_700_000_000), updated = Date(timeIntervalSince1970: 1_700_100_000)
        let entry = HistoryDates.Entry(created: created, updated: updated, blob: BlobHash.hex(Data(text.utf8)))
        let dates = HistoryDates(entries: ["plain.md": entry], changedPaths: [])
        func dated(_ text: String) -> Note {
            let data = Data(text.utf8)
            var note = NoteParser.parse(data, path: "plain.md")
            dates.fill(&note, data: data, path: "plain.md")
            return note
        }
        #expect(dated(text).updatedAt == updated)
        #expect(dated(text.replacingOccurrences(of: "\n", with: "\r\n")).updatedAt == updated)
        let edited = dated((text + "More.\n").replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(edited.updatedAt == nil && edited.createdAt == created)
    }

}
