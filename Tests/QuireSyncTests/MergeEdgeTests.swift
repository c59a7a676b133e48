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
