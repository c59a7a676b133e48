import Foundation
import QuireCore
import QuireTestSupport
import Testing
@testable import QuireSearch

/// The persisted catalog: freshness like git's index, silent rebuilds, reports.
@Suite struct CacheTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    func paths(_ store: CatalogStore, _ text: String) throws -> [String] {
        try store.catalog.run(NoteQuery.parse(text, now: Self.now), sort: .path).map(\.record.path)
    }

    func seed(_ vault: TestVault) throws {
        try vault.write("a.md", "---\ntitle: Apple pie\ntags: food, Work/Meetings\n---\nA café recipe.\n")
        try vault.write("Drafts/b.md", "---\ntitle: Banana\ndraft: true\n---\nbanana bread naïve\n")
        try vault.write("Drafts/Old/c.md", "no front matter, just 東京タワー text\n")
    }

    @Test func firstOpenBuildsThenSecondOpenParsesNothing() throws {
        let vault = try TestVault()
        try seed(vault)
        let first = vault.open()
        #expect(first.report.added == ["Drafts/Old/c.md", "Drafts/b.md", "a.md"])
        #expect(first.report.cacheIssue == .missing)
        #expect(first.report.cacheWritten)
        #expect(vault.parses.load() == 3)
        let second = vault.open()
        #expect(second.report.cacheIssue == nil)
        #expect(!second.report.hasChanges)
        #expect(vault.parses.load() == 3)
        #expect(try paths(second, "cafe") == ["a.md"])
        #expect(try paths(second, "タワー") == ["Drafts/Old/c.md"])
        #expect(try paths(second, "folder:drafts") == ["Drafts/Old/c.md", "Drafts/b.md"])
        #expect(second.catalog.tags() == [NameCount(name: "food", count: 1), NameCount(name: "Work/Meetings", count: 1)])
    }

    /// A rebuild writes each slot's stamp and the slots in path order straight from what it
    /// read (no table by path): the state file is the same whether the paths come in path
    /// order (as the CLI's walk gives them), shuffled or twice, with a path gone and a path
    /// whose path order differs from the catalog's (`a/b.md` before `a-b.md`); each loads back
    /// with every stamp in place and a later open parses nothing.
    @Test func aRebuildStoresItsStampsBySlotInPathOrder() throws {
        let vault = try TestVault()
        try seed(vault)
        try vault.write("a-b.md", "dash\n")
        try vault.write("a/b.md", "slash\n")
        try vault.write("a0.md", "zero\n")
        let listing = vault.notePaths().sorted { PathOrder.precedes($0, $1) }
        #expect(listing.firstIndex(of: "a/b.md")! < listing.firstIndex(of: "a-b.md")!)
        let given = [listing, listing.reversed() + ["a.md", "gone.md"]]
        var written: [[ExactPath: StoredStamp]] = []
        for paths in given {
            // A clock past the racy window: every stamp is stored as it is.
            let store = CatalogStore(root: vault.root, paths: paths, rebuild: true, parse: vault.parser,
                                     clock: TestVault.settledClock)
            #expect(store.report.added.count == paths.count - (paths.count > listing.count ? 2 : 0))
            #expect(store.catalog.count == listing.count)
            let (catalog, cached, _) = try CatalogCache.load(vault.root + "/.quire/cache/catalog.bin")
            #expect(catalog.count == listing.count)
            // The live slots in path order, each with its own file's stamp.
            let ordered = cached.order.buffer.map { slot in cached.withPath(Int(slot)) { String(decoding: $0, as: UTF8.self) } }
            #expect(ordered == listing)
            for path in listing {
                let stamp = try #require(cached.lookup(path), "\(path)")
                guard case .success(let onDisk) = FileStamp.read(vault.root + "/" + path) else {
                    Issue.record("no stamp for \(path)")
                    continue
                }
                #expect(stamp.stamp.inode == onDisk.inode && stamp.stamp.modifiedNanoseconds == onDisk.modifiedNanoseconds)
            }
            #expect(cached.compare(paths: listing, stamps: listing.map { path in
                guard case .success(let stamp) = FileStamp.read(vault.root + "/" + path) else { return nil }
                return stamp
            })?.changed.isEmpty == true)
            written.append(cached.dictionary)
            let parsed = vault.parses.load()
            let again = CatalogStore(root: vault.root, paths: listing, parse: vault.parser)
            #expect(!again.report.hasChanges && again.report.touched == 0 && again.report.cacheIssue == nil)
            #expect(vault.parses.load() == parsed)
        }
        #expect(written[0] == written[1])
    }

    /// A pass over a few paths of an empty catalog is a rebuild too (the first note a watcher
    /// names, or the first one a walk finds beside an empty snapshot): the stamps it takes are
    /// stored, and a walk afterwards finds nothing changed.
    @Test func aRebuildOfAFewNamedPathsKeepsTheirStamps() throws {
        let vault = try TestVault()
        // An empty vault's snapshot, then a first note found by a walk.
        _ = vault.open()
        try vault.write("n0.md", "---\ntitle: Step 0\n---\napple\n")
        var store = vault.open(clock: TestVault.settledClock)
        #expect(store.report.added == ["n0.md"])
        // No snapshot at all, then the first note a watcher names.
        try FileManager.default.removeItem(atPath: vault.root + "/.quire")
        store = CatalogStore(loading: vault.root, parse: vault.parser, clock: TestVault.settledClock)
        try vault.write("n1.md", "---\ntitle: Step 1\n---\nbirch\n")
        #expect(store.refresh(changedPaths: ["n0.md", "n1.md"]).added == ["n0.md", "n1.md"])
        let (_, cached, _) = try CatalogCache.load(vault.root + "/.quire/cache/catalog.bin")
        for path in ["n0.md", "n1.md"] {
            guard case .success(let onDisk) = FileStamp.read(vault.root + "/" + path) else {
                Issue.record("no stamp for \(path)")
                continue
            }
            #expect(cached.lookup(path)?.stamp == onDisk, "\(path)")
        }
        let parsed = vault.parses.load()
        let walked = vault.open()
        #expect(!walked.report.hasChanges && walked.report.touched == 0, "\(walked.report)")
        #expect(vault.parses.load() == parsed)
    }

    @Test func editDeleteRenameAreSeen() throws {
        let vault = try TestVault()
        try seed(vault)
        _ = vault.open()
        try vault.write("a.md", "---\ntitle: Apple tart\n---\nno more coffee\n")
        try vault.remove("Drafts/b.md")
        try FileManager.default.moveItem(atPath: vault.root + "/Drafts/Old/c.md", toPath: vault.root + "/c2.md")
        let store = vault.open()
        #expect(store.report.changed == ["a.md"])
        #expect(store.report.removed == ["Drafts/Old/c.md", "Drafts/b.md"])
        #expect(store.report.added == ["c2.md"])
        #expect(try paths(store, "cafe").isEmpty)
        #expect(try paths(store, "tart") == ["a.md"])
        #expect(try paths(store, "東京") == ["c2.md"])
        #expect(store.catalog.count == 2)
        let again = vault.open()
        #expect(try paths(again, "東京") == ["c2.md"])
        #expect(again.catalog.count == 2)
    }

    /// A few edited notes rewrite the small state file, not the base with the whole index; a
    /// state that belongs to another base (a crash between the two writes) is rebuilt.
    @Test func anEditRewritesOnlyTheStateFile() throws {
        let vault = try TestVault()
        try seed(vault)
        let store = vault.open()
        let statePath = CatalogCache.statePath(store.cachePath)
        func identity(_ path: String) throws -> [FileAttributeKey: Any] {
            try FileManager.default.attributesOfItem(atPath: path)
        }
        let baseBefore = try identity(store.cachePath)
        let stateBefore = try identity(statePath)
        try vault.write("a.md", "---\ntitle: Apple tart\n---\nquince\n")
        let edited = vault.open()
        #expect(edited.report.changed == ["a.md"])
        #expect(edited.report.cacheWritten)
        let baseAfter = try identity(store.cachePath)
        #expect(baseAfter[.systemFileNumber] as? Int == baseBefore[.systemFileNumber] as? Int)
        #expect(baseAfter[.modificationDate] as? Date == baseBefore[.modificationDate] as? Date)
        #expect(try identity(statePath)[.systemFileNumber] as? Int != stateBefore[.systemFileNumber] as? Int)
        let reopened = vault.open()
        #expect(reopened.report.cacheIssue == nil && !reopened.report.hasChanges)
        #expect(try paths(reopened, "quince") == ["a.md"])

        // A state file from another base: the snapshot is rebuilt, silently and correctly.
        let foreign = try TestVault()
        try seed(foreign)
        let other = foreign.open()
        try FileManager.default.removeItem(atPath: statePath)
        try FileManager.default.copyItem(atPath: CatalogCache.statePath(other.cachePath), toPath: statePath)
        let mixed = vault.open()
        #expect(mixed.report.cacheIssue != nil)
        #expect(try paths(mixed, "quince") == ["a.md"])
        #expect(vault.open().report.cacheIssue == nil)
    }

    @Test func rewriteWithSameContentIsNotParsed() throws {
        let vault = try TestVault()
        try seed(vault)
        _ = vault.open(clock: TestVault.settledClock)  // every stamp trusted as it is
        let before = vault.parses.load()
        try vault.write("a.md", "---\ntitle: Apple pie\ntags: food, Work/Meetings\n---\nA café recipe.\n")
        // Rewritten later, as an editor saving it unchanged does: its time is not the stored one.
        try vault.setModificationDate("a.md", Date(timeIntervalSince1970: 1_700_000_000))
        let store = vault.open()
        #expect(store.report.touched == 1)
        #expect(!store.report.hasChanges)
        #expect(vault.parses.load() == before)
    }

    @Test func contentChangeWithRestoredTimeAndSizeIsSeen() throws {
        let vault = try TestVault()
        try seed(vault)
        let mtime = try vault.modificationDate("a.md")
        _ = vault.open()
        try vault.write("a.md", "---\ntitle: Apple pie\ntags: food, Work/Meetings\n---\nA cafX recipe.\n")
        try vault.setModificationDate("a.md", mtime)
        let store = vault.open()
        #expect(store.report.changed == ["a.md"])
        #expect(try paths(store, "cafx") == ["a.md"])
    }

    @Test func checkoutOfAnOlderTreeIsSeen() throws {
        let vault = try TestVault()
        let old = "---\ntitle: Version one\n---\nalpha\n"
        try vault.write("n.md", old)
        let oldTime = try vault.modificationDate("n.md")
        // Each version has its own size, so a clock past the racy window needs no wait.
        _ = vault.open(clock: TestVault.settledClock)
        try vault.write("n.md", "---\ntitle: Version two\n---\nbeta\n")
        _ = vault.open(clock: TestVault.settledClock)
        try vault.write("n.md", old)
        try vault.setModificationDate("n.md", oldTime)
        let store = vault.open()
        #expect(store.report.changed == ["n.md"])
        #expect(try paths(store, "alpha") == ["n.md"])
        #expect(try paths(store, "beta").isEmpty)
    }

    @Test func damagedOrOldCacheIsRebuiltSilently() throws {
        let vault = try TestVault()
        try seed(vault)
        let store = vault.open()
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: store.cachePath)))
        for index in stride(from: 200, to: bytes.count, by: 7) { bytes[index] ^= 0x5A }
        try Data(bytes).write(to: URL(fileURLWithPath: store.cachePath))
        let damaged = vault.open()
        #expect(damaged.report.cacheIssue != nil)
        #expect(try paths(damaged, "banana") == ["Drafts/b.md"])
        #expect(damaged.catalog.count == 3)

        try Data(bytes.prefix(100)).write(to: URL(fileURLWithPath: store.cachePath))
        #expect(vault.open().catalog.count == 3)

        var old = try [UInt8](Data(contentsOf: URL(fileURLWithPath: store.cachePath)))
        old[8] = 0
        try Data(old).write(to: URL(fileURLWithPath: store.cachePath))
        let reopened = vault.open()
        #expect(reopened.report.cacheIssue == .oldVersion(0))
        #expect(vault.open().report.cacheIssue == nil)
    }

    @Test func badNotesAreListedAndReported() throws {
        let vault = try TestVault()
        try seed(vault)
        try vault.write("junk.md", "\u{0}\u{1}binary")
        try vault.write("broken.md", "---\nthis is not a key\n---\nbody\n")
        try FileManager.default.createDirectory(atPath: vault.root + "/dir.md", withIntermediateDirectories: true)
        let store = vault.open()
        #expect(store.report.failed.map(\.path) == ["dir.md", "junk.md"])
        #expect(store.report.failed.map(\.reason) == [.notAFile, .unparsable("binary junk")])
        #expect(store.report.notesWithProblems == 2)
        let listed = store.catalog.run(NoteQuery(root: .all), sort: .path).map(\.record.path)
        #expect(listed == ["Drafts/Old/c.md", "Drafts/b.md", "a.md", "broken.md", "junk.md"])
    }

    @Test func loadedCatalogAnswersLikeABuiltOne() throws {
        let vault = try TestVault()
        var generator = VaultGenerator(seed: 5)
        let notes = generator.notes(count: 120)
        for note in notes {
            let tags = note.tags.joined(separator: ", ")
            try vault.write(note.path, "---\ntitle: \(note.title)\ntags: \(tags)\n---\n\(note.body)\n")
        }
        _ = vault.open()
        try vault.write(notes[3].path, "---\ntitle: changed\n---\nnew words here\n")
        try vault.remove(notes[4].path)
        let updated = vault.open()
        let loaded = vault.open()
        let built = vault.open(rebuild: true)
        var queries = RandomQueryTests.QueryGenerator(generator: VaultGenerator(seed: 9), notes: notes)
        for _ in 0..<200 {
            let query = try NoteQuery.parse(queries.expression(depth: 2), now: Self.now)
            let expected = built.catalog.run(query).map(\.record.path)
            #expect(loaded.catalog.run(query).map(\.record.path) == expected, "\(query.text)")
            #expect(updated.catalog.run(query).map(\.record.path) == expected, "\(query.text)")
        }
    }
}

/// The store with QuireCore's real parser.
@Suite struct RealParserTests {
    @Test func indexesNotesReadByNoteParser() throws {
        let vault = try TestVault()
        try vault.write("Projects/woody.md", """
            ---
            id: 0b6c1f0e-2a4b-4c59-8d1e-0a1b2c3d4e5f
            title: Woody's Roundup
            createdAt: 2026-01-02T10:00:00+01:00
            updatedAt: 2026-03-04T10:00:00+01:00
            tags: [toys, Work/Meetings]
            project: Toy Story 5
            draft: true
            mood: 4
            status: Done
            ---
            Naïve cowboy meets 東京タワー.
            """)
        try vault.write("broken.md", "---\ntitle: [unclosed\n---\nstill searchable body\n")
        let store = CatalogStore(root: vault.root, paths: vault.notePaths())
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        func find(_ text: String) throws -> [String] {
            try store.catalog.run(NoteQuery.parse(text, now: now)).map(\.record.path)
        }
        #expect(try find("naive tag:work project:\"toy story 5\" draft:true mood:>=4 status:done") == ["Projects/woody.md"])
        #expect(try find("created:<2026-02 updated:2026-03-04 京タ") == ["Projects/woody.md"])
        #expect(try find("title:roundup") == ["Projects/woody.md"])
        #expect(try find("searchable") == ["broken.md"])
        #expect(store.report.notesWithProblems == 1)
        let reopened = CatalogStore(root: vault.root, paths: vault.notePaths())
        #expect(reopened.report.cacheIssue == nil)
        #expect(reopened.catalog.records == store.catalog.records)
        let woody = try #require(reopened.catalog.record(path: "Projects/woody.md"))
        #expect(woody.frontMatter.map(\.key) == ["id", "title", "createdAt", "updatedAt", "tags", "project", "draft", "mood", "status"])
        #expect(woody.extraFrontMatter.map(\.key) == ["status"])
        let hit = try #require(store.catalog.run(NoteQuery.parse("cowboy", now: now)).first)
        let snippet = try #require(store.snippet(for: hit, query: NoteQuery.parse("cowboy", now: now)))
        #expect(snippet.text == "Naïve cowboy meets 東京タワー.")  // whole words: the full stop too
        #expect(snippet.highlights.map { String(snippet.text[$0]) } == ["cowboy"])
    }
}

/// Incremental refreshes of a long-running store.
@Suite struct IncrementalStoreTests {
    @Test func refreshOfNamedPathsTouchesOnlyThose() throws {
        let vault = try TestVault()
        try vault.write("a.md", "---\ntitle: A\n---\nalpha\n")
        try vault.write("b.md", "---\ntitle: B\n---\nbeta\n")
        var store = vault.open()
        try vault.write("a.md", "---\ntitle: A\n---\ngamma\n")
        try vault.remove("b.md")
        try vault.write("c.md", "---\ntitle: C\n---\ndelta\n")
        let report = store.refresh(changedPaths: ["a.md", "b.md", "c.md", "a.md"])
        #expect(report.changed == ["a.md"])
        #expect(report.removed == ["b.md"])
        #expect(report.added == ["c.md"])
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        #expect(try store.catalog.run(NoteQuery.parse("gamma OR delta OR beta", now: now), sort: .path).map(\.record.path) == ["a.md", "c.md"])
        let partial = store.refresh(changedPaths: ["c.md"])
        #expect(!partial.hasChanges && partial.total == 2)
        let reopened = vault.open()
        #expect(!reopened.report.hasChanges)
        #expect(reopened.catalog.count == 2)
    }

    @Test func namedPathsAreLookedUpInTheLoadedSnapshot() throws {
        let vault = try TestVault()
        // Names whose path order differs from plain byte order ('/' sorts first).
        let names = ["a b.md", "a-c.md", "a/x.md", "a/y/z.md", "a.md", "b.md", "Ä.md"]
        for name in names { try vault.write(name, "---\ntitle: \(name)\n---\nplain\n") }
        _ = vault.open(clock: TestVault.settledClock)  // stamps stored as they are; the rewrite below changes a size
        var store = CatalogStore(loading: vault.root, clock: TestVault.settledClock)
        #expect(store.report.cacheIssue == nil)
        let quiet = store.refresh(changedPaths: names + ["missing.md"])
        #expect(!quiet.hasChanges && quiet.touched == 0 && !quiet.cacheWritten, "every named note matched its stored stamp")
        try vault.write("a/y/z.md", "---\ntitle: changed\n---\nrenewed\n")
        try vault.remove("a b.md")
        let report = store.refresh(changedPaths: ["a/y/z.md", "a b.md", "a-c.md"])
        #expect(report.changed == ["a/y/z.md"] && report.removed == ["a b.md"] && report.cacheWritten)
        let reopened = vault.open()
        #expect(!reopened.report.hasChanges && reopened.catalog.count == names.count - 1)
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        #expect(try reopened.catalog.run(NoteQuery.parse("renewed", now: now), sort: .path).map(\.record.path) == ["a/y/z.md"])
    }

    /// The walk's paths are merged with the snapshot's in one pass only when they come in
    /// `PathOrder` (the pass checks the order of any two paths it did not find one after the
    /// other in the snapshot); out of order they are compared by path, and nothing is taken for
    /// changed or removed.
    @Test func aWalkOutOfPathOrderIsComparedByPath() throws {
        let vault = try TestVault()
        let names = ["a b.md", "a-c.md", "a/x.md", "a/y/z.md", "a.md", "b.md", "c.md", "Ä.md"]
        for name in names { try vault.write(name, "---\ntitle: \(name)\n---\nplain\n") }
        _ = vault.open(clock: TestVault.settledClock)  // stamps stored as they are
        let sorted = names.sorted { PathOrder.precedes($0, $1) }
        var swapped = sorted
        swapped.swapAt(3, 4)
        var lastFirst = sorted
        lastFirst.insert(lastFirst.removeLast(), at: 0)
        for order in [sorted, Array(sorted.reversed()), swapped, lastFirst] {
            var store = CatalogStore(loading: vault.root)
            let report = store.refresh(paths: order, stamps: order.map { try? FileStamp.read(vault.root + "/" + $0).get() })
            #expect(!report.hasChanges && report.removed.isEmpty && report.total == names.count, "\(order)")
        }
    }

    /// Random edits, same-content rewrites, deletions, additions and renames, each followed by
    /// a store loaded from the snapshot refreshing either the named paths or the whole walk:
    /// the snapshot it writes (stamps and path order patched from the loaded one, no table of
    /// every path) loads again with nothing to parse or re-stamp, and answers like a catalog
    /// built from the files.
    @Test func snapshotsPatchedAfterAFewChangesStayExact() throws {
        let vault = try TestVault()
        var random = SeededGenerator(seed: 91)
        var serial = 0
        func newName() -> String {
            serial += 1
            return ["n\(serial).md", "d/n\(serial).md", "d e/n\(serial).md", "d-e/n\(serial).md", "Ä\(serial).md"][serial % 5]
        }
        func text(_ word: String) -> String { "---\ntitle: T\(word)\n---\nbody \(word)\n" }
        for _ in 0..<40 { try vault.write(newName(), text("w\(serial % 7)")) }
        _ = vault.open(clock: TestVault.settledClock)  // stamps stored as they are

        func walk() -> ([String], [FileStamp?]) {
            let paths = vault.notePaths().sorted { PathOrder.precedes($0, $1) }
            return (paths, paths.map { try? FileStamp.read(vault.root + "/" + $0).get() })
        }
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        for round in 0..<24 {
            // Each round's changes come after the stamps the last one stored: none keeps its stamp.
            try vault.waitForFileClockTick()
            var names = vault.notePaths()
            var affected: [String] = []
            for _ in 0..<(Int(random.next() % 3) + 1) {
                let name = names[Int(random.next() % UInt64(names.count))]
                switch random.next() % 5 {
                case 0:
                    try vault.write(name, text("e\(round)"))
                    affected.append(name)
                case 1:
                    let data = try Data(contentsOf: URL(fileURLWithPath: vault.root + "/" + name))
                    try vault.remove(name)
                    try data.write(to: URL(fileURLWithPath: vault.root + "/" + name))
                    affected.append(name)
                case 2 where names.count > 10:
                    try vault.remove(name)
                    names.removeAll { $0 == name }
                    affected.append(name)
                case 3 where names.count > 10:
                    let renamed = newName()
                    try vault.write(renamed, "")
                    try vault.remove(renamed)
                    try FileManager.default.moveItem(atPath: vault.root + "/" + name, toPath: vault.root + "/" + renamed)
                    names.removeAll { $0 == name }
                    affected += [name, renamed]
                default:
                    let added = newName()
                    try vault.write(added, text("a\(round)"))
                    affected.append(added)
                }
            }
            var store = CatalogStore(loading: vault.root, parse: vault.parser, clock: TestVault.settledClock)
            #expect(store.report.cacheIssue == nil, "round \(round)")
            let (paths, stamps) = walk()
            let report = round % 2 == 0 ? store.refresh(changedPaths: affected) : store.refresh(paths: paths, stamps: stamps)
            #expect(report.cacheWritten, "round \(round)")
            // Found by path in the loaded order and the recent changes; gone paths are not.
            for path in paths { #expect(store.catalog.record(path: path)?.path == path, "round \(round): \(path)") }
            for path in affected where !paths.contains(path) {
                #expect(store.catalog.record(path: path) == nil, "round \(round): \(path) is gone")
            }
            let parsed = vault.parses.load()
            var reopened = CatalogStore(loading: vault.root, parse: vault.parser, clock: TestVault.settledClock)
            #expect(reopened.report.cacheIssue == nil, "round \(round)")
            let again = reopened.refresh(paths: paths, stamps: stamps)
            #expect(!again.hasChanges && again.touched == 0 && vault.parses.load() == parsed,
                    "round \(round): the snapshot's stamps or order are off")
            let notes = try paths.map { try TestVault.parse(Data(contentsOf: URL(fileURLWithPath: vault.root + "/" + $0)), path: $0) }
            let reference = Catalog(notes: notes)
            for word in ["body", "w3", "e\(round)", "a\(round)"] {
                let query = try NoteQuery.parse(word, now: now)
                #expect(reopened.catalog.run(query, sort: .path).map(\.record.path) == reference.run(query, sort: .path).map(\.record.path),
                        "round \(round): \(word)")
            }
        }
    }

    @Test func temporariesOfDeadWritersAreRemovedAtTheNextWrite() throws {
        let vault = try TestVault()
        try vault.write("a.md", "---\ntitle: A\n---\nalpha\n")
        _ = vault.open()
        let cache = vault.root + "/.quire/cache"
        // A pid that cannot be running (above the kernel's limit) and init's, always running.
        let dead = cache + "/catalog.bin.tmp-2147483646"
        let live = cache + "/catalog.state.tmp-1"
        let other = cache + "/notes.tmp-2147483646"
        for path in [dead, live, other] { #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8))) }
        try vault.write("a.md", "---\ntitle: A\n---\nbeta\n")
        let reopened = vault.open()
        #expect(reopened.report.cacheWritten)
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: live) && FileManager.default.fileExists(atPath: other))
    }
}
