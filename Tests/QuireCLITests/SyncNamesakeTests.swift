import Foundation
import Testing

/// Two devices of one name (two laptops of one host name, no `device:` set) read alike in a
/// sync's report and in `quire conflicts`: "kept this device's version, dropped this device's
/// version". A sync that meets this device's name on a commit it did not make says so, and how
/// to name the device (`Namesake`, Docs/sync.md).
@Suite(.serialized) struct SyncNamesakeTests {
    static let warning = "warning: another device also syncs as \"laptop\""

    /// Devices `a` and `b` of one remote, both syncing as `laptop`.
    private func namesakes() throws -> (SyncWorld, Device, Device) {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["n.md": note("n", title: "N", updated: "2026-11-29T10:00:00Z")])
        let b = try world.clone("b")
        return (world, Device(name: "laptop", vault: a.vault), Device(name: "laptop", vault: b.vault))
    }

    @Test func aCommitOfAnotherDeviceOfThisNameIsWarnedAboutOnBothDevices() throws {
        let (_, a, b) = try namesakes()
        try b.write(note("m", title: "M", updated: "2026-11-29T11:00:00Z"), to: "m.md")
        try b.sync()
        let commit = try b.git(["rev-parse", "HEAD"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let synced = try a.sync()
        #expect(synced.stdout.contains(Self.warning + " (its commit \(commit.prefix(7)) of 2026-11-29 12:00 arrived): "
            + "the two read alike here and in 'quire conflicts'\n"
            + "  give this device a name of its own: 'device: NAME' in .quire/local/config.yml (or QUIRE_DEVICE=NAME)\n"),
            "\(synced.stdout)")
        // The other way too, and in the JSON report; a device named apart is not warned.
        try a.write(note("k", title: "K", updated: "2026-11-29T12:00:00Z"), to: "k.md")
        try a.sync()
        let mine = try a.git(["rev-parse", "HEAD"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let json = try b.run(["sync", "--json"])
        #expect(json.code == 0, "\(json.stderr)")
        #expect(json.stdout.contains("\"namesake\": {\n    \"device\": \"laptop\",\n    \"commit\": \"\(mine)\""), "\(json.stdout)")
        try a.write(note("j", title: "J", updated: "2026-11-29T12:30:00Z"), to: "j.md")
        try a.sync()
        let named = Device(name: "desk", vault: b.vault)
        let quiet = try named.sync()
        #expect(!quiet.stdout.contains("also syncs as"), "\(quiet.stdout)")
        #expect(named.exists("j.md"))
    }

    @Test func itsOwnCommitsComingBackAfterAResetAreNotAnotherDevice() throws {
        let (_, a, b) = try namesakes()
        try a.write(note("m", title: "M", updated: "2026-11-29T11:00:00Z"), to: "m.md")
        try a.sync()
        // The user takes the pushed commit out of the local branch with git; the sync brings it back.
        try #require(try a.git(["reset", "-q", "--hard", "HEAD~1"]).code == 0)
        let back = try a.sync()
        #expect(a.exists("m.md"))
        #expect(!back.stdout.contains("also syncs as"), "\(back.stdout)")
        // Nor is a plain git commit whose author has the device's name (a person, not a device).
        try b.sync()
        try b.write(note("p", title: "P", updated: "2026-11-29T11:30:00Z"), to: "p.md")
        #expect(try b.git(["add", "p.md"]).code == 0)
        #expect(try b.git(["-c", "user.name=laptop", "commit", "-q", "-m", "p"]).code == 0)
        #expect(try b.git(["push", "-q", "origin", "main"]).code == 0)
        let plain = try a.sync()
        #expect(a.exists("p.md"))
        #expect(!plain.stdout.contains("also syncs as"), "\(plain.stdout)")
    }

    @Test func theSyncDaemonSaysItInItsLog() throws {
        let (_, a, b) = try namesakes()
        let daemon = try DaemonProcess(a)
        defer { daemon.stop() }
        try b.write(note("m", title: "M", updated: "2026-11-29T11:00:00Z"), to: "m.md")
        try b.sync()
        try waitUntil("the daemon pulled m.md") { a.exists("m.md") && daemon.log.contains("also syncs as") }
        #expect(daemon.log.contains("warning: another device also syncs as \"laptop\""), "\(daemon.log)")
        #expect(daemon.log.contains("'device: NAME' in .quire/local/config.yml"), "\(daemon.log)")
    }

    @Test func theConflictListSaysWhenBothSidesHaveOneName() throws {
        let (_, a, b) = try namesakes()
        try b.write(note("n", title: "N", updated: "2026-11-29T11:00:00Z", body: "From b.\n"), to: "n.md")
        try b.sync(now: "2026-11-29T11:00:00Z")
        try a.write(note("n", title: "N", updated: "2026-11-29T11:30:00Z", body: "From a.\n"), to: "n.md")
        try a.sync(now: "2026-11-29T11:30:00Z")
        let listed = try a.run(["conflicts"])
        #expect(listed.code == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("kept this device's version, dropped this device's version"), "\(listed.stdout)")
        #expect(listed.stdout.hasSuffix("note: some of these merge the versions of two devices that both sync as \"laptop\", "
            + "so both sides read alike; give each device a name of its own: 'device: NAME' in .quire/local/config.yml\n"),
            "\(listed.stdout)")
        // Devices named apart: the same collision lists no such note.
        let (c, d) = try SyncWorld().pair(["n.md": note("n", title: "N", updated: "2026-11-29T10:00:00Z")])
        try c.write(note("n", title: "N", updated: "2026-11-29T12:00:00Z", body: "From c.\n"), to: "n.md")
        try c.sync(now: "2026-11-29T12:00:00Z")
        try d.write(note("n", title: "N", updated: "2026-11-29T12:30:00Z", body: "From d.\n"), to: "n.md")
        try d.sync(now: "2026-11-29T12:30:00Z")
        let apart = try d.run(["conflicts"])
        #expect(apart.stdout.contains("dropped a's version"), "\(apart.stdout)")
        #expect(!apart.stdout.contains("note: some of these"), "\(apart.stdout)")
    }
}
