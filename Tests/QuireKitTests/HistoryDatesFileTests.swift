import Foundation
import Testing
import QuireCore
@testable import QuireKit

/// `.quire/cache/dates.tsv` reads back what was written (Unicode names, dates before 1970), its
/// head alone from the last line, and a damaged file is not used.
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
}
