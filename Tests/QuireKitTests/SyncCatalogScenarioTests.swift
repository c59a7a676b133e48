import Foundation
import QuireCore
import QuireKit
import QuireSearch
import QuireSync
import Testing

/// The search catalog after a sync, in process (step 8 of the cycle: brought up to date from
/// what the sync changed, while the push runs): the next opening of the catalog finds nothing
/// left to do, and answers with what arrived, what was stamped and what left.
@Suite struct SyncCatalogScenarioTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    /// The catalog as the next command opens it, with what that opening had to do.
    static func open(_ device: KitDevice) throws -> (catalog: Catalog, report: IndexReport) {
        let fresh = try HistoryDates.openCatalog(vault: device.vault,
                                                 rules: GitIgnoreRules.of(device.vault, environment: device.kit.environment),
                                                 environment: device.kit.environment)
        return (fresh.store.catalog, fresh.store.report)
    }

    static func search(_ catalog: Catalog, _ text: String) throws -> [String] {
        try catalog.run(NoteQuery.parse(text, now: now), sort: .path).map(\.record.path)
    }

    @Test func aSyncLeavesTheCatalogUpToDateWithIncomingAndStampedNotes() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": kitNote("n1", title: "One", updated: "2026-11-29T10:00:00Z")])
        defer { world.remove() }
        _ = try Self.open(b)  // b's catalog exists before the sync
        try a.write(kitNote("n2", title: "Two", updated: "2026-11-29T11:00:00Z", body: "zephyrine arrives\n"), to: "two.md")
        try a.sync("2026-11-29T12:00:00Z")
        try b.write(kitNote("n1", title: "One", updated: "2026-11-29T10:00:00Z", body: "Edited elsewhere, quokka.\n"), to: "one.md")
        try b.touch("one.md", "2026-11-29T11:30:00Z")
        let report = try b.sync("2026-11-29T12:01:00Z").report
        #expect(report.stamped == ["one.md"] && report.updatedFromRemote == ["two.md"])
        let (catalog, opened) = try Self.open(b)
        #expect(catalog.count == 2)
        #expect(opened.added.isEmpty && opened.changed.isEmpty && opened.removed.isEmpty, "nothing left to do: \(opened)")
        #expect(try Self.search(catalog, "zephyrine") == ["two.md"])
        #expect(try Self.search(catalog, "quokka") == ["one.md"])
        #expect(catalog.record(path: "one.md")?.updatedAt == QuireClock.parseISO8601("2026-11-29T11:30:00Z"), "the stamp is in the catalog")
    }

    @Test func aNoteDeletedOrMovedElsewhereLeavesTheCatalog() throws {
        let (world, a, b) = try KitWorld.pair([
            "gone.md": kitNote("g", title: "Gone", updated: "2026-11-29T10:00:00Z", body: "marmoset\n"),
            "moved.md": kitNote("m", title: "Moved", updated: "2026-11-29T10:00:00Z", body: "capybara\n"),
        ])
        defer { world.remove() }
        #expect(try Self.search(Self.open(b).catalog, "marmoset") == ["gone.md"])
        try a.remove("gone.md")
        try FileManager.default.createDirectory(at: a.root.appendingPathComponent("Archive"), withIntermediateDirectories: true)
        try a.git(["mv", "moved.md", "Archive/moved.md"])
        try a.sync("2026-11-29T12:00:00Z")
        try b.sync("2026-11-29T12:01:00Z")
        let (catalog, opened) = try Self.open(b)
        #expect(opened.added.isEmpty && opened.removed.isEmpty, "\(opened)")
        #expect(try Self.search(catalog, "marmoset").isEmpty)
        #expect(try Self.search(catalog, "capybara") == ["Archive/moved.md"])
    }

    /// Notes without date keys are dated by git: created by the first commit that added them,
    /// updated by the last that changed them — also for notes that arrived by a sync.
    @Test func notesWithoutDatesAreDatedByTheCommitsThatBroughtThem() throws {
        let (world, a, b) = try KitWorld.pair(["plain.md": "# Plain\n\nNo front matter.\n"])
        defer { world.remove() }
        try a.write("# Plain\n\nNo front matter, edited.\n", to: "plain.md")
        try a.sync("2026-11-29T12:00:00Z")
        try b.sync("2026-11-29T12:01:00Z")
        let record = try #require(try Self.open(b).catalog.record(path: "plain.md"))
        #expect(record.createdAt == QuireClock.parseISO8601("2026-11-29T11:00:00Z"), "the first sync of a, which added it")
        #expect(record.updatedAt == QuireClock.parseISO8601("2026-11-29T12:00:00Z"), "a's edit, committed by its sync at 12:00")
    }

    /// A note whose front matter cannot be read arrives like any other: listed with what could be
    /// read, its body searchable, counted among the notes with problems, never rewritten.
    @Test func aNoteWithUnreadableFrontMatterArrivesListedAndUntouched() throws {
        let (world, a, b) = try KitWorld.pair(["one.md": kitNote("n1", title: "One", updated: "2026-11-29T10:00:00Z")])
        defer { world.remove() }
        let broken = "---\ntitle: [unclosed\ntags: a, b\n---\nwombat text\n"
        try a.write(broken, to: "broken.md")
        let sent = try a.sync("2026-11-29T12:00:00Z").report
        #expect(sent.stamped.isEmpty, "never stamped: its front matter is not valid YAML")
        try b.sync("2026-11-29T12:01:00Z")
        #expect(try b.read("broken.md") == broken)
        let (catalog, opened) = try Self.open(b)
        #expect(try Self.search(catalog, "wombat") == ["broken.md"])
        #expect(opened.notesWithProblems == 1, "\(opened)")
        #expect(catalog.record(path: "broken.md")?.title != "[unclosed", "what could not be read is not taken as a title")
        #expect(try b.git(["status", "--porcelain"]).isEmpty, "nothing rewrote it")
    }

    /// A sync that brings in many notes changed in place (the catalog compacted into a new base)
    /// leaves a link table the next one-note link command brings over piecewise (the changed
    /// notes alone resolved again) instead of removing it as too stale and answering at query
    /// time; the command after it finds it current, and both answer as at query time.
    @Test func aSyncOfManyNotesLeavesALinkTableTheNextCommandBringsOver() throws {
        var notes: [String: String] = [:]
        for serial in 0..<300 { notes["n\(serial).md"] = "# N\(serial)\n[[n\((serial + 1) % 300)]]\n" }
        let (world, a, b) = try KitWorld.pair(notes)
        defer { world.remove() }
        let opened = try VaultSession(vault: b.vault, environment: b.kit.environment)
        #expect(opened.linkTable(attachments: try opened.attachmentPaths())?.resolvedWhole == true)
        for serial in 0..<200 { try a.write("# N\(serial)\n[[n\((serial + 3) % 300)]] edited\n", to: "n\(serial).md") }
        try a.sync("2026-11-29T12:00:00Z")
        try b.sync("2026-11-29T12:01:00Z")
        for resolved in [200, 0] {
            let session = try VaultSession(vault: b.vault, environment: b.kit.environment)
            let attachments = try session.attachmentPaths()
            let table = try #require(session.linkTable(attachments: attachments, resolvingWhole: false), "removed as too stale")
            #expect(table.resolvedNotes == resolved && !table.resolvedWhole, "\(table.resolvedNotes) notes resolved")
            let fromTable = VaultLinks(vault: b.vault, catalog: session.catalog, attachments: attachments, table: table)
            let atQueryTime = VaultLinks(vault: b.vault, catalog: session.catalog, attachments: attachments)
            for serial in 0..<300 {
                #expect(try fromTable.backlinks(of: "n\(serial).md") == atQueryTime.backlinks(of: "n\(serial).md"))
                #expect(fromTable.outgoing(of: "n\(serial).md") == atQueryTime.outgoing(of: "n\(serial).md"))
            }
        }
    }
}
