import Foundation
import QuireCore
import QuireKit
import QuireSearch
import Testing

/// The context lines the link table keeps for a busy note's backlinks (`LinkTable+Contexts`):
/// an answer from them is byte for byte the answer read from the notes.
@Suite final class StoredBacklinkContextTests {
    private let root: URL

    init() {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("quirekit-contexts-\(UUID().uuidString)", isDirectory: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// A seeded generator (xorshift), so that a failure can be replayed.
    private struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
    }

    private static let words = ["plain", "words", "Ünïcödé", "日本語のメモ", "straße", "ﬁne", "İstanbul", "zero\u{200B}width",
                                "no\u{00A0}break", "  spaced  ", "\t", "hub", "HUB", "e\u{0301}", "ǰ", "Kelvin\u{212A}"]
    private static let links = ["[[Hub]]", "[[Hub|the hub]]", "[[Hub|Ünïcödé hub]]", "[[Hub#Part]]", "![[Hub]]", "[x](Hub.md)",
                                "[[Other]]"]

    /// A note's text: lines of random words and links (several on a line, on the first and the
    /// last line, lines of hundreds of characters), CRLF now and then, the last line ended or not.
    private static func text(_ random: inout Random) -> String {
        var lines: [String] = []
        for _ in 0..<(1 + random.next(6)) {
            var pieces: [String] = []
            let length = random.next(4) == 0 ? 60 + random.next(80) : random.next(10)
            for _ in 0..<length { pieces.append(words[random.next(words.count)]) }
            for _ in 0..<random.next(3) { pieces.insert(links[random.next(links.count)], at: random.next(pieces.count + 1)) }
            lines.append(pieces.joined(separator: " "))
        }
        let breakText = random.next(3) == 0 ? "\r\n" : "\n"
        return lines.joined(separator: breakText) + (random.next(2) == 0 ? breakText : "")
    }

    private func write(_ path: String, _ text: String) throws {
        try Data(text.utf8).write(to: root.appendingPathComponent(path))
    }

    /// Random vaults, random notes edited between answers: `backlinks` of the busy note with the
    /// table (keeping its lines, then answering from them) equals the answer read from the notes,
    /// human fields and all.
    @Test func answersFromKeptLinesEqualAnswersReadFromTheNotes() throws {
        let vault = try Vault.create(at: root)
        var random = Random(state: 3507)
        try write("Hub.md", "# Hub\n## Part\n")
        try write("Other.md", "other\n")
        let names = (0..<40).map { "n\($0).md" }
        for name in names { try write(name, Self.text(&random)) }
        var fromKept = 0
        for round in 0..<12 {
            if round > 0 {
                for _ in 0..<(1 + random.next(4)) { try write(names[random.next(names.count)], Self.text(&random)) }
            }
            for _ in 0..<2 {
                let session = try VaultSession(vault: vault, environment: [:], walk: true)
                let attachments = try session.attachmentPaths()
                let table = session.linkTable(attachments: attachments)
                let links = VaultLinks(vault: vault, catalog: session.catalog, attachments: attachments, table: table)
                let read = try VaultLinks(vault: vault, catalog: session.catalog, attachments: attachments).backlinks(of: "Hub.md")
                try #require(read.count >= VaultLinks.keptContextsFrom, "round \(round): \(read.count)")
                #expect(try links.backlinks(of: "Hub.md", keepContexts: session.keepLinkContexts) == read, "round \(round)")
                if table?.keepsContexts ?? false { fromKept += 1 }
            }
        }
        #expect(fromKept >= 12, "\(fromKept) answers with kept lines")
    }
}
