import Foundation
import QuireCore

/// Fuzz target for the catalog snapshot loader (compiled into the QuireSearch module by fuzz.sh).
///
/// At start it indexes a small vault of varied notes and keeps the snapshot it wrote (both
/// files). Each input says how to damage them: its first byte picks the file (bit 0: the state
/// file instead of the base), whether to truncate it (bit 1: to the length in bytes 1–4) and
/// whether to compute the checksums again afterwards (bit 2: "reseal", so that the checks
/// behind the checksums are reached); then 5-byte groups each set the byte at a u32 offset.
/// An input that starts with the file's magic (`QUIRECAT`, `QUIRESTA`) is that whole file.
///
/// Properties: loading never crashes, and whatever loads answers queries, decodes every
/// record and compares stamps without crashing (AddressSanitizer watches every read); a file
/// changed inside its header or any section and not resealed is always refused.
enum FuzzTarget {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    /// The intact snapshot, the directory the damaged one is written to, and its paths.
    struct Snapshot {
        let base: [UInt8]
        let state: [UInt8]
        let directory: String
        let paths: [String]
        var basePath: String { directory + "/catalog.bin" }
        var statePath: String { directory + "/catalog.state" }
    }

    static let snapshot: Snapshot = {
        let root = NSTemporaryDirectory() + "quire-fuzz-snapshot-\(getpid())"
        let notes: [(String, String)] = [
            ("a.md", "---\ntitle: Apple pie\ntags: [food, Work/Meetings]\nmood: 4\n---\nA café recipe with apples.\n"),
            ("Drafts/b.md", "---\ntitle: Banana\ndraft: true\nproject: Toy Story 5\n---\nbanana bread naïve\n"),
            ("Drafts/Old/c.md", "no front matter, just 東京タワー text and a #tag\n"),
            ("d.md", "+++\ntitle = \"Toml\"\n+++\nthe quick brown fox jumps over the lazy dog\n"),
            ("e.md", "---\ntitle: [unclosed\n---\nbroken front matter, still searchable\n"),
            ("f.md", "---\nid: 0b6c1f0e-2a4b-4c59-8d1e-0a1b2c3d4e5f\naliases: [Eff]\npinned: true\n---\n"
                + String(repeating: "repeat repeat phrase words ", count: 40) + "\n"),
            ("Journal/2026/g.md", "# Heading title\n\nC++ and emoji 🎉 and ภาษาไทย words\n"),
        ]
        for (path, text) in notes {
            let full = root + "/" + path
            try? FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                     withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: full, contents: Data(text.utf8))
        }
        let paths = notes.map(\.0).sorted { PathOrder.precedes($0, $1) }
        let store = CatalogStore(root: root, paths: paths)
        // An edit after the first snapshot: the state file then holds a segment of its own.
        _ = FileManager.default.createFile(atPath: root + "/a.md", contents: Data("---\ntitle: Apple tart\n---\nquince\n".utf8))
        _ = CatalogStore(root: root, paths: paths)
        let read = { (path: String) in [UInt8](FileManager.default.contents(atPath: path) ?? Data()) }
        let snapshot = Snapshot(base: read(store.cachePath), state: read(CatalogCache.statePath(store.cachePath)),
                                directory: root + "/damaged", paths: paths)
        guard !snapshot.base.isEmpty, !snapshot.state.isEmpty else { fuzzFailure("no snapshot was written") }
        try? FileManager.default.createDirectory(atPath: snapshot.directory, withIntermediateDirectories: true)
        return snapshot
    }()

    /// Queries run on whatever loads (parsed for each input: a query kept in a static is
    /// reported as a leak by LeakSanitizer, which cannot follow Swift's indirect enum cases).
    static let queryTexts = ["apple", "tag:work", "folder:drafts", "\"repeat phrase\"", "caf*", "draft:true",
                             "mood:>=3", "-tag:food", "title:apple OR project:\"toy story 5\"", "東京",
                             "pinned:true", "updated:>30d", "path:journal/*/*", "quince"]

    static func run(_ data: Data) {
        let input = [UInt8](data)
        let intact = snapshot
        var base = intact.base
        var state = intact.state
        var changed = false
        var resealed = false
        if input.starts(with: Array("QUIRECAT".utf8)) {
            base = input
            changed = base != intact.base
        } else if input.starts(with: Array("QUIRESTA".utf8)) {
            state = input
            changed = state != intact.state
        } else if let mode = input.first {
            let onState = mode & 1 != 0
            var file = onState ? state : base
            let original = file
            var groups = input.dropFirst()
            if mode & 2 != 0, groups.count >= 4 {
                let length = groups.prefix(4).enumerated().reduce(0) { $0 | Int($1.element) << ($1.offset * 8) }
                file = Array(file.prefix(length % (file.count + 1)))
                groups = groups.dropFirst(4)
            }
            var offsets: [Int] = []
            while groups.count >= 5, !file.isEmpty {
                let bytes = Array(groups.prefix(5))
                let offset = (Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 | Int(bytes[3]) << 24) % file.count
                file[offset] = bytes[4]
                offsets.append(offset)
                groups = groups.dropFirst(5)
            }
            if mode & 4 != 0 {
                SnapshotFile.reseal(&file)
                resealed = true
            }
            changed = file.count < original.count || offsets.contains { covered($0, in: original) && file[$0] != original[$0] }
            if onState { state = file } else { base = file }
        }
        _ = FileManager.default.createFile(atPath: intact.basePath, contents: Data(base))
        _ = FileManager.default.createFile(atPath: intact.statePath, contents: Data(state))
        guard let (catalog, stamps, _) = try? CatalogCache.load(intact.basePath) else { return }
        if changed && !resealed { fuzzFailure("a changed snapshot was loaded") }
        for query in queryTexts.compactMap({ try? NoteQuery.parse($0, now: now) }) {
            _ = catalog.run(query, sort: .path)
            _ = catalog.run(query)
        }
        _ = catalog.records
        _ = catalog.tags()
        _ = stamps.dictionary
        _ = stamps.compare(paths: intact.paths, stamps: [])
        for path in intact.paths { _ = stamps.lookup(path) }
    }

    /// Whether the byte at `offset` of an intact file is checked: in its header or a section.
    static func covered(_ offset: Int, in file: [UInt8]) -> Bool {
        guard file.count >= 24 else { return true }
        let count = Int(file[20]) | Int(file[21]) << 8
        if offset < SnapshotFile.headerChecksumOffset(sections: count) + 8 { return true }
        for index in 0..<count {
            let entry = 24 + index * 24
            let word = { (at: Int) in (0..<8).reduce(0) { $0 | Int(file[at + $1]) << ($1 * 8) } }
            let start = word(entry)
            if offset >= start && offset < start + word(entry + 8) { return true }
        }
        return false
    }
}
