import Foundation
import QuireSync
import Testing

private typealias F = MergeFixture

/// The resolver at the edges of issue 13 and 21: one-sided changes kept whichever side is newer,
/// ties of date-only times, concurrent insertions at one spot.
@Suite struct MergeEdgeTests {
    /// Issue 13 item 6: a creation time changed on one side only is that side's change, kept
    /// even when the other side is newer and holds an earlier time.
    @Test func aOneSidedCreatedTimeIsKept() throws {
        for key in ["createdAt", "created", "date"] {
            let base = "---\n\(key): 2025-12-05T00:00:00Z\nupdatedAt: 2026-01-01T10:00:00Z\ncolor: blue\n---\nBody\n"
            let ours = "---\n\(key): 2025-12-20T00:00:00Z\nupdatedAt: 2026-01-01T11:00:00Z\ncolor: blue\n---\nBody\n"
            let theirs = "---\n\(key): 2025-12-05T00:00:00Z\nupdatedAt: 2026-01-01T12:00:00Z\ncolor: red\n---\nBody\n"
            let expected = "---\n\(key): 2025-12-20T00:00:00Z\nupdatedAt: 2026-01-01T12:00:00Z\ncolor: red\n---\nBody\n"
            let result = try F.merge(base, F.side(ours), F.side(theirs))
            #expect(F.text(result.merged) == expected)
            #expect(result.decisions.isEmpty)
            #expect(try F.merge(base, F.side(theirs), F.side(ours)).merged == result.merged)
        }
    }
}

extension MergeEdgeTests {
    /// Issue 13 item 11: both sides name the same day without a time; the side committed later
    /// wins, whatever the blob ids say (they decide only when the commit times are equal too).
    @Test func aDayOnlyTieIsBrokenByTheCommitTime() throws {
        let base = "---\nupdatedAt: 2026-11-30\ncolor: blue\n---\nBody\n"
        for (first, second) in [("red", "green"), ("green", "red")] {
            let early = "---\nupdatedAt: 2026-12-01\ncolor: \(first)\n---\nBody\n"
            let late = "---\nupdatedAt: 2026-12-01\ncolor: \(second)\n---\nBody\n"
            let result = try F.merge(base, F.side(early, at: "2026-12-01T09:00:00Z"), F.side(late, at: "2026-12-01T17:00:00Z"))
            #expect(F.text(result.merged) == late)
            #expect(result.decisions == [MergeDecision(
                path: "woody.md", winner: .theirs,
                reason: "both sides changed front-matter key 'color'; updatedAt is the same day (2026-12-01T00:00:00Z); "
                    + "the remote's version was committed later (2026-12-01T17:00:00Z)")])
            let swapped = try F.merge(base, F.side(late, at: "2026-12-01T17:00:00Z"), F.side(early, at: "2026-12-01T09:00:00Z"))
            #expect(swapped.merged == result.merged)
        }
        // Equal commit times: the larger blob id, as before.
        let (red, green) = ("---\nupdatedAt: 2026-12-01\ncolor: red\n---\nBody\n", "---\nupdatedAt: 2026-12-01\ncolor: green\n---\nBody\n")
        let larger = MergeResolver.blobID(Data(red.utf8)) > MergeResolver.blobID(Data(green.utf8)) ? red : green
        #expect(F.text(try F.merge(base, F.side(red), F.side(green)).merged) == larger)
    }
}

extension MergeEdgeTests {
    /// Issue 21: two sides append an item at the end of one checklist — both are kept, the
    /// newer last; in a note without front matter too. An insertion beside a deletion elsewhere
    /// is no collision either: the deletion and every insertion are kept.
    @Test func concurrentInsertionsAtOneSpotKeepBoth() throws {
        let base = "---\ntitle: List\nupdatedAt: 2026-01-01T10:00:00Z\n---\n- [ ] milk\n- [ ] eggs\n"
        let ours = "---\ntitle: List\nupdatedAt: 2026-01-01T11:00:00Z\n---\n- [ ] milk\n- [ ] eggs\n- [ ] bread\n"
        let theirs = "---\ntitle: List\nupdatedAt: 2026-01-01T12:00:00Z\n---\n- [ ] milk\n- [ ] eggs\n- [ ] jam\n- [ ] tea\n"
        let result = try F.merge(base, F.side(ours), F.side(theirs))
        #expect(F.text(result.merged)
            == "---\ntitle: List\nupdatedAt: 2026-01-01T12:00:00Z\n---\n- [ ] milk\n- [ ] eggs\n- [ ] bread\n- [ ] jam\n- [ ] tea\n")
        #expect(result.decisions.isEmpty)
        #expect(try F.merge(base, F.side(theirs), F.side(ours)).merged == result.merged)

        let plain = try F.merge("a\nb\n", F.side("a\nx\nb\n", at: "2026-01-02T00:00:00Z"), F.side("a\ny\nb\n"))
        #expect(F.text(plain.merged) == "a\ny\nx\nb\n")
        #expect(plain.decisions.isEmpty)

        let deleting = ours.replacingOccurrences(of: "- [ ] milk\n", with: "")
        let collision = try F.merge(base, F.side(deleting), F.side(theirs))
        #expect(F.text(collision.merged).hasSuffix("---\n- [ ] eggs\n- [ ] bread\n- [ ] jam\n- [ ] tea\n"))
        #expect(collision.decisions.isEmpty)
    }
}

extension MergeEdgeTests {
    /// Issue 13 item 5: the older side's comments and duplicate list items, on lines the newer
    /// side did not touch, are kept byte for byte; the merge works from the base.
    @Test func theOlderSidesUntouchedLinesKeepTheirComments() throws {
        let base = """
            ---
            title: Woody
            aliases:
              - Sheriff
              - Cowboy
            color: blue
            updatedAt: 2026-01-01T10:00:00Z
            ---
            Body

            """
        let older = """
            ---
            title: Woody
            # the names kids use
            aliases:
              - Sheriff
              - Cowboy
              - Sheriff   # twice, on purpose
            color: blue # the hat
            updatedAt: 2026-01-01T11:00:00Z
            ---
            Body

            """
        let newer = base.replacingOccurrences(of: "title: Woody", with: "title: Woody Pride")
            .replacingOccurrences(of: "10:00:00Z", with: "12:00:00Z")
        let expected = older.replacingOccurrences(of: "title: Woody", with: "title: Woody Pride")
            .replacingOccurrences(of: "11:00:00Z", with: "12:00:00Z")
        let result = try F.merge(base, F.side(older), F.side(newer))
        #expect(F.text(result.merged) == expected)
        #expect(result.decisions.isEmpty)
        #expect(try F.merge(base, F.side(newer), F.side(older)).merged == result.merged)
    }
}

extension MergeEdgeTests {
    /// Issue 13 item 5: comment lines changed differently on both sides keep the newer side's,
    /// and the older side's dropped comment is recorded like any collision.
    @Test func commentLinesChangedOnBothSidesAreADecision() throws {
        let base = "---\ntitle: Woody\n# owner: Andy\ncolor: blue\nupdatedAt: 2026-01-01T10:00:00Z\n---\nBody\n"
        let older = base.replacingOccurrences(of: "Andy", with: "Bonnie").replacingOccurrences(of: "10:00", with: "11:00")
        let newer = base.replacingOccurrences(of: "Andy", with: "Molly").replacingOccurrences(of: "10:00", with: "12:00")
        let result = try F.merge(base, F.side(older), F.side(newer))
        #expect(F.text(result.merged) == newer)
        #expect(result.decisions == [MergeDecision(
            path: "woody.md", winner: .theirs,
            reason: "both sides changed the comment lines after 'title' in the front matter; the remote's version is newer (updatedAt 2026-01-01T12:00:00Z)")])
    }
}
