import Foundation
import Testing

/// Notes without `updatedAt`/`createdAt` get the dates other tools write, else the file's
/// modification time: date filters and sorting see them, and `--json` says where each came from.
@Suite("date fallbacks")
struct DateFallbackTests {
    static func vault() throws -> TestVault {
        let vault = try TestVault()
        try vault.write(noteText("title: Hugo post\nmodified: 2026-01-10"), to: "hugo.md")
        try vault.write("# Obsidian note\n\nNo front matter at all.\n", to: "obsidian.md")
        try vault.write(noteText("title: Quire note\nupdatedAt: 2026-01-05T00:00:00Z\ncreatedAt: 2026-01-01T00:00:00Z"),
                        to: "quire.md")
        try setModified("obsidian.md", 2026, 1, 20, in: vault)
        try setModified("hugo.md", 2026, 2, 1, in: vault)
        try setModified("quire.md", 2026, 3, 1, in: vault)
        return vault
    }

    static func setModified(_ path: String, _ year: Int, _ month: Int, _ day: Int, in vault: TestVault) throws {
        var parts = DateComponents()
        (parts.year, parts.month, parts.day) = (year, month, day)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let date = try #require(calendar.date(from: parts))
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: vault.url(path).path)
    }

    @Test func undatedNotesSortAndFilterByTheirFallbackDates() throws {
        let vault = try Self.vault()
        for _ in 0..<2 {  // the second run reads the catalog snapshot
            let listed = try vault.run(["list", "--paths"])
            #expect(listed.code == 0)
            #expect(listed.stdout == "obsidian.md\nhugo.md\nquire.md\n")
            #expect(try vault.run(["list", "--paths", "updated:>=2026-01-15"]).stdout == "obsidian.md\n")
            #expect(try vault.run(["list", "--paths", "updated:<2026-01-08"]).stdout == "quire.md\n")
            #expect(try vault.run(["list", "--paths", "created:>=2026-01-08"]).stdout == "obsidian.md\nhugo.md\n")
            #expect(try vault.run(["list", "--paths", "--sort", "created"]).stdout == "obsidian.md\nhugo.md\nquire.md\n")
        }
    }

    @Test func jsonSaysWhereEachDateCameFrom() throws {
        let vault = try Self.vault()
        let listed = try vault.run(["list", "--json", "--sort", "path"])
        #expect(listed.code == 0)
        let notes = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let byPath = Dictionary(uniqueKeysWithValues: notes.compactMap { note in (note["path"] as? String).map { ($0, note) } })
        func fields(_ path: String) -> [String?] {
            ["createdAt", "createdAtSource", "updatedAt", "updatedAtSource"].map { byPath[path]?[$0] as? String }
        }
        #expect(fields("hugo.md") == ["2026-01-10T00:00:00+00:00", "frontMatter:modified", "2026-01-10T00:00:00+00:00",
                                     "frontMatter:modified"])
        #expect(fields("obsidian.md") == ["2026-01-20T00:00:00+00:00", "fileModified", "2026-01-20T00:00:00+00:00", "fileModified"])
        #expect(fields("quire.md") == ["2026-01-01T00:00:00Z", "frontMatter:createdAt", "2026-01-05T00:00:00Z", "frontMatter:updatedAt"])
        let shown = try vault.run(["show", "obsidian.md", "--json"])
        let shownNote = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        #expect(shownNote["updatedAt"] as? String == "2026-01-20T00:00:00+00:00")
        #expect(shownNote["createdAtSource"] as? String == "fileModified")
        #expect(shownNote["updatedAtSource"] as? String == "fileModified")
    }
}
