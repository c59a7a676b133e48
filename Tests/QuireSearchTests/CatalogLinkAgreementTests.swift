import Foundation
import QuireCore
import QuireTestSupport
import Testing
@testable import QuireSearch

@Suite("Links from an incrementally updated catalog agree with a fresh parse")
struct CatalogLinkAgreementTests {
    /// Note names and titles the generated links name (some of them never exist: broken links).
    static let names = ["Alpha", "Beta", "Gamma", "Delta", "Omega", "Café", "Notes"]
    static let folders = ["", "a", "a/b", "Z"]

    /// A note body linking to other notes by file name, title, path from the root, relative path,
    /// with headings and labels, an embed of an attachment, and a link inside code.
    static func text(_ random: inout SeededGenerator, title: String?) -> String {
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        var lines: [String] = []
        if let title { lines += ["---", "title: \(title)", "aliases: [\(pick(names)) alias]", "---"] }
        lines.append("# \(pick(names))")
        for _ in 0..<Int(random.next() % 6) {
            let name = pick(names)
            switch random.next() % 8 {
            case 0: lines.append("See [[\(name)]].")
            case 1: lines.append("See [[T \(name)|the title]] and [[\(name)#\(pick(names))]].")
            case 2: lines.append("Path [x](\(pick(Array(folders.dropFirst())))/\(name).md) and [[/\(pick(Array(folders.dropFirst())))/\(name)]].")
            case 3: lines.append("Relative [y](../\(name).md) [[b/\(name)]].")
            case 4: lines.append("![[pic.png]] and `[[\(name)]]` in code, ![[Alpha.png]] [p](Beta.pdf).")
            case 5: lines.append("related [[\(name.lowercased())]] [[\(name) alias]]")
            case 6: lines.append("[[#\(name)]] [[]]")
            default: lines.append("plain words about \(name)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every link answer of `catalog` as comparable text: each note's record, backlinks and
    /// linked notes, and the whole graph's edges.
    private static func answers(_ catalog: Catalog, paths: [String]) -> [String] {
        var lines: [String] = []
        for path in paths {
            let record = catalog.record(path: path)
            lines.append("record \(path): \(record?.path ?? "-") \(record?.title ?? "-") \(record?.links.count ?? -1)")
            for backlink in catalog.backlinks(of: path, attachments: ["pic.png"]) {
                lines.append("backlink \(path) <- \(backlink.source) \(backlink.link.range) \(backlink.link.target)")
            }
        }
        for (source, targets) in catalog.linkedNotes(attachments: ["pic.png"]) {
            lines.append("links \(source) -> \(targets.map { $0 ?? "-" })")
        }
        for edge in catalog.linkGraph(attachments: ["pic.png"]).edges {
            lines.append("edge \(edge.source) \(edge.link.range) \(edge.resolution) \(edge.anchor)")
        }
        return lines
    }

    /// Random edits, retitles, removals, additions and renames, each round refreshed into the
    /// snapshot (loaded again, the changed paths named), then more changes applied in memory:
    /// backlinks, each note's linked notes, the whole graph and look-ups by path answer as a
    /// catalog built from a fresh parse of the files does.
    @Test func afterEditsRenamesAndRemovals() throws {
        let vault = try TestVault()
        var edits = RandomLinkEdits(vault: vault, seed: 35, bareEvery: 3)
        for _ in 0..<30 { try vault.write(edits.newPath(), edits.text()) }
        let parse: NoteParsing = { data, path in NoteParser.parse(data, path: path) }
        _ = CatalogStore(root: vault.root, paths: vault.notePaths(), parse: parse)
        func fresh() throws -> [String] {
            let paths = vault.notePaths()
            let notes = try paths.map { NoteParser.parse(try Data(contentsOf: URL(fileURLWithPath: vault.root + "/" + $0)), path: $0) }
            return Self.answers(Catalog(notes: notes), paths: paths)
        }
        for round in 0..<16 {
            var names = vault.notePaths()
            var changed: [String] = []
            for _ in 0..<(Int(edits.random.next() % 4) + 1) {
                changed += try edits.change(edits.random.next() % 5, names: &names)
            }
            var store = CatalogStore(loading: vault.root, parse: parse)
            #expect(store.report.cacheIssue == nil, "round \(round)")
            store.refresh(changedPaths: changed)
            let reference = try fresh()
            #expect(Self.answers(store.catalog, paths: vault.notePaths()) == reference, "round \(round)")
            // The same catalog updated in memory once more (its recent changes numbered anew).
            var catalog = store.catalog
            var extra = edits.newPath()
            while vault.notePaths().contains(extra) { extra = edits.newPath() }
            try vault.write(extra, edits.text())
            catalog.upsert(NoteParser.parse(try Data(contentsOf: URL(fileURLWithPath: vault.root + "/" + extra)), path: extra))
            #expect(Self.answers(catalog, paths: vault.notePaths()) == (try fresh()), "round \(round), in memory")
            try vault.remove(extra)
        }
    }

    /// The whole graph, which resolves each target from the root once for every folder, leads
    /// every link where resolving it alone from its note does.
    @Test func theGraphResolvesAsEachLinkAlone() {
        var random = SeededGenerator(seed: 36)
        var notes: [Note] = []
        for serial in 0..<80 {
            let folder = Self.folders[serial % Self.folders.count]
            let name = Self.names[Int(random.next() % UInt64(Self.names.count))] + (serial % 3 == 0 ? "" : " \(serial)")
            let title = random.next() % 2 == 0 ? "T " + Self.names[Int(random.next() % UInt64(Self.names.count))] : nil
            let path = (folder.isEmpty ? "" : folder + "/") + name + ".md"
            notes.append(NoteParser.parse(Data(Self.text(&random, title: title).utf8), path: path))
        }
        let catalog = Catalog(notes: notes)
        let resolver = catalog.linkResolver(attachments: ["pic.png", "a/pic.png"])
        let edges = catalog.linkGraph(attachments: ["pic.png", "a/pic.png"]).edges
        #expect(edges.count > 100)
        for edge in edges {
            #expect(edge.resolution == resolver.resolve(edge.link, from: edge.source), "\(edge.source): \(edge.link.target)")
        }
    }
}
