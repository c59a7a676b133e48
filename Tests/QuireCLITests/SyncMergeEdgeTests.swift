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
