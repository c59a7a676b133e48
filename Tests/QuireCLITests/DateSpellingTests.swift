import Foundation
import Testing

/// Every command writes an instant the same way (`QuireClock`): `list --json`, `show --json` and
/// `export --json` agree to the letter, a front-matter date keeps the offset it was written with,
/// and a date with none (or a file's modification time) takes the local offset.
@Suite("date spelling")
struct DateSpellingTests {
    @Test func listShowAndExportSpellTheSameInstantAlike() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: Zulu\ncreatedAt: 2026-01-01T00:00:00Z\nupdatedAt: 2026-01-05 09:30:00 +0200\n"
                                 + "due: 2026-02-01"), to: "zulu.md")
        try vault.write("# No front matter\n", to: "plain.md")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_768_867_200)],
                                              ofItemAtPath: vault.url("plain.md").path)
        let environment = ["TZ": "Europe/Berlin"]
        let listed = try objects(try vault.run(["list", "--json", "--sort", "path"], environment: environment).stdout)
        let exported = try objects(try vault.run(["export", "--json"], environment: environment).stdout)
        let shown = try objects("[" + (try vault.run(["show", "zulu.md", "--json"], environment: environment).stdout) + "]")
        let zulu = try #require(listed.first { $0["path"] as? String == "zulu.md" })
        let exportedZulu = try #require(exported.first { $0["path"] as? String == "zulu.md" })
        #expect(zulu["createdAt"] as? String == "2026-01-01T00:00:00Z")
        #expect(zulu["updatedAt"] as? String == "2026-01-05T09:30:00+02:00")
        #expect((zulu["frontMatter"] as? [String: Any])?["due"] as? String == "2026-02-01T00:00:00+01:00")
        for key in ["createdAt", "updatedAt"] {
            #expect(exportedZulu[key] as? String == zulu[key] as? String, "\(key)")
            #expect(shown.first?[key] as? String == zulu[key] as? String, "\(key)")
        }
        let plain = try #require(listed.first { $0["path"] as? String == "plain.md" })
        #expect(plain["updatedAt"] as? String == "2026-01-20T01:00:00+01:00")
    }

    private func objects(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }
}
