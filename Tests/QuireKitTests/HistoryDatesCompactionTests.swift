import Foundation
import QuireCore
import QuireTestSupport
import Testing
@testable import QuireKit

/// The dates file written whole again from its own bytes (`HistoryDatesFile.rewrite`,
/// `HistoryDatesCompaction`) is byte for byte what reading it into entries, laying the changes
/// over and writing them gives (`rewriteThroughEntries`), on random files: many appended blocks,
/// removals, a path appended several times, an append cut short after the last `head` line,
/// NFC and NFD names, non-ASCII names.
@Suite struct HistoryDatesCompactionTests {
    /// Names that order every way by bytes (one a prefix of another, `/` and `-` and `.` after
    /// a shared start, non-ASCII, NFC and NFD spellings of different names); no two are equal
    /// under Unicode normalization (entries keyed by `String` would make them one).
    static let names = [
        "a.md", "a-b.md", "a/b.md", "a/b/c.md", "a.md.md", "ab.md", "A.md", "notes/n1.md", "notes/n10.md",
        "notes/n2.md", "caf\u{E9}.md", "Cafe\u{301}/x.md", "\u{FC}ber.md", "u\u{308}ber/y.md", "\u{7B14}\u{8BB0}/x.md",
        "\u{C5}ngstr\u{F6}m.md", "z.md", "zoe\u{308}.md", "Inbox/today.md", "Inbox/today.md.bak",
    ]

    @Test(arguments: 0..<200)
    func rewrittenFromItsBytesAsThroughEntries(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dates-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (bytes, damaged) = Self.file(&random, in: folder)
        var changes: [String: HistoryDates.Entry?] = [:]
        for name in Self.names where random.next(0...3) == 0 {
            changes[name] = random.next(0...3) == 0 ? .some(nil) : Self.entry(&random)
        }
        let new = Self.hex(&random)
        let (ours, theirs) = (folder.appendingPathComponent("ours.tsv"), folder.appendingPathComponent("theirs.tsv"))
        try bytes.write(to: ours)
        try bytes.write(to: theirs)
        let rewritten = HistoryDatesFile.rewrite(ours, changes, new)
        let throughEntries = HistoryDatesFile.rewriteThroughEntries(theirs, changes, new)
        #expect(rewritten == !damaged && throughEntries == !damaged)
        #expect(try Data(contentsOf: ours) == Data(contentsOf: theirs), "seed \(seed)")
    }

    /// A name and its NFD twin are two paths, each keeping its own line.
    @Test func twinsUnderNormalizationStayTwo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dates-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("dates.tsv")
        let blob = String(repeating: "0f", count: 20)
        let (nfc, nfd) = ("caf\u{E9}.md", "cafe\u{301}.md")
        let lines = "\(nfd)\t1\t2\t\(blob)\n\(nfc)\t3\t4\t\(blob)\nhead \(String(repeating: "ab", count: 20))\n"
        try Data(("quire-dates 2 \(lines.utf8.count)\n" + lines).utf8).write(to: url)
        let changes: [String: HistoryDates.Entry?] = [nfc: HistoryDates.Entry(
            created: Date(timeIntervalSince1970: 5), updated: Date(timeIntervalSince1970: 6), blob: blob)]
        let new = String(repeating: "cd", count: 20)
        #expect(HistoryDatesFile.rewrite(url, changes, new))
        let expected = "\(nfd)\t1\t2\t\(blob)\n\(nfc)\t5\t6\t\(blob)\nhead \(new)\n"
        #expect(try Data(contentsOf: url) == Data(("quire-dates 2 \(expected.utf8.count)\n" + expected).utf8))
    }

    /// A random dates file: a part written whole, blocks appended after it (entries and
    /// removals, each ending with a `head` line), maybe lines after the last `head` line (one
    /// cut short), maybe a damaged line before it (then `damaged`).
    static func file(_ random: inout SeededGenerator, in folder: URL) -> (bytes: Data, damaged: Bool) {
        var entries: [String: HistoryDates.Entry] = [:]
        for name in names where random.next(0...2) > 0 { entries[name] = entry(&random) }
        let base = folder.appendingPathComponent("base.tsv")
        HistoryDatesFile.write(.init(head: hex(&random), entries: entries), to: base)
        var bytes = (try? Data(contentsOf: base)) ?? Data()
        var damaged = false
        for _ in 0..<random.next(0...8) {
            var block: [String: HistoryDates.Entry?] = [:]
            for name in names where random.next(0...2) == 0 {
                block[name] = random.next(0...4) == 0 ? .some(nil) : entry(&random)
            }
            bytes += HistoryDatesFile.changeLines(block)
            if random.next(0...40) == 0 {
                bytes += Data("notes/n1.md\t12\tnot a number\t\(String(repeating: "0", count: 40))\n".utf8)
                damaged = true
            }
            bytes += Data("head \(hex(&random))\n".utf8)
        }
        if random.next(0...2) == 0 {
            var after: [String: HistoryDates.Entry?] = [:]
            for name in names where random.next(0...3) == 0 { after[name] = entry(&random) }
            let lines = HistoryDatesFile.changeLines(after)
            bytes += lines.prefix(random.next(0...lines.count))
        }
        return (bytes, damaged)
    }

    static func entry(_ random: inout SeededGenerator) -> HistoryDates.Entry {
        HistoryDates.Entry(created: Date(timeIntervalSince1970: Double(random.next(-100_000...2_000_000_000))),
                           updated: Date(timeIntervalSince1970: Double(random.next(0...2_000_000_000))), blob: hex(&random))
    }

    static func hex(_ random: inout SeededGenerator) -> String {
        String((0..<40).map { _ in Array("0123456789abcdef")[random.next(0...15)] })
    }
}
