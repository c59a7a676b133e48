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

    /// `Catalog.recordHeads` (the first fields of each record) gives each live note's path,
    /// folder, id, title, aliases, tags, project, flags, color, mood, priority, dates and words
    /// as the whole records do, from the snapshot on disk and from notes added since.
    @Test func recordHeadsHoldTheFieldsOfWholeRecords() throws {
        let vault = try TestVault()
        try vault.write("a/one.md", "---\nid: 20260101\ntitle: One\naliases: [Uno, Eins]\ntags: [x, y]\nproject: P\n"
                        + "draft: true\npinned: true\ncolor: red\nmood: 3\npriority: high\nupdatedAt: 2026-05-06T07:08:09Z\n---\n[[two]] body.\n")
        try vault.write("two.md", "+++\ntitle = \"Two\"\naliases = [\"Deux\"]\n+++\nBody.\n")
        try vault.write("plain.md", "Just text.\n")
        _ = CatalogStore(root: vault.root, paths: ["a/one.md", "plain.md", "two.md"], rebuild: true)
        try vault.write("b/three.md", "---\ntitle: Three\naliases: [Drei]\nmood: 1\ncreatedAt: 2026-01-02T00:00:00Z\nupdatedAt: 2026-03-04T05:06:07Z\n---\nNew since the snapshot.\n")
        try vault.remove("plain.md")
        let store = CatalogStore(root: vault.root, paths: ["a/one.md", "b/three.md", "two.md"])
        #expect(store.report.cacheIssue == nil)
        let heads = store.catalog.recordHeads, records = store.catalog.records
        #expect(heads.map(\.path) == ["a/one.md", "b/three.md", "two.md"])
        #expect(heads.map(\.path) == records.map(\.path))
        for (head, record) in zip(heads, records) {
            #expect(head.folder == record.folder && head.id == record.id && head.title == record.title, "\(head.path)")
            #expect(head.aliases == record.aliases && head.tags == record.tags && head.project == record.project, "\(head.path)")
            #expect(head.draft == record.draft && head.pinned == record.pinned && head.hasTitle == record.hasTitle, "\(head.path)")
            #expect(head.format == record.format && head.color == record.color, "\(head.path)")
            #expect(head.mood == record.mood && head.priority == record.priority, "\(head.path)")
            #expect(head.createdAt == record.createdAt && head.updatedAt == record.updatedAt, "\(head.path)")
            #expect(head.createdAtSource == record.createdAtSource && head.updatedAtSource == record.updatedAtSource, "\(head.path)")
            #expect(head.words == record.words, "\(head.path)")
        }
        #expect(heads.first?.aliases == ["Uno", "Eins"])
        #expect(heads.first?.updatedAt == Date(timeIntervalSince1970: 1_778_051_289))
        #expect(heads.first.map { $0.words > 0 } == true)
        // Read before the whole records were decoded: the rest of the record was not.
        #expect(heads.first?.links.isEmpty == true && records.first?.links.isEmpty == false)
    }
}
