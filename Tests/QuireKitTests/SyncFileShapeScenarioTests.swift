import Foundation
import QuireCore
import QuireKit
import QuireSync
import Testing

/// What a sync brings in is written as git writes it, config files merge in place, and links to
/// a note the other device renamed follow it; two devices in process. (The CLI's warnings for
/// the same cases: QuireCLITests' SyncFileShapesTests and SyncMergeEdgeTests.)
@Suite struct SyncFileShapeScenarioTests {
    static let keep = kitNote("k", title: "Keep", updated: "2026-11-29T10:00:00Z")

    /// Binary files (an image, a `.md` holding a nul byte) arrive byte for byte, with and without
    /// `core.autocrlf`, and the next sync commits nothing.
    @Test(arguments: [false, true])
    func binaryFilesArriveWhole(autocrlf: Bool) throws {
        let (world, a, b) = try KitWorld.pair(["keep.md": Self.keep])
        defer { world.remove() }
        if autocrlf { try b.git(["config", "core.autocrlf", "true"]) }
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52])
        let binaryNote = Data("text\u{0}with a nul\n".utf8)
        try png.write(to: a.root.appendingPathComponent("photo.png"))
        try binaryNote.write(to: a.root.appendingPathComponent("data.md"))
        try a.sync()
        try b.sync("2026-11-29T12:01:00Z")
        #expect(try Data(contentsOf: b.root.appendingPathComponent("photo.png")) == png)
        #expect(try Data(contentsOf: b.root.appendingPathComponent("data.md")) == binaryNote)
        #expect(try b.git(["status", "--porcelain"]).isEmpty)
        let again = try b.sync("2026-11-29T12:02:00Z").report
        #expect(again.committed.isEmpty, "\(again.committed)")
        #expect(try a.git(["rev-parse", "HEAD"]) == b.git(["rev-parse", "HEAD"]))
    }

    /// A note committed with CRLF line breaks stays so on a `core.autocrlf=true` device, and no
    /// sync commits a rewrite of it.
    @Test func aCRLFNoteStaysAsWrittenOnAnAutocrlfDevice() throws {
        let (world, a, b) = try KitWorld.pair(["keep.md": Self.keep])
        defer { world.remove() }
        try b.git(["config", "core.autocrlf", "true"])
        let windows = Data("---\r\ntitle: Windows note\r\n---\r\nline one\r\n".utf8)
        try windows.write(to: a.root.appendingPathComponent("win.md"))
        try a.sync()
        try b.sync("2026-11-29T12:01:00Z")
        #expect(try Data(contentsOf: b.root.appendingPathComponent("win.md")) == windows)
        #expect(try b.git(["status", "--porcelain"]).isEmpty)
        try b.sync("2026-11-29T12:02:00Z")
        try a.sync("2026-11-29T12:03:00Z")
        #expect(try a.git(["rev-parse", "HEAD"]) == b.git(["rev-parse", "HEAD"]))
        #expect(try a.git(["log", "--format=%s", "--", "win.md"]).split(separator: "\n").count == 1)
    }

    /// A tracked file replaced by a folder of its name: the deletion and the folder's notes are
    /// committed, and the other device gets both.
    @Test func aFileReplacedByAFolderOfItsNameIsCommitted() throws {
        let (world, a, b) = try KitWorld.pair(["keep.md": Self.keep, "Projects": "todo list\n"])
        defer { world.remove() }
        try a.remove("Projects")
        try a.write("---\ntitle: P\n---\nnote in folder\n", to: "Projects/p.md")
        try a.sync("2026-11-29T12:01:00Z")
        #expect(try a.git(["status", "--porcelain"]).isEmpty)
        #expect(try a.git(["ls-files"]).split(separator: "\n").contains("Projects/p.md"))
        try b.sync("2026-11-29T12:02:00Z")
        #expect(try b.read("Projects/p.md") == "---\ntitle: P\n---\nnote in folder\n")
    }

    /// `.gitignore`, `.quire/config.yml` and `.obsidian/app.json` changed on both sides merge in
    /// place (the JSON keeps its key order); no copy appears, nothing is recorded as lost.
    @Test func configFilesMergeInPlace() throws {
        let app = "{\n  \"theme\": \"light\",\n  \"fontSize\": 14\n}\n"
        let (world, a, b) = try KitWorld.pair(["one.md": SyncMergeScenarioTests.base, ".obsidian/app.json": app])
        defer { world.remove() }
        let ignore = try a.read(".gitignore"), config = try a.read(".quire/config.yml")
        try a.write(ignore + "*.secret\n", to: ".gitignore")
        try b.write(ignore + "*.log\n", to: ".gitignore")
        try a.write(config + "timeZone: Europe/Paris\n", to: ".quire/config.yml")
        try b.write(config + "merge:\n  \"Journal/**\": theirs\n", to: ".quire/config.yml")
        try a.write(app.replacingOccurrences(of: "light", with: "dark"), to: ".obsidian/app.json")
        try b.write(app.replacingOccurrences(of: "14", with: "16"), to: ".obsidian/app.json")
        try SyncMergeScenarioTests.syncABA(a, b)
        #expect(try a.read(".gitignore") == ignore + "*.log\n*.secret\n")
        #expect(try a.read(".quire/config.yml") == config + "merge:\n  \"Journal/**\": theirs\ntimeZone: Europe/Paris\n")
        #expect(try a.read(".obsidian/app.json") == "{\n  \"theme\": \"dark\",\n  \"fontSize\": 16\n}\n")
        #expect(try a.files().keys.sorted() == [".gitattributes", ".gitignore", ".obsidian/app.json", ".quire/config.yml", "one.md"])
        #expect(try a.conflicts().isEmpty)
        try b.write("hunter2\n", to: "keys.secret")
        try b.sync("2026-11-29T12:03:00Z")
        #expect(try world.remoteFile("keys.secret") == nil, "the merged rules apply")
    }

    /// A config key changed on both sides goes to the newer side; the other version is in the
    /// conflict store, never a copy beside the file.
    @Test func aConfigCollisionKeepsTheOtherVersionInTheConflictStore() throws {
        let app = "{\n  \"theme\": \"light\"\n}\n"
        let (world, a, b) = try KitWorld.pair(["one.md": SyncMergeScenarioTests.base, ".obsidian/app.json": app])
        defer { world.remove() }
        try a.write(app.replacingOccurrences(of: "light", with: "dark"), to: ".obsidian/app.json")
        try b.write(app.replacingOccurrences(of: "light", with: "blue"), to: ".obsidian/app.json")
        try SyncMergeScenarioTests.syncABA(a, b)
        #expect(try a.read(".obsidian/app.json") == app.replacingOccurrences(of: "light", with: "blue"))
        #expect(try a.files().keys.filter { $0.hasPrefix(".obsidian/") } == [".obsidian/app.json"])
        let record = try #require(try a.conflicts().first)
        #expect(try a.conflicts().map(\.path) == [".obsidian/app.json"])
        let losing = try ConflictLog(vaultRoot: a.root).losingVersion(of: record)
        #expect(losing.map { String(decoding: $0, as: UTF8.self) } == app.replacingOccurrences(of: "light", with: "dark"))
    }

    /// A note renamed on one device (its links rewritten there); meanwhile the other device
    /// links to the old name. The sync that brings the rename repairs the new links, commits and
    /// pushes the repair; both devices end with the same files.
    @Test func aLinkToTheOldNameWrittenElsewhereFollowsTheRename() throws {
        let (world, a, b) = try KitWorld.pair([
            "plan.md": kitNote("11110000-0000-4000-8000-000000000001", title: "Plan", updated: "2026-11-29T10:00:00Z"),
            "index.md": kitNote("11110000-0000-4000-8000-000000000002", title: "Index", updated: "2026-11-29T10:00:00Z",
                                body: "Start at [[plan|the plan]].\n"),
        ])
        defer { world.remove() }
        // As `quire rename plan.md "Road map"` leaves it: the new name and title, its links rewritten.
        try a.git(["mv", "plan.md", "road-map.md"])
        try a.write(try a.read("road-map.md").replacingOccurrences(of: "title: Plan", with: "title: Road map"), to: "road-map.md")
        try a.write(try a.read("index.md").replacingOccurrences(of: "[[plan|", with: "[[road-map|"), to: "index.md")
        try a.sync("2026-11-29T11:00:00Z")
        let later = "---\ntitle: Later\nupdatedAt: 2026-11-29T11:30:00Z\n---\nSee [[plan#Goals]] and [p](plan.md).\n"
        try b.write(later, to: "later.md")
        let outcome = try b.sync("2026-11-29T12:00:00Z")
        #expect(outcome.repairs.changed == ["later.md"], "\(outcome.repairs.changed)")
        #expect(outcome.repairReport?.pushed == true)
        let repaired = "---\ntitle: Later\nupdatedAt: 2026-11-29T12:00:00Z\n---\nSee [[road-map#Goals]] and [p](road-map.md).\n"
        let written = try b.read("later.md")
        #expect(written == repaired)
        #expect(try b.git(["status", "--porcelain"]).isEmpty)
        try a.sync("2026-11-29T12:30:00Z")
        #expect(try a.read("later.md") == repaired)
        #expect(try a.files() == b.files())
    }

    /// Without link repair (an option of the workflow) the sync leaves the new link as written.
    @Test func withoutRepairTheLinkIsLeftAsWritten() throws {
        let (world, a, b) = try KitWorld.pair(["plan.md": kitNote("p1", title: "Plan", updated: "2026-11-29T10:00:00Z")])
        defer { world.remove() }
        try a.git(["mv", "plan.md", "road-map.md"])
        try a.write(try a.read("road-map.md").replacingOccurrences(of: "title: Plan", with: "title: Road map"), to: "road-map.md")
        try a.sync("2026-11-29T11:00:00Z")
        let later = "---\ntitle: Later\n---\nSee [[plan]].\n"
        try b.write(later, to: "later.md")
        var options = VaultSyncOptions(environment: b.environment("2026-11-29T12:00:00Z"))
        options.repairLinks = false
        options.waitForDaemon = 0
        let outcome = try VaultSync.runRepairingLinks(b.vault, options: options)
        #expect(outcome.repairs.changed.isEmpty && outcome.repairReport == nil)
        #expect(try b.read("later.md") == later)
        #expect(b.exists("road-map.md") && !b.exists("plan.md"))
    }
}
