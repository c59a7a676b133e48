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

/// Notes without date keys are dated by git: created by the first commit that added them
/// (renames followed), updated by the last one that changed them, the file's time only for an
/// uncommitted change; kept beside the catalog and brought up to date when `HEAD` moves.
@Suite("dates from git's history")
struct GitDateTests {
    static func commit(_ vault: TestVault, _ message: String, at time: String) throws {
        #expect(try gitCLI(["add", "-A"], in: vault.root).code == 0)
        let run = try gitCLI(["commit", "-q", "-m", message], in: vault.root,
                             environment: ["GIT_AUTHOR_DATE": time, "GIT_COMMITTER_DATE": time])
        #expect(run.code == 0, "\(run.stderr)")
    }

    static func fields(_ vault: TestVault) throws -> [String: [String?]] {
        let listed = try vault.run(["list", "--json", "--sort", "path"])
        let notes = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        var result: [String: [String?]] = [:]
        for note in notes {
            guard let path = note["path"] as? String else { continue }
            result[path] = ["createdAt", "createdAtSource", "updatedAt", "updatedAtSource"].map { note[$0] as? String }
        }
        return result
    }

    @Test func aCloneIsDatedByItsHistoryNotByTheCloneTime() throws {
        let origin = try TestVault()
        try origin.write("# A\n", to: "a.md")
        try origin.write("---\nupdatedAt: 2025-06-01T00:00:00Z\n---\nB\n", to: "b.md")
        try Self.commit(origin, "first", at: "2020-01-01T00:00:00Z")
        try origin.write("# A\n\nMore.\n", to: "a.md")
        try Self.commit(origin, "edit", at: "2021-03-01T00:00:00Z")
        #expect(try gitCLI(["mv", "a.md", "a2.md"], in: origin.root).code == 0)
        try Self.commit(origin, "rename", at: "2022-01-01T00:00:00Z")
        try origin.write("# C\n", to: "c.md")
        try Self.commit(origin, "add c", at: "2023-01-01T00:00:00Z")

        let clone = origin.root.deletingLastPathComponent().appendingPathComponent("clone")
        let cloned = try Harness.run(["clone", origin.root.path, clone.path], in: origin.root.deletingLastPathComponent())
        #expect(cloned.code == 0, "\(cloned.stderr)")
        let vault = TestVault(existing: clone)
        for round in 0..<3 {  // later runs read the catalog and the kept dates (HEAD in packed-refs)
            if round == 2 { #expect(try gitCLI(["pack-refs", "--all"], in: clone).code == 0) }
            // A rebuild with the dates kept for HEAD reads them when it parses the first note.
            if round == 1 { #expect(try vault.run(["index", "--rebuild"]).code == 0) }
            let dates = try Self.fields(vault)
            #expect(dates["a2.md"] == ["2020-01-01T00:00:00+00:00", "git", "2021-03-01T00:00:00+00:00", "git"])
            #expect(dates["b.md"] == ["2020-01-01T00:00:00+00:00", "git", "2025-06-01T00:00:00Z", "frontMatter:updatedAt"])
            #expect(dates["c.md"] == ["2023-01-01T00:00:00+00:00", "git", "2023-01-01T00:00:00+00:00", "git"])
            #expect(try vault.run(["list", "--paths", "updated:>1d"]).stdout == "")
            #expect(try vault.run(["list", "--paths", "created:<2022", "--sort", "path"]).stdout == "a2.md\nb.md\n")
            #expect(try vault.run(["list", "--paths", "--sort", "updated"]).stdout == "b.md\nc.md\na2.md\n")
        }

        // An uncommitted edit is dated by the file; once committed, by its commit.
        try vault.write("# C\n\nEdited.\n", to: "c.md")
        try DateFallbackTests.setModified("c.md", 2026, 1, 2, in: vault)
        #expect(try Self.fields(vault)["c.md"] == ["2023-01-01T00:00:00+00:00", "git", "2026-01-02T00:00:00+00:00", "fileModified"])
        try Self.commit(vault, "edit c", at: "2024-05-05T00:00:00Z")
        #expect(try Self.fields(vault)["c.md"] == ["2023-01-01T00:00:00+00:00", "git", "2024-05-05T00:00:00+00:00", "git"])
    }
}
