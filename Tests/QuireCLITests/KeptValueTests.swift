import Foundation
import Testing

/// A front-matter value quire's tag key cannot hold without loss stays where it was, byte for
/// byte, under `quire migrate` and `quire import --from`, and the command names it (exit 0).
@Suite("values that do not map losslessly are kept")
struct KeptValueTests {
    /// Notes whose tags hold more than strings, each with a duplicate that the tags step would
    /// otherwise tidy away.
    static let oddTags = [
        "map.md": "---\ntitle: M\ntags:\n  - work\n  - {project: apollo}\n  - Work\n---\nBody\n",
        "nested.md": "---\ntitle: N\ntags: [a, [b, c], A]\n---\nBody\n",
        "number.md": "---\ntitle: Num\ntags: [a, 2024, 1.10, A]\n---\nBody\n",
        "bool.md": "---\ntitle: B\ntags: [a, true, A]\n---\nBody\n",
        "mapping.md": "---\ntitle: Map\ntags:\n  area: home\n---\nBody\n",
    ]

    /// `text` without the `id:` line the migration adds.
    static func withoutID(_ text: String) -> String {
        text.components(separatedBy: "\n").filter { !$0.hasPrefix("id: ") }.joined(separator: "\n")
    }

    /// The `"kept"` array of a `--json` report.
    static func kept(_ json: String) throws -> [[String: String]] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return try #require(object?["kept"] as? [[String: String]])
    }

    @Test func migrateKeepsTagsItCannotRewrite() throws {
        let vault = try MigrationTests.vault(atVersion: 1)
        for (path, text) in Self.oddTags { try vault.write(text, to: path) }
        try vault.write("---\ntitle: T\ntags: [x, X, '#y']\n---\nBody\n", to: "tidy.md")
        try vault.commitAll()
        let expected = [
            "quire: note: kept tags in bool.md: item 2 is a boolean — not rewritten",
            "quire: note: kept tags in map.md: item 2 is a mapping — not rewritten",
            "quire: note: kept tags in mapping.md: it is a mapping — not rewritten",
            "quire: note: kept tags in nested.md: item 2 is a nested list — not rewritten",
            "quire: note: kept tags in number.md: item 2 is a number — not rewritten",
        ]
        let dry = try vault.run(["migrate", "--dry-run"])
        #expect(dry.code == 0)
        for line in expected { #expect(dry.stderr.contains(line + "\n"), "\(dry.stderr)") }
        // Only tidy.md's tags change; no line of the others' goes.
        #expect(dry.stdout.components(separatedBy: "\n-tags").count == 2, "\(dry.stdout)")
        #expect(!dry.stdout.contains("\n-  "), "\(dry.stdout)")

        let json = try vault.run(["migrate", "--dry-run", "--json"])
        let reported = try Self.kept(json.stdout)
        #expect(reported.count == 5)
        #expect(reported.first == ["path": "bool.md", "key": "tags", "reason": "item 2 is a boolean"])

        let run = try vault.run(["migrate"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.contains("  tags: 1 note\n"), "\(run.stdout)")
        for line in expected { #expect(run.stderr.contains(line + "\n"), "\(run.stderr)") }
        for (path, text) in Self.oddTags {
            let migrated = try vault.read(path)
            #expect(Self.withoutID(migrated) == text, "\(path)")
            #expect(migrated.contains("\nid: "), "\(path): the other steps still ran")
        }
        #expect(try vault.read("tidy.md").hasPrefix("---\ntitle: T\ntags: [x, y]\nid: "))
        #expect(try vault.gitOutput(["status", "--porcelain"]) == "")
    }

    @Test func hugoImportKeepsCategoriesAndKeywordsItCannotMove() throws {
        let source = try Harness.temporaryDirectory("quire-import-kept")
        let kept = "---\ntitle: P\ncategories:\n  - name: travel\n    weight: 1\n  - name: sea\nkeywords:\n  sea: 1\n  boat: 2\ntags: [x]\n---\nBody\n"
        let mixed = "---\ntitle: Q\ncategories: [a, b]\nkeywords: {k: v}\n---\nBody\n"
        let numbers = "---\ntitle: R\ntags: [x]\ncategories: [travel, 2024, false]\n---\nBody\n"
        try Harness.write(kept, to: source.appendingPathComponent("post/p.md"))
        try Harness.write(mixed, to: source.appendingPathComponent("post/q.md"))
        try Harness.write(numbers, to: source.appendingPathComponent("post/r.md"))
        let vault = try TestVault()
        let run = try vault.run(["import", source.path, "--from", "hugo", "--folder", "H"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout == "imported 3 notes, skipped 0 already in the vault, 0 failed\n")
        #expect(run.stderr == """
            quire: note: kept categories in H/post/p.md: item 1 is a mapping — not moved to tags
            quire: note: kept keywords in H/post/p.md: it is a mapping — not moved to tags
            quire: note: kept keywords in H/post/q.md: it is a mapping — not moved to tags
            quire: note: kept categories in H/post/r.md: item 2 is a number — not moved to tags

            """, "\(run.stderr)")
        #expect(try vault.read("H/post/p.md") == kept)
        #expect(try vault.read("H/post/q.md") == "---\ntitle: Q\ntags: [a, b]\nkeywords: {k: v}\n---\nBody\n")
        #expect(try vault.read("H/post/r.md") == numbers)

        try Harness.write(mixed.replacingOccurrences(of: "Q", with: "S"), to: source.appendingPathComponent("json/s.md"))
        let json = try vault.run(["import", source.appendingPathComponent("json").path, "--from", "hugo", "--folder", "J", "--json"])
        #expect(json.code == 0)
        #expect(try Self.kept(json.stdout) == [["path": "J/s.md", "key": "keywords", "reason": "it is a mapping"]])
    }

    /// A merge whose tags would not read back the same (an item holding the text form's comma)
    /// is not made: both keys stay as they were.
    @Test func aMergeThatWouldNotReadBackTheSameIsNotMade() throws {
        let source = try Harness.temporaryDirectory("quire-import-read-back")
        let text = "---\ntags: \"x, y\"\ntag: [\"a, b\"]\n---\nBody\n"
        try Harness.write(text, to: source.appendingPathComponent("n.md"))
        let vault = try TestVault()
        let run = try vault.run(["import", source.path, "--from", "obsidian"])
        #expect(run.code == 0)
        #expect(run.stderr == "quire: note: kept tags in n.md: its tags would not read back the same — not rewritten\n"
                + "quire: note: kept tag in n.md: its tags would not read back the same — not moved to tags\n")
        #expect(try vault.read("n.md") == text)
    }

    /// A note whose tags hold a mapping arrives on b by sync; b migrates and syncs back: the
    /// value is there, byte for byte, on both devices.
    @Test func aSyncedValueSurvivesMigrateOnTheOtherDevice() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["start.md": "---\ntitle: Start\n---\nStart.\n"])
        try a.write(try a.read(".quire/config.yml").replacingOccurrences(of: "version: 4\n", with: "version: 1\n"),
                    to: ".quire/config.yml")
        try a.sync(now: "2026-11-30T08:00:00Z")
        let b = try world.clone("b")
        let tags = "tags:\n  - work\n  - {project: apollo, due: 2026-12-01}\n  - [nested, list]\n  - 2024\n  - true\n  - Work\n"
        try a.write("---\ntitle: Odd\n" + tags + "---\nOdd.\n", to: "odd.md")
        try a.sync(now: "2026-11-30T09:00:00Z")
        try b.sync(now: "2026-11-30T09:01:00Z")
        #expect(try b.read("odd.md").contains("\n" + tags))
        let migrated = try b.run(["migrate"], now: "2026-11-30T09:02:00Z")
        #expect(migrated.code == 0, "\(migrated.stderr)")
        #expect(migrated.stderr.contains("quire: note: kept tags in odd.md: item 2 is a mapping — not rewritten\n"), "\(migrated.stderr)")
        try b.sync(now: "2026-11-30T09:03:00Z")
        try a.sync(now: "2026-11-30T09:04:00Z")
        #expect(try a.files() == b.files())
        #expect(try a.headTree() == b.headTree())
        for device in [a, b] {
            #expect(try device.read("odd.md").contains("\n" + tags), "\(device.name)")
            #expect(try device.read(".quire/config.yml").contains("\nversion: 4\n"), "\(device.name)")
        }
    }
}
