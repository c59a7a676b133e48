import Foundation
import QuireCore
import Testing
@testable import QuireSearch

/// `Note(record:)` gives the note's real fields, also after the record went through the snapshot
/// on disk: whether it has a title of its own and its front-matter format are kept, not guessed.
@Suite("Note from a catalog record")
struct NoteFromRecordTests {
    @Test func titleAndFormatSurviveTheSnapshot() throws {
        let vault = try TestVault()
        try vault.write("titled.md", "---\ntitle: Own\n---\nBody.\n")
        try vault.write("untitled.md", "---\ntags: [a]\n---\nBody.\n")
        try vault.write("toml.md", "+++\ntitle = \"T\"\n+++\nBody.\n")
        try vault.write("plain.md", "Just text.\n")
        let paths = ["plain.md", "titled.md", "toml.md", "untitled.md"]
        _ = CatalogStore(root: vault.root, paths: paths, rebuild: true)
        let reopened = CatalogStore(root: vault.root, paths: paths)
        #expect(reopened.report.cacheIssue == nil)
        let notes = Dictionary(uniqueKeysWithValues: reopened.catalog.records.map {
            ($0.path, Note(record: $0, withFrontMatter: false))
        })
        #expect(notes["titled.md"]?.hasTitle == true)
        #expect(notes["titled.md"]?.format == .yaml)
        #expect(notes["untitled.md"]?.hasTitle == false)
        #expect(notes["untitled.md"]?.title == "untitled")
        #expect(notes["toml.md"]?.format == .toml)
        #expect(notes["toml.md"]?.hasTitle == true)
        #expect(notes["plain.md"]?.format == FrontMatterFormat.none)
        #expect(notes["plain.md"]?.hasTitle == false)
    }
}
