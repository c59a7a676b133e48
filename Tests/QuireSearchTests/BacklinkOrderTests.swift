import Foundation
import QuireCore
import QuireTestSupport
import Testing
@testable import QuireSearch

@Suite("The order of backlinks from the link table")
struct BacklinkOrderTests {
    /// Linking notes whose table order (`PathOrder`: `/` first) is not the order their paths
    /// compare in as Strings, and ones with non-ASCII paths: the table's backlinks come in the
    /// Strings' order, as the index's answer at query time does.
    @Test func backlinksComeByTheLinkingNotesPathsAsStrings() throws {
        let vault = try TestVault()
        let sources = ["a/x.md", "a-b.md", "a b.md", "a.md", "a/b/c.md", "Café.md", "Cafe/x.md", "Cafe\u{301}.md", "é.md", "z.md"]
        try vault.write("T.md", "# T\n")
        for (number, source) in sources.enumerated() {
            try vault.write(source, "Line \(number) links [[T]].\n\nAnd again [[T#T]].\n")
        }
        let parse: NoteParsing = { data, path in NoteParser.parse(data, path: path) }
        let store = CatalogStore(root: vault.root, paths: vault.notePaths(), parse: parse)
        let table = store.linkTable(attachments: [])
        let found = table.backlinks(of: "T.md", in: store.catalog)
        #expect(found.map(\.source) == sources.sorted().flatMap { [$0, $0] })
        #expect(found.map { "\($0.source) \($0.link)" }
                == store.catalog.backlinks(of: "T.md").map { "\($0.source) \($0.link)" })
    }
}
