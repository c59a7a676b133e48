import Foundation
import QuireCore
import QuireTestSupport
import Testing
@testable import QuireSearch

@Suite("The link table kept in .quire/cache/links.bin")
struct LinkTableTests {
    /// Attachments that come and go (`CatalogLinkAgreementTests.text` links to `pic.png`,
    /// `Alpha.png` and `Beta.pdf`).
    private static let files = ["pic.png", "a/pic.png", "Z/Alpha.png", "Beta.pdf"]

    /// Everything a table answers, as comparable lines.
    private static func answers(_ table: LinkTable) -> [String] {
        var lines: [String] = []
        for note in 0..<table.count {
            lines.append("\(table.path(note)) \(table.title(note)) \(table.hasTitle(note)) \(table.document(note))")
            for edge in table.edges(of: note) {
                lines.append("  -> \(table.resolution(edge)) \(table.anchor(edge)) \(table.isSelfLink(edge))")
            }
            for edge in table.incomingEdges(of: note) {
                let source = table.source(ofEdge: Int(edge))
                lines.append("  <- \(table.path(source)) \(Int(edge) - table.edges(of: source).lowerBound)")
            }
        }
        return lines
    }

    /// The links the graph resolves at query time, in the table's lines (`answers`).
    private static func graphAnswers(_ catalog: Catalog, attachments: [String], table: LinkTable) -> [String] {
        let graph = catalog.linkGraph(attachments: attachments)
        var lines: [String] = []
        for note in 0..<table.count {
            let path = table.path(note)
            lines.append("\(path) \(table.title(note)) \(table.hasTitle(note)) \(table.document(note))")
            for edge in graph.outgoing(from: path) {
                lines.append("  -> \(edge.resolution) \(edge.anchor) \(edge.link.isSelfLink)")
            }
            for edge in graph.incoming(to: path) {
                let ordinal = graph.outgoing(from: edge.source).firstIndex(of: edge) ?? -1
                lines.append("  <- \(edge.source) \(ordinal)")
            }
        }
        return lines
    }

    /// Every note's backlinks as the table and as the index at query time give them, each as
    /// its source and link; the two must agree.
    private static func backlinkAnswers(_ table: LinkTable, _ catalog: Catalog, attachments: [String]) -> [String] {
        (0..<table.count).flatMap { note -> [String] in
            let path = table.path(note)
            let fromTable = table.backlinks(of: path, in: catalog).map { "\(path) <- \($0.source) \($0.link)" }
            let atQueryTime = catalog.backlinks(of: path, attachments: attachments).map { "\(path) <- \($0.source) \($0.link)" }
            return fromTable == atQueryTime ? fromTable : ["disagree on \(path)"] + fromTable + atQueryTime
        }
    }

    /// `backlinkAnswers`' lines from the graph resolved over whole decoded records (each link
    /// as its note's record holds it), in the order backlinks come: by source path, then in
    /// file order.
    private static func recordBacklinks(_ catalog: Catalog, attachments: [String], table: LinkTable) -> [String] {
        let graph = catalog.linkGraph(attachments: attachments)
        return (0..<table.count).flatMap { note in
            let path = table.path(note)
            let edges = graph.incoming(to: path).filter { !$0.link.isSelfLink }
            let sources = Dictionary(grouping: edges, by: \.source)
            return sources.keys.sorted().flatMap { source -> [String] in
                let written = catalog.record(path: source)?.links ?? []
                return written.filter { link in sources[source]?.contains { $0.link == link } ?? false }
                    .map { "\(path) <- \(source) \($0)" }
            }
        }
    }

    /// A stand-in for each edge's context line that changes whenever its note does: the note's
    /// file and the link's ordinal.
    private static func contextStandIns(_ table: LinkTable, vault: TestVault) throws -> [Int: String] {
        var texts: [Int: String] = [:]
        for note in 0..<table.count {
            let text = try String(contentsOfFile: vault.root + "/" + table.path(note), encoding: .utf8)
            for edge in table.edges(of: note) { texts[edge] = text + "#\(edge - table.edges(of: note).lowerBound)" }
        }
        return texts
    }

    /// Random edits, retitles, alias changes, additions, removals, renames, attachments added
    /// and removed, now and then a rebuild (a new base, every slot renumbered) and a damaged
    /// table file: the table brought up to date from the one on disk answers as one resolved
    /// whole, and as the graph resolved at query time; over a new base it is updated, not
    /// resolved whole (its notes matched by path and content hash). The context lines kept for
    /// random edges (`keepLinkContexts`) are kept only while their notes do not change.
    @Test func anUpdatedTableEqualsOneResolvedWhole() throws {
        let vault = try TestVault()
        var edits = RandomLinkEdits(vault: vault, seed: 3501, bareEvery: 4)
        for _ in 0..<120 { try vault.write(edits.newPath(), edits.text()) }
        var attachments = ["pic.png"]
        try vault.write("pic.png", "png")
        let parse: NoteParsing = { data, path in NoteParser.parse(data, path: path) }
        _ = CatalogStore(root: vault.root, paths: vault.notePaths(), parse: parse)
        var piecewise = 0, rebased = 0, contextsChecked = 0
        var lastBase: UInt64?
        for round in 0..<40 {
            var names = vault.notePaths()
            var changed: [String] = []
            for _ in 0..<(Int(edits.random.next() % 3) + 1) {
                let kind = edits.random.next() % 6
                guard kind == 3 else {
                    changed += try edits.change(kind, names: &names)
                    continue
                }
                let file = Self.files[Int(edits.random.next() % UInt64(Self.files.count))]
                if attachments.contains(file) {
                    try vault.remove(file)
                    attachments.removeAll { $0 == file }
                } else {
                    try vault.write(file, "bytes")
                    attachments.append(file)
                }
            }
            var store = CatalogStore(loading: vault.root, parse: parse)
            store.refresh(changedPaths: changed)
            if round % 5 == 2 { store = CatalogStore(root: vault.root, paths: vault.notePaths(), rebuild: true, parse: parse) }
            let damaged = round % 9 == 8
            if damaged {
                var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: store.linkTablePath)))
                bytes[bytes.count / 2] ^= 0x40
                try Data(bytes).write(to: URL(fileURLWithPath: store.linkTablePath))
            }
            let table = store.linkTable(attachments: attachments)
            #expect(table.cacheIssue == nil)
            if damaged { #expect(table.resolvedWhole, "round \(round)") }
            if !table.resolvedWhole { piecewise += 1 }
            let baseID = store.linkTableBasis.baseID
            if round > 0, !damaged, baseID != lastBase {
                rebased += 1
                #expect(!table.resolvedWhole && table.resolvedNotes < table.count / 2, "round \(round): \(table.resolvedNotes)")
            }
            lastBase = baseID
            let whole = LinkTable.resolvedWhole(catalog: store.catalog, baseID: baseID, hashOf: store.contentHashesBySlot(),
                                                attachments: attachments)
            #expect(Self.answers(table) == Self.answers(whole), "round \(round)")
            let standIns = try Self.contextStandIns(table, vault: vault)
            for edge in 0..<table.targets.count {
                guard let stored = table.storedContext(edge) else { continue }
                #expect(stored == standIns[edge], "round \(round): edge \(edge)'s context is stale")
                contextsChecked += 1
            }
            #expect(Self.answers(table) == Self.graphAnswers(store.catalog, attachments: attachments, table: table), "round \(round)")
            #expect(Self.backlinkAnswers(table, store.catalog, attachments: attachments)
                        == Self.recordBacklinks(store.catalog, attachments: attachments, table: table), "round \(round)")
            let reread = store.linkTable(attachments: attachments)
            #expect(reread.resolvedNotes == 0 && !reread.resolvedWhole, "round \(round): written back, nothing to do")
            #expect(Self.answers(reread) == Self.answers(table), "round \(round): read back as written")
            store.keepLinkContexts(standIns.filter { _ in edits.random.next() % 2 == 0 }, of: reread)
            #expect(store.linkTable(attachments: attachments).keepsContexts, "round \(round): the contexts written")
            if round % 10 == 4 {
                // A rebuild that changes no note resolves no link.
                let rebuilt = CatalogStore(root: vault.root, paths: vault.notePaths(), rebuild: true, parse: parse)
                let same = rebuilt.linkTable(attachments: attachments)
                #expect(rebuilt.linkTableBasis.baseID != baseID && same.resolvedNotes == 0 && !same.resolvedWhole)
                let again = LinkTable.resolvedWhole(catalog: rebuilt.catalog, baseID: nil, hashOf: rebuilt.contentHashesBySlot(),
                                                    attachments: attachments)
                #expect(Self.answers(same) == Self.answers(again), "round \(round)")
                lastBase = rebuilt.linkTableBasis.baseID
            }
        }
        #expect(piecewise > 20 && rebased >= 7, "\(piecewise) updated, \(rebased) over a new base")
        #expect(contextsChecked > 500, "\(contextsChecked) kept contexts checked")
    }

    /// A missing table, another file in its place (the catalog's state file) and a table damaged
    /// and resealed so that every checksum passes are resolved whole again or read within
    /// bounds: nothing crashes, and a table that is refused answers as one resolved whole.
    @Test func aForeignOrResealedTableIsRefusedOrReadWithinBounds() throws {
        let (vault, store) = try RandomLinkEdits.store(notes: 40, seed: 3502, bareEvery: 3)
        let whole = Self.answers(store.linkTable(attachments: ["pic.png"]))
        let url = URL(fileURLWithPath: store.linkTablePath)
        let original = try [UInt8](Data(contentsOf: url))
        try FileManager.default.removeItem(at: url)
        #expect(store.linkTable(attachments: ["pic.png"]).resolvedWhole)
        try Data(contentsOf: URL(fileURLWithPath: vault.root + "/.quire/cache/catalog.state")).write(to: url)
        let foreign = store.linkTable(attachments: ["pic.png"])
        #expect(foreign.resolvedWhole && Self.answers(foreign) == whole)
        var random = SeededGenerator(seed: 77)
        var refused = 0
        for _ in 0..<200 {
            try Data(RandomLinkEdits.resealedDamage(of: original, &random)).write(to: url)
            let table = store.linkTable(attachments: ["pic.png"])
            let answers = Self.answers(table)
            if table.resolvedWhole {
                refused += 1
                #expect(answers == whole)
            }
        }
        #expect(refused > 0)
    }

    /// An edit of one note that keeps its title resolves that note and the notes that link to
    /// one of its headings or blocks again, nothing else (a retitle, the notes that link by
    /// one of its names); an edit of a note no one links to resolves that note alone.
    @Test func oneChangedNoteResolvesWhatItAffects() throws {
        let vault = try TestVault()
        for serial in 0..<200 { try vault.write("n\(serial).md", "# N\(serial)\n[[n\((serial + 1) % 200)]] [[Busy]]\n") }
        try vault.write("Busy.md", "# Busy\nbody\n")
        try vault.write("a/Busy.md", "# Other\nbody\n")
        try vault.write("lone.md", "# Lone\nno links\n")
        try vault.write("x/linker.md", "# Linker\n[[Lone]] [[lone#No such]]\n")
        let parse: NoteParsing = { data, path in NoteParser.parse(data, path: path) }
        let store = CatalogStore(root: vault.root, paths: vault.notePaths(), parse: parse)
        #expect(store.linkTable(attachments: []).resolvedWhole)

        try vault.write("lone.md", "# Lone\nother words\n## No such\n")
        var edited = CatalogStore(loading: vault.root, parse: parse)
        edited.refresh(changedPaths: ["lone.md"])
        var table = edited.linkTable(attachments: [])
        #expect(!table.resolvedWhole)
        #expect(table.resolvedNotes == 2)  // lone.md and x/linker.md, whose anchor is found now
        let linker = try #require(table.index(of: "x/linker.md"))
        #expect(table.edges(of: linker).map(table.anchor) == [.none, .found])

        try vault.write("n7.md", "# N7\n[[n8]] [[Busy]] more\n")
        edited = CatalogStore(loading: vault.root, parse: parse)
        edited.refresh(changedPaths: ["n7.md"])
        table = edited.linkTable(attachments: [])
        #expect(!table.resolvedWhole)
        #expect(table.resolvedNotes == 1)  // n7.md alone: n6.md's [[n7]] leads where it led

        try vault.write("n7.md", "---\ntitle: Seven\n---\n[[n8]] [[Busy]] more\n")
        edited = CatalogStore(loading: vault.root, parse: parse)
        edited.refresh(changedPaths: ["n7.md"])
        table = edited.linkTable(attachments: [])
        #expect(!table.resolvedWhole)
        #expect(table.resolvedNotes == 2)  // n7.md, retitled, and n6.md, which links to it by a name of it

        try vault.remove("a/Busy.md")  // [[Busy]] was ambiguous in 200 notes; now it leads to Busy.md
        edited = CatalogStore(loading: vault.root, parse: parse)
        edited.refresh(changedPaths: ["a/Busy.md"])
        table = edited.linkTable(attachments: [])
        #expect(!table.resolvedWhole)
        #expect(table.resolvedNotes == 200)
        let busy = try #require(table.index(of: "Busy.md"))
        #expect(table.incomingEdges(of: busy).count == 200)
    }
    /// A vault of `count` notes (`n0.md`…), each linking to the next, and its catalog with the
    /// link table resolved whole.
    private static func ring(_ count: Int) throws -> (TestVault, NoteParsing, CatalogStore) {
        let vault = try TestVault()
        for serial in 0..<count { try vault.write("n\(serial).md", "# N\(serial)\n[[n\((serial + 1) % count)]]\n") }
        let parse: NoteParsing = { data, path in NoteParser.parse(data, path: path) }
        let store = CatalogStore(root: vault.root, paths: vault.notePaths(), parse: parse)
        #expect(store.linkTable(attachments: []).resolvedWhole)
        return (vault, parse, store)
    }

    /// Many notes changed in place (bodies and links edited, titles kept) and a new base leave
    /// a table the next one-note command brings over piecewise: matched to the new base by path
    /// and content hash, only the changed notes resolved again, not removed as too stale, and
    /// equal to one resolved whole.
    @Test func manyNotesChangedInPlaceAreBroughtOverPiecewise() throws {
        let (vault, parse, store) = try Self.ring(300)
        let baseID = store.linkTableBasis.baseID
        for serial in 0..<200 { try vault.write("n\(serial).md", "# N\(serial)\n[[n\((serial + 3) % 300)]] edited\n") }
        // A new base, every slot renumbered (as a compaction makes).
        let edited = CatalogStore(root: vault.root, paths: vault.notePaths(), rebuild: true, parse: parse)
        #expect(edited.linkTableBasis.baseID != baseID)
        let kept = try #require(edited.keptLinkTable(attachments: []), "removed as too stale")
        #expect(!kept.resolvedWhole && kept.resolvedNotes == 200)
        let whole = LinkTable.resolvedWhole(catalog: edited.catalog, baseID: edited.linkTableBasis.baseID,
                                            hashOf: edited.contentHashesBySlot(), attachments: [])
        #expect(Self.answers(kept) == Self.answers(whole))
        let next = try #require(CatalogStore(loading: vault.root, parse: parse).keptLinkTable(attachments: []))
        #expect(next.resolvedNotes == 0 && !next.resolvedWhole, "written back current")
    }

    /// A table every note of which changed since it was written is brought up to date
    /// piecewise by the one-note path (`keptLinkTable`: never resolved whole there, never
    /// dropped for it), once: the commands after it read it as it is. (It used to be removed,
    /// and every one-note command after a pull of many notes answered at query time.)
    @Test func aTableEveryNoteOfWhichChangedIsBroughtUpToDateByTheOneNotePath() throws {
        let (vault, parse, store) = try Self.ring(300)
        #expect(FileManager.default.fileExists(atPath: store.linkTablePath))
        for serial in 0..<300 { try vault.write("n\(serial).md", "# N\(serial)\n[[n\((serial + 2) % 300)]] edited\n") }
        var edited = CatalogStore(loading: vault.root, parse: parse)
        edited.refresh(changedPaths: vault.notePaths())
        let kept = try #require(edited.keptLinkTable(attachments: []), "removed as too stale")
        #expect(!kept.resolvedWhole && kept.resolvedNotes == 300)
        let first = try #require(kept.index(of: "n0.md"))
        #expect(kept.edges(of: first).compactMap(kept.targetNote).map(kept.path) == ["n2.md"])
        let whole = LinkTable.resolvedWhole(catalog: edited.catalog, baseID: edited.linkTableBasis.baseID,
                                            hashOf: edited.contentHashesBySlot(), attachments: [])
        #expect(Self.answers(kept) == Self.answers(whole))
        let next = try #require(edited.keptLinkTable(attachments: []))
        #expect(next.resolvedNotes == 0 && !next.resolvedWhole, "written back current")
    }
}

