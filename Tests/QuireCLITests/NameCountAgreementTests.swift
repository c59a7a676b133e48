import Foundation
import Testing

/// `quire tags`, `quire projects` and `quire stats` count by one rule (`NameCount.counting`):
/// case ignored, a note counted once per name, the most common spelling shown.
@Suite("tag and project counts agree")
struct NameCountAgreementTests {
    @Test func tagsProjectsAndStatsCountAlike() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: A\nproject: Garden\ntags: [Work, work]"), to: "a.md")
        try vault.write(noteText("title: B\nproject: garden\ntags: [work]"), to: "b.md")
        try vault.write(noteText("title: C\nproject: Garden\ntags: [work, Home]"), to: "c.md")
        func pairs(_ rows: Any?, count: String) -> [String: Int] {
            var result: [String: Int] = [:]
            for row in rows as? [[String: Any]] ?? [] {
                if let name = row["name"] as? String, let value = row[count] as? Int { result[name] = value }
            }
            return result
        }
        func parsed(_ arguments: [String]) throws -> Any {
            let run = try vault.run(arguments)
            #expect(run.code == 0, "\(run.stderr)")
            return try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        }
        let tags = pairs(try parsed(["tags", "--json"]), count: "count")
        let projects = pairs(try parsed(["projects", "--json"]), count: "count")
        let stats = try #require(try parsed(["stats", "--json"]) as? [String: Any])
        #expect(tags == ["work": 3, "Home": 1])
        #expect(projects == ["Garden": 3])
        #expect(pairs(stats["tags"], count: "notes") == tags)
        #expect(pairs(stats["projects"], count: "notes") == projects)
    }
}
