import Foundation
import QuireCore
import QuireKit
import QuireSearch
import Synchronization
import Testing

/// The catalog after a plain `git pull` (no quire sync): the next command's opening parses each
/// note the pull changed once, every other note not at all, and gets the catalog a rebuild gives.
@Suite struct PulledCatalogTests {
    /// Opens `device`'s catalog as a command does (`HistoryDates.openCatalog`), counting the notes
    /// parsed.
    static func open(_ device: KitDevice) throws -> (catalog: Catalog, parsed: [String]) {
        let rules = GitIgnoreRules.of(device.vault, environment: device.kit.environment)
        let dates = try #require(HistoryDates.load(vault: device.vault))
        let parsed = Mutex<[String]>([])
        let dated = dates.parser
        let counting: NoteParsing = { data, path in
            parsed.withLock { $0.append(path) }
            return try dated(data, path)
        }
        let fresh = try FreshCatalog.open(vault: device.vault, rules: rules, environment: device.kit.environment,
                                          parse: counting, reparsing: dates.changedPaths)
        return (fresh.store.catalog, parsed.withLock { $0 }.sorted())
    }

    @Test func aPlainPullParsesOnlyThePulledNotesOnceAndMatchesARebuild() throws {
        let (world, a, b) = try KitWorld.pair([
            "dated.md": kitNote("d", title: "Dated", updated: "2026-11-29T10:00:00Z"),
            "plain.md": "# Plain\n\nNo front matter.\n",
            "still.md": kitNote("s", title: "Still", updated: "2026-11-29T10:00:00Z"),
            "Folder/other.md": "# Other\n\nUntouched.\n",
        ])
        defer { world.remove() }
        _ = try Self.open(b)  // b's catalog and dates exist before the pull
        try a.write(kitNote("d", title: "Dated", updated: "2026-11-29T11:30:00Z", body: "Pangolin.\n"), to: "dated.md")
        try a.write("# Plain\n\nNo front matter, pangolin.\n", to: "plain.md")
        try a.sync("2026-11-29T12:00:00Z")
        _ = try b.git(["pull", "-q", "--ff-only", "origin", "main"])
        let (catalog, parsed) = try Self.open(b)
        #expect(parsed == ["dated.md", "plain.md"], "each pulled note once, no other")
        let rebuilt = try HistoryDates.openCatalog(vault: b.vault, rules: GitIgnoreRules.of(b.vault, environment: b.kit.environment),
                                                   environment: b.kit.environment, rebuild: true).store.catalog
        #expect(catalog.records.sorted { $0.path < $1.path } == rebuilt.records.sorted { $0.path < $1.path })
        let hits = try catalog.run(NoteQuery.parse("pangolin", now: Date()), sort: .path).map(\.record.path)
        #expect(hits == ["dated.md", "plain.md"])
        #expect(catalog.record(path: "plain.md")?.updatedAt == QuireClock.parseISO8601("2026-11-29T12:00:00Z"), "dated by the pulled commit")
        #expect(try Self.open(b).parsed.isEmpty, "the next command parses nothing")
    }

    /// A commit of a note already indexed as it is (its file unchanged since): the next opening
    /// dates it by the commit, though the dates are worked out while the vault is walked.
    @Test func aCommitOfAnIndexedNoteDatesItThroughTheNextOpening() throws {
        let kit = try KitVault()
        defer { kit.remove() }
        try kit.write("# A\n\nWords.\n", to: "a.md")
        try HistoryDatesUpdateTests.commit(kit, "start", at: "2026-11-01T10:00:00Z")
        try kit.write("# A\n\nWords, changed.\n", to: "a.md")
        let rules = GitIgnoreRules.of(kit.vault, environment: kit.environment)
        let edited = QuireClock.parseISO8601("2026-11-02T10:00:00Z")
        let before = try HistoryDates.openCatalog(vault: kit.vault, rules: rules, environment: kit.environment).store.catalog
        #expect(before.record(path: "a.md")?.updatedAt != edited)
        try HistoryDatesUpdateTests.commit(kit, "edit", at: "2026-11-02T10:00:00Z")
        let after = try HistoryDates.openCatalog(vault: kit.vault, rules: rules, environment: kit.environment).store.catalog
        #expect(after.record(path: "a.md")?.updatedAt == edited, "dated by the commit")
        #expect(after.record(path: "a.md")?.createdAt == QuireClock.parseISO8601("2026-11-01T10:00:00Z"))
    }

    /// A note with both dates in its front matter, as quire writes them.
    static func fullyDated(_ id: String, body: String = "Body.\n") -> String {
        kitNote(id, title: id, updated: "2026-11-29T10:00:00Z", extra: "createdAt: 2026-11-01T10:00:00Z\n", body: body)
    }

    /// Every note with both dates in its front matter: the command after a pull walks no
    /// history (the dates file stays behind `HEAD`) and still gets what a rebuild gives.
    @Test func aPullIntoNotesAllDatedByTheirFrontMatterWalksNoHistory() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.fullyDated("one"), "two.md": Self.fullyDated("two")])
        defer { world.remove() }
        let rules = GitIgnoreRules.of(b.vault, environment: b.kit.environment)
        let first = try HistoryDates.openCatalog(vault: b.vault, rules: rules, environment: b.kit.environment).store.catalog
        #expect(!first.hasNotesDatedElsewhere)
        try a.write(Self.fullyDated("one", body: "Pangolin.\n"), to: "one.md")
        try a.sync("2026-11-29T12:00:00Z")
        _ = try b.git(["pull", "-q", "--ff-only", "origin", "main"])
        #expect(!HistoryDates.isCurrent(vault: b.vault))
        let catalog = try HistoryDates.openCatalog(vault: b.vault, rules: rules, environment: b.kit.environment).store.catalog
        #expect(!HistoryDates.isCurrent(vault: b.vault), "no history walked")
        #expect(try catalog.run(NoteQuery.parse("pangolin", now: Date()), sort: .path).map(\.record.path) == ["one.md"])
        let rebuilt = try HistoryDates.openCatalog(vault: b.vault, rules: rules, environment: b.kit.environment,
                                                   rebuild: true).store.catalog
        #expect(catalog.records.sorted { $0.path < $1.path } == rebuilt.records.sorted { $0.path < $1.path })
    }

    /// The same vault, and the pull brings a note without dates: the history is walked once
    /// that note is read, and dates it.
    @Test func aPulledNoteWithoutDatesIsDatedByTheHistoryWalkedThen() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": Self.fullyDated("one")])
        defer { world.remove() }
        let rules = GitIgnoreRules.of(b.vault, environment: b.kit.environment)
        _ = try HistoryDates.openCatalog(vault: b.vault, rules: rules, environment: b.kit.environment)
        try a.write("# Plain\n\nNo front matter.\n", to: "plain.md")
        try a.sync("2026-11-29T12:00:00Z")
        _ = try b.git(["pull", "-q", "--ff-only", "origin", "main"])
        let catalog = try HistoryDates.openCatalog(vault: b.vault, rules: rules, environment: b.kit.environment).store.catalog
        #expect(HistoryDates.isCurrent(vault: b.vault), "the history was walked for plain.md")
        let plain = try #require(catalog.record(path: "plain.md"))
        #expect(plain.updatedAt == QuireClock.parseISO8601("2026-11-29T12:00:00Z") && plain.updatedAtSource == .git)
        #expect(catalog.hasNotesDatedElsewhere)
    }
}
