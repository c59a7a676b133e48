import Foundation
import Testing

/// The resolver at the edges (issue 13 items 5, 6, 9, 11, 15; issue 21 concurrent appends),
/// played by two devices through a bare repository: each test fails on the resolver that
/// started from the winner's bytes, and asserts the exact files both devices end with.
@Suite struct SyncMergeEdgeTests {
    /// Item 6: a creation time corrected on one device survives a newer edit on the other.
    @Test func aOneSidedCreatedAtChangeIsKept() throws {
        let base = note("n1", title: "One", updated: "2026-11-29T10:00:00Z",
                        extra: "createdAt: 2026-11-01T00:00:00Z\nstatus: draft\n")
        let (a, b) = try SyncWorld().pair(["one.md": base])
        try a.write(base.replacingOccurrences(of: "11-01T", with: "11-15T").replacingOccurrences(of: "10:00", with: "11:00"),
                    to: "one.md")
        try b.write(base.replacingOccurrences(of: "draft", with: "done").replacingOccurrences(of: "10:00", with: "11:30"),
                    to: "one.md")
        try SyncMergeTests.syncABA(a, b)
        #expect(try a.read("one.md") == note("n1", title: "One", updated: "2026-11-29T11:30:00Z",
                                             extra: "createdAt: 2026-11-15T00:00:00Z\nstatus: done\n"))
        #expect(try SyncMergeTests.conflicts(a).isEmpty)
    }
}

extension SyncMergeEdgeTests {
    /// Item 11: both devices change one key on the same day (`updatedAt` a date without a
    /// time): the change committed later wins on both devices, not the larger blob id.
    @Test func aDayOnlyTieGoesToTheLaterCommit() throws {
        let base = "---\nid: n1\ntitle: One\nupdatedAt: 2026-11-28\nstatus: draft\n---\nBody.\n"
        for (fromA, fromB) in [("done", "review"), ("review", "done")] {
            let (a, b) = try SyncWorld().pair(["one.md": base])
            try a.write(base.replacingOccurrences(of: "11-28", with: "11-29").replacingOccurrences(of: "draft", with: fromA), to: "one.md")
            try b.write(base.replacingOccurrences(of: "11-28", with: "11-29").replacingOccurrences(of: "draft", with: fromB), to: "one.md")
            try SyncMergeTests.syncABA(a, b)
            #expect(try a.read("one.md") == base.replacingOccurrences(of: "11-28", with: "11-29")
                .replacingOccurrences(of: "draft", with: fromB))
            let records = try SyncMergeTests.conflicts(a)
            #expect(records.map { $0["winner"] as? String } == ["ours"])
            #expect((records.first?["reason"] as? String)?.contains("committed later") == true)
        }
    }
}

extension SyncMergeEdgeTests {
    /// Issue 13, item 11: the tie goes by when each side committed its change of that note, not
    /// by the sides' last commits. `a` changes the note at 12:00 and another note at 12:10; `b`
    /// changes the note at 12:05: `b`'s change is the later one although `a`'s head is newer.
    @Test func aDayOnlyTieGoesByWhenEachSideChangedThatNote() throws {
        let base = "---\nid: n1\ntitle: One\nupdatedAt: 2026-11-28\nstatus: draft\n---\nBody.\n"
        let other = "---\nid: n2\ntitle: Two\n---\nOther.\n"
        let (a, b) = try SyncWorld().pair(["one.md": base, "two.md": other])
        let changed = { (status: String) in
            base.replacingOccurrences(of: "11-28", with: "11-29").replacingOccurrences(of: "draft", with: status)
        }
        try a.write(changed("done"), to: "one.md")
        try a.sync(now: "2026-11-29T12:00:00Z")
        try a.write(other + "More.\n", to: "two.md")
        try a.sync(now: "2026-11-29T12:10:00Z")
        try b.write(changed("review"), to: "one.md")
        try b.sync(now: "2026-11-29T12:05:00Z")
        try a.sync(now: "2026-11-29T12:20:00Z")
        #expect(try a.read("one.md") == changed("review"))
        #expect(try b.read("one.md") == changed("review"))
        #expect(try a.read("two.md").contains("More."))
        let records = try SyncMergeTests.conflicts(b)
        #expect(records.map { $0["winner"] as? String } == ["ours"])
        #expect((records.first?["reason"] as? String)?.contains("committed later (2026-11-29T12:05:00Z)") == true,
                "\(records)")
    }

    /// Issue 21: two laptops each add an item at the end of one checklist; both items stay,
    /// the newer last, and no conflict is recorded.
    @Test func concurrentAppendsToAChecklistKeepBoth() throws {
        let base = note("n1", title: "List", updated: "2026-11-29T10:00:00Z", body: "- [ ] milk\n- [ ] eggs\n")
        let (a, b) = try SyncWorld().pair(["list.md": base])
        try a.write(note("n1", title: "List", updated: "2026-11-29T11:30:00Z", body: "- [ ] milk\n- [ ] eggs\n- [ ] bread\n"),
                    to: "list.md")
        try b.write(note("n1", title: "List", updated: "2026-11-29T11:00:00Z", body: "- [ ] milk\n- [ ] eggs\n- [ ] jam\n"),
                    to: "list.md")
        try SyncMergeTests.syncABA(a, b)
        #expect(try a.read("list.md") == note("n1", title: "List", updated: "2026-11-29T11:30:00Z",
                                              body: "- [ ] milk\n- [ ] eggs\n- [ ] jam\n- [ ] bread\n"))
        #expect(try SyncMergeTests.conflicts(b).isEmpty)
    }
}

extension SyncMergeEdgeTests {
    /// Item 5: the device whose `updatedAt` loses added a comment and a duplicate list item on
    /// lines the other did not touch; both survive on both devices.
    @Test func theOlderDevicesCommentsAndDuplicatesSurvive() throws {
        let base = note("n1", title: "One", updated: "2026-11-29T10:00:00Z", extra: "aliases:\n  - Uno\n  - Eins\nstatus: draft\n")
        let (a, b) = try SyncWorld().pair(["one.md": base])
        let fromA = base.replacingOccurrences(of: "  - Eins\n", with: "  - Eins\n  - Uno\n# asked twice\n")
            .replacingOccurrences(of: "status: draft", with: "status: draft # until Friday")
            .replacingOccurrences(of: "10:00", with: "11:00")
        try a.write(fromA, to: "one.md")
        try b.write(base.replacingOccurrences(of: "title: One", with: "title: Uno").replacingOccurrences(of: "10:00", with: "11:30"),
                    to: "one.md")
        try SyncMergeTests.syncABA(a, b)
        #expect(try a.read("one.md") == fromA.replacingOccurrences(of: "title: One", with: "title: Uno")
            .replacingOccurrences(of: "11:00", with: "11:30"))
        #expect(try SyncMergeTests.conflicts(a).isEmpty)
    }
}

extension SyncMergeEdgeTests {
    /// Item 9: device b checks out with CRLF line breaks (`core.autocrlf=true`, or an eol rule
    /// in `.git/info/attributes`). Its files are the same content as the LF blobs, as git says:
    /// an incoming edit is written (with CRLF, as git's checkout would), never kept as a
    /// spurious local edit that then wins a collision; b's own edit reaches a.
    @Test func crlfCheckoutsCompareThroughTheFilters() throws {
        let base = SyncMergeTests.base
        for setup in [["config", "core.autocrlf", "true"], ["info/attributes"]] {
            let (a, b) = try SyncWorld().pair(["one.md": base])
            if setup == ["info/attributes"] {
                try "*.md text eol=crlf\n".write(to: b.root.appendingPathComponent(".git/info/attributes"), atomically: true, encoding: .utf8)
            } else {
                try b.git(setup)
            }
            try b.remove("one.md")
            try b.git(["checkout", "--", "one.md"])
            #expect(try b.read("one.md") == base.replacingOccurrences(of: "\n", with: "\r\n"))

            let fromA = base.replacingOccurrences(of: "Para two.", with: "Para two, by A.").replacingOccurrences(of: "10:00", with: "11:00")
            try a.write(fromA, to: "one.md")
            try a.sync(now: "2026-11-29T12:00:00Z")
            let pulled = try b.sync(now: "2026-11-29T12:01:00Z")
            #expect(!pulled.stdout.contains("kept your edit"), "\(pulled.stdout)")
            #expect(try b.read("one.md") == fromA.replacingOccurrences(of: "\n", with: "\r\n"))
            #expect(try b.sync(now: "2026-11-29T12:02:00Z").stdout.contains("nothing to commit"))

            let fromB = fromA.replacingOccurrences(of: "Para three.", with: "Para three, by B.")
                .replacingOccurrences(of: "11:00", with: "11:30")
            try b.write(fromB.replacingOccurrences(of: "\n", with: "\r\n"), to: "one.md")
            try b.sync(now: "2026-11-29T12:03:00Z")
            try a.sync(now: "2026-11-29T12:04:00Z")
            #expect(try a.read("one.md") == fromB)
            #expect(try SyncMergeTests.conflicts(a).isEmpty)
        }
    }
}

extension SyncMergeEdgeTests {
    /// Item 15: a config key changed on both sides goes to the newer side; the other version is
    /// in the conflict store, printed by `quire conflicts show`, never a copy beside the file.
    @Test func aConfigCollisionKeepsTheOtherVersionInTheConflictStore() throws {
        let app = "{\n  \"theme\": \"light\"\n}\n"
        let (a, b) = try SyncWorld().pair(["one.md": SyncMergeTests.base, ".obsidian/app.json": app])
        try a.write(app.replacingOccurrences(of: "light", with: "dark"), to: ".obsidian/app.json")
        try b.write(app.replacingOccurrences(of: "light", with: "blue"), to: ".obsidian/app.json")
        try SyncMergeTests.syncABA(a, b)
        #expect(try a.read(".obsidian/app.json") == app.replacingOccurrences(of: "light", with: "blue"))
        #expect(try a.files().keys.filter { $0.hasPrefix(".obsidian/") } == [".obsidian/app.json"])
        let records = try SyncMergeTests.conflicts(a)
        #expect(records.map { $0["path"] as? String } == [".obsidian/app.json"])
        let id = try #require(records.first?["id"] as? String)
        #expect(try a.run(["conflicts", "show", id]).stdout == app.replacingOccurrences(of: "light", with: "dark"))
    }
}

extension SyncMergeEdgeTests {
    /// Item 9, an edit kept during a sync: on a CRLF checkout the kept edit is merged three ways
    /// with the incoming change as git sees both (through the filters), not as a whole-file
    /// collision that drops the incoming change.
    @Test func aKeptEditOnACRLFCheckoutMergesWithTheIncomingChange() throws {
        let base = SyncMergeTests.base
        let (a, b) = try SyncWorld().pair(["one.md": base])
        try b.git(["config", "core.autocrlf", "true"])
        try b.remove("one.md")
        try b.git(["checkout", "--", "one.md"])
        try a.write(base.replacingOccurrences(of: "Para one.", with: "Para one, by A.").replacingOccurrences(of: "10:00", with: "11:00"),
                    to: "one.md")
        try a.sync(now: "2026-11-29T11:10:00Z")
        let crashed = try b.run(["sync"], now: "2026-11-29T11:20:00Z", environment: ["QUIRE_FAULT": "before-checkout:kill"])
        try #require(crashed.code != 0)
        let fromB = base.replacingOccurrences(of: "Para three.", with: "Para three, by B.").replacingOccurrences(of: "10:00", with: "11:50")
        try b.write(fromB.replacingOccurrences(of: "\n", with: "\r\n"), to: "one.md")
        try b.sync(now: "2026-11-29T12:00:00Z")
        try b.sync(now: "2026-11-29T12:01:00Z")
        try a.sync(now: "2026-11-29T12:02:00Z")
        let merged = fromB.replacingOccurrences(of: "Para one.", with: "Para one, by A.")
        #expect(try a.read("one.md") == merged)
        #expect(try b.read("one.md") == merged.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(try SyncMergeTests.conflicts(a).isEmpty)
    }
}
