import Foundation
import QuireCore
import QuireKit
import QuireSearch
import QuireSync
import Testing

/// Ignore rules between two devices, in process: what `.gitignore` hides is never committed
/// nor sent, a rule one device adds travels and hides the same notes on the other, rules changed
/// on both sides merge line by line, and the catalog the sync refreshes agrees with git.
@Suite struct SyncIgnoreScenarioTests {
    static func note(_ title: String) -> String { kitNote(title.lowercased(), title: title, updated: "2026-11-29T10:00:00Z") }

    /// The notes a fresh catalog lists on `device` (the rules read with its environment).
    static func catalogued(_ device: KitDevice) throws -> [String] {
        let fresh = try FreshCatalog.open(vault: device.vault, rules: GitIgnoreRules.of(device.vault, environment: device.kit.environment),
                                          environment: device.kit.environment)
        return fresh.store.catalog.records.map(\.path).sorted()
    }

    @Test func anIgnoredNoteIsNeverCommittedNorSent() throws {
        let (world, a, b) = try KitWorld.pair(["kept.md": Self.note("Kept")])
        defer { world.remove() }
        try a.write(try a.read(".gitignore") + "private/\n*.tmp.md\n", to: ".gitignore")
        try a.write(Self.note("Secret"), to: "private/secret.md")
        try a.write(Self.note("Scratch"), to: "scratch.tmp.md")
        try a.write(Self.note("Shown"), to: "shown.md")
        let report = try a.sync("2026-11-29T12:00:00Z").report
        #expect(report.committed.contains { $0.contains("shown.md") }, "\(report.committed)")
        #expect(!report.committed.contains { $0.contains("secret.md") || $0.contains("scratch.tmp.md") }, "\(report.committed)")
        #expect(try world.remoteFile("private/secret.md") == nil && world.remoteFile("scratch.tmp.md") == nil)
        try b.sync("2026-11-29T12:01:00Z")
        #expect(b.exists("shown.md") && !b.exists("private/secret.md") && !b.exists("scratch.tmp.md"))
        #expect(try Self.catalogued(a) == ["kept.md", "shown.md"])
        #expect(try a.git(["status", "--porcelain"]).isEmpty)
    }

    /// A rule added on one device travels: the other device's own notes under it stop syncing
    /// and leave its catalog, but stay on its disk.
    @Test func aRuleFromTheOtherDeviceHidesTheSameNotesHere() throws {
        let (world, a, b) = try KitWorld.pair(["kept.md": Self.note("Kept")])
        defer { world.remove() }
        try a.write(try a.read(".gitignore") + "Journal/\n", to: ".gitignore")
        try a.sync("2026-11-29T12:00:00Z")
        try b.sync("2026-11-29T12:01:00Z")
        #expect(try b.read(".gitignore").hasSuffix("Journal/\n"))
        try b.write(Self.note("Local"), to: "Journal/local.md")
        let report = try b.sync("2026-11-29T12:02:00Z").report
        #expect(report.committed.isEmpty, "\(report.committed)")
        #expect(b.exists("Journal/local.md"), "left on disk")
        #expect(try world.remoteFile("Journal/local.md") == nil)
        #expect(try Self.catalogued(b) == ["kept.md"])
    }

    /// `.gitignore` changed on both sides is merged in place as an ordered set of lines: both
    /// sides' rules apply, no copy of the file is made and nothing is recorded as lost.
    @Test func rulesChangedOnBothSidesMergeLineByLine() throws {
        let (world, a, b) = try KitWorld.pair(["kept.md": Self.note("Kept")])
        defer { world.remove() }
        let rules = try a.read(".gitignore")
        try a.write(rules + "drafts/\n", to: ".gitignore")
        try b.write(rules + "*.bak.md\n", to: ".gitignore")
        try a.write(Self.note("Draft"), to: "drafts/d.md")
        try b.write(Self.note("Backup"), to: "x.bak.md")
        try a.sync("2026-11-29T12:00:00Z")
        try b.sync("2026-11-29T12:01:00Z")
        try a.sync("2026-11-29T12:02:00Z")
        #expect(try a.headTree() == b.headTree())
        #expect(try a.read(".gitignore") == b.read(".gitignore"))
        let merged = try a.read(".gitignore")
        #expect(merged.hasPrefix(rules) && merged.contains("drafts/\n") && merged.contains("*.bak.md\n"), "\(merged)")
        #expect(try a.files().keys.filter { $0.hasPrefix(".gitignore") } == [".gitignore"])
        #expect(try a.conflicts().isEmpty)
        #expect(try world.remoteFile("drafts/d.md") == nil && world.remoteFile("x.bak.md") == nil)
        #expect(try Self.catalogued(a) == ["kept.md"] && Self.catalogued(b) == ["kept.md"])
    }

    /// A note committed before a rule hid its folder stays tracked (git never ignores a tracked
    /// file): its edits still travel, and the catalog still lists it.
    @Test func aTrackedNoteUnderANewRuleKeepsSyncing() throws {
        let (world, a, b) = try KitWorld.pair(["Archive/old.md": Self.note("Old")])
        defer { world.remove() }
        try a.write(try a.read(".gitignore") + "Archive/\n", to: ".gitignore")
        try a.write(Self.note("Old").replacingOccurrences(of: "Body.", with: "Body, edited."), to: "Archive/old.md")
        try a.write(Self.note("New"), to: "Archive/new.md")
        try a.sync("2026-11-29T12:00:00Z")
        try b.sync("2026-11-29T12:01:00Z")
        #expect(try b.read("Archive/old.md").hasSuffix("Body, edited.\n"))
        #expect(!b.exists("Archive/new.md"), "an untracked note under the rule stays home")
        #expect(try Self.catalogued(a) == ["Archive/old.md"])
    }

    /// A `.quireignore`-free vault with a nested `.gitignore`: the rule applies below its folder
    /// only, on both devices.
    @Test func aNestedRuleAppliesOnlyBelowItsFolder() throws {
        let (world, a, b) = try KitWorld.pair(["kept.md": Self.note("Kept")])
        defer { world.remove() }
        try a.write("secret.md\n", to: "Team/.gitignore")
        try a.write(Self.note("Secret"), to: "Team/secret.md")
        try a.write(Self.note("Secret too"), to: "secret.md")
        try a.write(Self.note("Roadmap"), to: "Team/roadmap.md")
        try a.sync("2026-11-29T12:00:00Z")
        try b.sync("2026-11-29T12:01:00Z")
        #expect(b.exists("secret.md") && b.exists("Team/roadmap.md") && !b.exists("Team/secret.md"))
        #expect(try Self.catalogued(b) == ["Team/roadmap.md", "kept.md", "secret.md"])
    }
}
