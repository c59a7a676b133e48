import Foundation
import Testing

/// Issue 13 (Also): adopting a vault that already was a git repository with history (an Obsidian
/// vault pushed with obsidian-git): the first `quire sync` keeps that history, creates no
/// `.gitignore.<device>` copy and duplicates no note — whether each device adopts its git clone,
/// or a device adopts a plain copy of the same files (two histories started apart).
@Suite struct AdoptionTests {
    static let notes = [
        "Notes/one.md": note("n1", title: "One", updated: "2026-11-01T10:00:00Z"),
        "Notes/two.md": "# Two\n\nNo front matter, as Obsidian writes it.\n",
        "three.md": note("n3", title: "Three", updated: "2026-11-02T10:00:00Z", body: "Three.\n"),
        "Attachments/pic.png": "not really a png\n",
        ".obsidian/app.json": "{\"legacyEditor\": false}\n",
    ]

    /// A bare remote holding `files` in two commits made with the git CLI.
    static func seeded(_ world: SyncWorld, files: [String: String]) throws {
        let seed = world.directory.appendingPathComponent("seed")
        try #require(try gitCLI(["init", "-q", "-b", "main", seed.path], in: world.directory).code == 0)
        for (path, text) in files { try Harness.write(text, to: seed.appendingPathComponent(path)) }
        try #require(try gitCLI(["add", "-A"], in: seed).code == 0)
        try #require(try gitCLI(["commit", "-qm", "vault backup: first"], in: seed).code == 0)
        try Harness.write("# Four\n", to: seed.appendingPathComponent("four.md"))
        try #require(try gitCLI(["add", "-A"], in: seed).code == 0)
        try #require(try gitCLI(["commit", "-qm", "vault backup: second"], in: seed).code == 0)
        try #require(try gitCLI(["push", "-q", world.bare.path, "main"], in: seed).code == 0)
    }

    static func adopt(_ name: String, in world: SyncWorld) throws -> Device {
        let device = Device(name: name, vault: TestVault(existing: world.folder(name)))
        let made = try device.run(["init"])
        try #require(made.code == 0, "\(made.stderr)")
        #expect(made.stdout.hasPrefix("Made the git repository . a quire vault") || made.stdout.hasPrefix("Initialized a quire vault"))
        return device
    }

    static func expectNoCopies(_ device: Device, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let files = try device.files().keys.sorted()
        let copies = files.filter { $0.hasPrefix(".gitignore.") || $0.hasPrefix(".gitattributes.") || $0.hasSuffix("-2.md") || $0.contains(".\(device.name).") }
        #expect(copies.isEmpty, "\(device.name): \(copies)", sourceLocation: sourceLocation)
        let notes = files.filter { $0.hasSuffix(".md") }
        #expect(notes == ["Notes/one.md", "Notes/two.md", "four.md", "three.md"], "\(device.name): \(notes)", sourceLocation: sourceLocation)
    }

    @Test func twoDevicesAdoptTheirClones() throws {
        let world = try SyncWorld()
        var files = Self.notes
        files[".gitignore"] = "*.secret\n"
        try Self.seeded(world, files: files)
        for name in ["a", "b"] {
            try #require(try gitCLI(["clone", "-q", world.bare.path, name], in: world.directory).code == 0)
        }
        let a = try Self.adopt("a", in: world), b = try Self.adopt("b", in: world)
        try a.sync(now: "2026-11-29T12:00:00Z")
        try b.sync(now: "2026-11-29T12:01:00Z")
        try a.sync(now: "2026-11-29T12:02:00Z")
        for device in [a, b] { try Self.expectNoCopies(device) }
        #expect(try a.files() == b.files())
        #expect(try a.read(".gitignore").hasPrefix("*.secret\n"))
        let log = try world.git(["log", "--format=%s", "main"]).stdout
        #expect(log.contains("vault backup: second\n") && log.contains("vault backup: first\n"), "the history is kept: \(log)")
    }

    /// A vault copied with its repository (a new disk, a backup restored, a folder synced another
    /// way): every file's stat data in the git index is out of date. Before the fix no sync wrote
    /// it back, so every sync compared every file's content again (about 4× the git CLI's time
    /// at the first sync of 6,500 notes, 2 s for each sync after); now the first one refreshes it,
    /// as `git status` does.
    @Test func aCopiedRepositoryHasItsIndexRefreshedByTheFirstSync() throws {
        let world = try SyncWorld()
        try Self.seeded(world, files: Self.notes)
        try #require(try gitCLI(["clone", "-q", world.bare.path, "original"], in: world.directory).code == 0)
        try FileManager.default.copyItem(at: world.folder("original"), to: world.folder("a"))
        let a = try Self.adopt("a", in: world)
        let stale = try a.git(["diff-files", "--name-only"]).stdout
        try #require(stale.contains("Notes/one.md"), "the copy's stat data is out of date: \(stale)")
        try a.sync(now: "2026-11-29T12:00:00Z")
        #expect(try a.git(["diff-files", "--name-only"]).stdout == "")
        try Self.expectNoCopies(a)
    }

    /// The second device holds the same notes without the repository (copied, or synced another
    /// way): its first sync merges two histories started apart, one note at one path kept once.
    @Test func aPlainCopyAdoptedBesideTheRepositoryDuplicatesNoNote() throws {
        let world = try SyncWorld()
        try Self.seeded(world, files: Self.notes)
        try #require(try gitCLI(["clone", "-q", world.bare.path, "a"], in: world.directory).code == 0)
        let a = try Self.adopt("a", in: world)
        try a.sync(now: "2026-11-29T12:00:00Z")
        var copy = Self.notes
        copy["four.md"] = "# Four\n"
        for (path, text) in copy { try Harness.write(text, to: world.folder("c").appendingPathComponent(path)) }
        let c = try Self.adopt("c", in: world)
        try #require(try c.run(["remote", "--replace", world.bare.path]).code == 0)
        let first = try c.sync(now: "2026-11-29T12:01:00Z")
        #expect(!first.stdout.contains("kept both"), "\(first.stdout)")
        try a.sync(now: "2026-11-29T12:02:00Z")
        for device in [a, c] { try Self.expectNoCopies(device) }
        #expect(try a.files() == c.files())
    }
}
