import Foundation
import Testing

/// Symbolic links in a synced vault (issue 13, item 1): quire never writes through a link, a
/// link turned into a file (or back) is a change like any edit, and a link leading outside the
/// vault is never followed — not read, not stamped.
@Suite(.serialized) struct SyncSymlinkTests {
    static func isLink(_ device: Device, _ path: String) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: device.vault.url(path).path)) != nil
    }

    static func link(_ device: Device, _ path: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: device.vault.url(path).path, withDestinationPath: target)
    }

    @Test func aLinkReplacedByANoteIsReplacedNeverWrittenThrough() throws {
        let world = try SyncWorld()
        let outside = world.directory.appendingPathComponent("outside.md")
        let outsideText = note("out", title: "Outside", updated: "2026-11-29T09:00:00Z")
        try Harness.write(outsideText, to: outside)
        let target = note("target", title: "Target", updated: "2026-11-29T10:00:00Z")
        let a = try world.first("a", notes: ["target.md": target])
        try Self.link(a, "alias.md", to: "target.md")
        try Self.link(a, "external.md", to: outside.path)
        try a.sync()
        let b = try world.clone("b")
        #expect(Self.isLink(b, "alias.md") && Self.isLink(b, "external.md"))
        // a turns both links into notes of their own.
        try a.remove("alias.md")
        try a.remove("external.md")
        try a.write(note("alias", title: "Alias", updated: "2026-11-29T11:00:00Z"), to: "alias.md")
        try a.write(note("ext", title: "Now a note", updated: "2026-11-29T11:00:00Z"), to: "external.md")
        try a.sync()
        let synced = try b.sync()
        #expect(!Self.isLink(b, "alias.md") && !Self.isLink(b, "external.md"), "\(synced.stdout)")
        #expect(try b.read("alias.md").contains("Alias") && b.read("external.md").contains("Now a note"))
        #expect(try b.read("target.md") == target)
        #expect(try Harness.read(outside) == outsideText)
        // No stale link goes back over the notes: both devices converge on them.
        try b.sync()
        try a.sync()
        #expect(try a.files() == b.files())
        #expect(try world.git(["ls-tree", "main", "alias.md", "external.md"]).stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("100644 ") })
        #expect(try world.git(["show", "main:target.md"]).stdout == target)
    }

    @Test func aNoteReplacedByALinkIsALinkOnTheOtherDevice() throws {
        let world = try SyncWorld()
        let target = note("target", title: "Target", updated: "2026-11-29T10:00:00Z")
        let (a, b) = try world.pair(["target.md": target, "old.md": note("old", title: "Old", updated: "2026-11-29T10:00:00Z")])
        try a.remove("old.md")
        try Self.link(a, "old.md", to: "target.md")
        try a.sync()
        try b.sync()
        #expect(Self.isLink(b, "old.md"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: b.vault.url("old.md").path) == "target.md")
        #expect(try b.read("target.md") == target)
        try b.sync()
        #expect(try world.git(["show", "main:target.md"]).stdout == target)
    }

    @Test func aLinkOutsideTheVaultIsNeverReadOrStamped() throws {
        let world = try SyncWorld()
        let first = world.directory.appendingPathComponent("first.md"), second = world.directory.appendingPathComponent("second.md")
        let firstText = note("one", title: "One", updated: "2026-11-29T09:00:00Z")
        let secondText = note("two", title: "Two", updated: "2026-11-29T09:00:00Z", body: "Secret body.\n")
        try Harness.write(firstText, to: first)
        try Harness.write(secondText, to: second)
        let (a, b) = try world.pair(["ok.md": note("ok", title: "OK", updated: "2026-11-29T10:00:00Z")])
        try Self.link(a, "external.md", to: first.path)
        try a.sync()
        // Pointed elsewhere: a change of the link, committed as a link.
        try a.remove("external.md")
        try Self.link(a, "external.md", to: second.path)
        let synced = try a.sync()
        #expect(!synced.stdout.contains("stamped"), "\(synced.stdout)")
        #expect(try Harness.read(first) == firstText && Harness.read(second) == secondText)
        #expect(try world.git(["show", "main:external.md"]).stdout == second.path)
        try b.sync()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: b.vault.url("external.md").path) == second.path)
        #expect(!(try world.git(["log", "-p", "main"]).stdout.contains("Secret body.")))
    }

    @Test func aLinkChangedOnOneSideAndMadeANoteOnTheOtherKeepsBoth() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["target.md": note("target", title: "Target", updated: "2026-11-29T10:00:00Z"),
                                             "other.md": note("other", title: "Other", updated: "2026-11-29T10:00:00Z")])
        try Self.link(a, "alias.md", to: "target.md")
        try a.sync()
        let b = try world.clone("b")
        try a.remove("alias.md")
        try Self.link(a, "alias.md", to: "other.md")
        try a.sync()
        try b.remove("alias.md")
        let alias = note("alias", title: "Alias", updated: "2026-11-29T11:00:00Z")
        try b.write(alias, to: "alias.md")
        try b.sync()
        try a.sync()
        for device in [a, b] {
            let text = try device.read("alias.md")
            #expect(!Self.isLink(device, "alias.md") && text == alias, "\(device.name)")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: device.vault.url("alias.a.md").path) == "other.md")
        }
        #expect(try a.files() == b.files())
    }

    @Test func aFolderThatIsALinkHereIsNeitherWrittenThroughNorCommittedOverTheFolder() throws {
        let world = try SyncWorld()
        let one = note("one", title: "One", updated: "2026-11-29T10:00:00Z")
        let (a, b) = try world.pair(["Archive/old.md": note("old", title: "Old", updated: "2026-11-29T10:00:00Z"),
                                     "Inbox/one.md": one])
        // b replaces its folder Inbox by a link to Archive; a adds a note to the folder.
        try b.remove("Inbox")
        try Self.link(b, "Inbox", to: "Archive")
        let incoming = note("new", title: "New", updated: "2026-11-29T11:00:00Z")
        try a.write(incoming, to: "Inbox/new.md")
        try a.sync()
        for round in 1...2 {
            let synced = try b.sync()
            #expect(synced.stdout.contains("warning: skipped Inbox/new.md: its folder Inbox is a symbolic link"), "round \(round): \(synced.stdout)")
            #expect(!b.exists("Archive/new.md") && Self.isLink(b, "Inbox"))
        }
        let tree = try world.git(["ls-tree", "-r", "main"]).stdout
        #expect(tree.contains("\tInbox/new.md") && tree.contains("\tInbox/one.md") && !tree.contains("120000"), "\(tree)")
        try a.sync()
        #expect(try a.read("Inbox/new.md") == incoming && a.read("Inbox/one.md") == one)
    }
}
