import Foundation
import Testing

/// How `quire list` prints: `--format` templates and the table.
@Suite("quire list output")
struct ListOutputTests {
    @Test func unknownTemplateFieldIsAUsageErrorListingTheFields() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: Rain\nreviewer: Pete\nmood: 3"), to: "rain.md")
        let run = try vault.run(["list", "--format", "{title} {nope}"])
        #expect(run.code == 2)
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix("""
            quire: error: unknown field '{nope}' in --format
            hint: fields: path, id, title, folder, tags, project, draft, pinned, color, mood, priority, createdAt, updatedAt, words, frontMatter, score; front-matter keys: reviewer

            """))
        #expect(try vault.run(["search", "rain", "--format", "{nope}"]).code == 2)
        let known = try vault.run(["list", "--format", "{title}\\t{reviewer}\\t{mood}\\t{path}"])
        #expect(known.code == 0)
        #expect(known.stdout == "Rain\tPete\t3\train.md\n")
    }
}
