import Foundation
import Testing

/// A rename on one device and a link to the old name written on another converge: the sync that
/// brings the rename repairs the new link and commits the repair (Docs/sync.md), through a real
/// bare remote.
@Suite struct RenameConvergenceTests {
    @Test func aLinkToTheOldNameWrittenElsewhereFollowsTheRename() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair([
            "plan.md": note("11110000-0000-4000-8000-000000000001", title: "Plan", updated: "2026-11-29T10:00:00Z"),
            "index.md": note("11110000-0000-4000-8000-000000000002", title: "Index", updated: "2026-11-29T10:00:00Z",
                             body: "Start at [[plan|the plan]].\n"),
        ])
        let renamed = try a.run(["rename", "plan.md", "Road map"], now: "2026-11-29T11:00:00Z")
        try #require(renamed.code == 0, "\(renamed.stderr)")
        #expect(try a.read("index.md").contains("Start at [[road-map|the plan]]."))
        try a.sync(now: "2026-11-29T11:00:00Z")

        // Meanwhile b, not yet synced, links to the old name in a new note and in an old one.
        let later = "---\ntitle: Later\nupdatedAt: 2026-11-29T11:30:00Z\n---\nSee [[plan#Goals]] and [p](plan.md).\n"
        try b.write(later, to: "later.md")
        let synced = try b.sync(now: "2026-11-29T12:00:00Z")
        #expect(synced.stdout.contains("repaired later.md:5: [[plan#Goals]] → [[road-map#Goals]]"), "\(synced.stdout)")
        #expect(synced.stdout.contains("committed and pushed the repaired links"), "\(synced.stdout)")
        let repaired = "---\ntitle: Later\nupdatedAt: 2026-11-29T12:00:00Z\n---\nSee [[road-map#Goals]] and [p](road-map.md).\n"
        #expect(try b.read("later.md") == repaired)
        #expect(try b.git(["status", "--porcelain"]).stdout.isEmpty)

        try a.sync(now: "2026-11-29T12:30:00Z")
        #expect(try a.read("later.md") == repaired)
        #expect(try a.files() == b.files())
        #expect(try a.run(["check", "--fix", "--dry-run"]).stdout.contains("would fix") == false)
    }

    @Test func checkFixRepairsALinkBrokenByARenameMadeOutsideQuire() throws {
        let vault = try TestVault()
        try vault.write(note("11110000-0000-4000-8000-000000000001", title: "Alpha", updated: "2026-11-29T10:00:00Z"), to: "alpha.md")
        let linking = "no front matter: [[alpha.md|A]] and [x](<alpha.md> \"t\") and [[nowhere]]\n"
        try vault.write(linking, to: "b.md")
        try vault.commitAll()
        try #require(try vault.git(["mv", "alpha.md", "Omega note.md"]) == 0)
        try vault.commitAll()
        let dry = try vault.run(["check", "--fix", "--dry-run"], environment: ["QUIRE_NOW": "2026-12-01T10:00:00Z"])
        #expect(dry.stdout.contains("would fix b.md:1: [[alpha.md|A]] → [[Omega note.md|A]]"), "\(dry.stdout)")
        #expect(dry.stdout.contains("would fix b.md:1: [x](<alpha.md> \"t\") → [x](<Omega note.md> \"t\")"), "\(dry.stdout)")
        #expect(dry.stdout.contains("b.md:1: broken link [[nowhere]]"), "\(dry.stdout)")
        #expect(dry.stdout.contains("broken link [[alpha.md|A]]"), "\(dry.stdout)")
        #expect(dry.code == 1)
        #expect(try vault.read("b.md") == linking)
        let fixed = try vault.run(["check", "--fix"], environment: ["QUIRE_NOW": "2026-12-01T10:00:00Z"])
        #expect(fixed.stdout.contains("fixed b.md:1: [[alpha.md|A]] → [[Omega note.md|A]]"))
        #expect(try vault.read("b.md") == "no front matter: [[Omega note.md|A]] and [x](<Omega note.md> \"t\") and [[nowhere]]\n")
        #expect(!fixed.stdout.contains("broken link [[Omega"), "\(fixed.stdout)")
        #expect(fixed.stdout.contains("broken link [[nowhere]]"), "\(fixed.stdout)")
    }
}
