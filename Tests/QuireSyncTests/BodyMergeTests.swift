import Foundation
import Testing
@testable import QuireSync

/// The body merge (Docs/sync.md, "The body"): hunk by hunk, adjacent edits kept, a collision
/// merged word by word, only the words both changed going to the newer side.
@Suite struct BodyMergeTests {
    private func merge(_ base: String, older: String, newer: String) throws -> (text: String, collisions: [BodyMerge.Collision]) {
        let result = try BodyMerge.merge(base: Data(base.utf8), older: Data(older.utf8), newer: Data(newer.utf8))
        return (String(decoding: result.merged, as: UTF8.self), result.collisions)
    }

    @Test func editsOfAdjacentLinesAreBothKept() throws {
        let base = "one\ntwo\nthree\nfour\n"
        let result = try merge(base, older: "one\nTWO\nthree\nfour\n", newer: "one\ntwo\nTHREE\nfour\n")
        #expect(result.text == "one\nTWO\nTHREE\nfour\n")
        #expect(result.collisions.isEmpty)
    }

    @Test func anInsertionNextToTheOtherSidesEditIsKept() throws {
        let base = "a\nb\nc\n"
        let before = try merge(base, older: "a\nnew\nb\nc\n", newer: "a\nB\nc\n")
        #expect(before.text == "a\nnew\nB\nc\n")
        let after = try merge(base, older: "a\nB\nc\n", newer: "a\nb\nnew\nc\n")
        #expect(after.text == "a\nB\nnew\nc\n")
        #expect(before.collisions.isEmpty && after.collisions.isEmpty)
    }

    @Test func differentWordsOfOneLineAreBothKept() throws {
        let base = "The meeting is on Monday with Chen.\n"
        let result = try merge(base, older: "The meeting is on Tuesday with Chen.\n",
                               newer: "The meeting is on Monday with Chen and Ana.\n")
        #expect(result.text == "The meeting is on Tuesday with Chen and Ana.\n")
        #expect(result.collisions.isEmpty)
    }

    @Test func onlyTheCollidingWordsGoToTheNewerSide() throws {
        let base = "alpha BETA gamma delta THETA\n"
        let result = try merge(base, older: "alpha BETA-A gamma delta THETA-A\n", newer: "alpha BETA-B gamma delta THETA\n")
        #expect(result.text == "alpha BETA-B gamma delta THETA-A\n")
        #expect(result.collisions == [BodyMerge.Collision(line: 1, lost: "BETA-A", kept: "BETA-B")])
    }

    @Test func aCollisionCostsOnlyItsRegionNotTheOtherEdits() throws {
        let base = "# Minutes\n\nAttendees: Chen\n\nAgenda\n\nDecisions:\n"
        let older = "# Minutes\n\nAttendees: Chen (chair)\n\nAgenda\n\nDecisions:\n- ship on Friday\n"
        let newer = "# Minutes\n\nAttendees: Chen (joins late)\n\nAgenda, revised\n\nDecisions:\n"
        let result = try merge(base, older: older, newer: newer)
        #expect(result.text == "# Minutes\n\nAttendees: Chen (joins late)\n\nAgenda, revised\n\nDecisions:\n- ship on Friday\n")
        #expect(result.collisions.count == 1)
        #expect(result.collisions.first?.line == 3)
        #expect(result.collisions.first?.lost.contains("chair") == true)
    }

    @Test func insertionsAtOnePlaceAreBothKeptOlderFirst() throws {
        let base = "- [ ] milk\n"
        let result = try merge(base, older: "- [ ] milk\n- [ ] eggs\n", newer: "- [ ] milk\n- [ ] bread\n")
        #expect(result.text == "- [ ] milk\n- [ ] eggs\n- [ ] bread\n")
        let contained = try merge(base, older: "- [ ] milk\n- [ ] eggs\n", newer: "- [ ] milk\n- [ ] eggs\n- [ ] bread\n")
        #expect(contained.text == "- [ ] milk\n- [ ] eggs\n- [ ] bread\n")
    }

    @Test func linesAppendedToATextWithoutAFinalLineBreakAreBothKept() throws {
        let result = try merge("intro", older: "intro\nfrom laptop", newer: "intro\nfrom phone")
        #expect(result.text == "intro\nfrom laptop\nfrom phone")
        #expect(result.collisions.isEmpty)
    }

    @Test func cjkTextMergesByCharacter() throws {
        let result = try merge("会议在星期一举行。\n", older: "会议在星期二举行。\n", newer: "会议在星期一举行吧。\n")
        #expect(result.text == "会议在星期二举行吧。\n")
        // Neighbouring characters are one edit, as neighbouring words are: the newer kept.
        let near = try merge("会议在星期一举行。\n", older: "会议在星期二举行。\n", newer: "会议在星期一下午举行。\n")
        #expect(near.text == "会议在星期一下午举行。\n")
    }

    @Test func aMergeThatWouldRepeatAPassageIsRefused() throws {
        // One side moved a sentence to the end, the other edited it in place: a word merge
        // would hold it twice; the region goes to the newer side instead, and the loss is listed.
        let sentence = "The quick brown fox jumps over the lazy dog."
        let base = "Start. \(sentence) End.\n"
        let older = "Start. End. \(sentence)\n"
        let newer = "Start. The quick brown fox leaps over the lazy dog. End.\n"
        let result = try merge(base, older: older, newer: newer)
        #expect(!DuplicateRuns.found(in: Array(result.text.utf8), sides: [Array(older.utf8), Array(newer.utf8)]))
        #expect(result.text.components(separatedBy: "lazy dog").count == 2)
    }

    @Test func identicalChangesAreTakenOnce() throws {
        let result = try merge("a\nb\n", older: "a\nB\nc\n", newer: "a\nB\nc\n")
        #expect(result.text == "a\nB\nc\n")
    }

    @Test func tokensJoinBackToTheirBytes() {
        for text in ["héllo, wörld!\r\n\tx", "会议 test\u{301}é", "\u{FF}\u{FE}bad", "a\r\nb\rc"] {
            let bytes = Array(text.utf8) + [0xFF, 0x41]
            let tokens = TextTokens(bytes)
            #expect(tokens.ranges.flatMap { Array(bytes[$0]) } == bytes)
        }
    }
}

extension BodyMergeTests {
    /// Item 10: a multi-line front-matter value (a block scalar) changed on both sides merges as
    /// the body does; words both changed go to the newer side, named with the key.
    @Test func aMultiLineValueMergesLikeTheBody() throws {
        let base = "---\ntitle: Plan\nupdatedAt: 2026-01-01T10:00:00Z\nsummary: |\n  First line here.\n  Second line here.\n---\nBody\n"
        let older = base.replacingOccurrences(of: "First line", with: "First good line").replacingOccurrences(of: "10:00", with: "11:00")
            .replacingOccurrences(of: "Second line here.", with: "Second line there.")
        let newer = base.replacingOccurrences(of: "Second line here.", with: "Second line, everywhere.")
            .replacingOccurrences(of: "10:00", with: "12:00")
        let result = try MergeFixture.merge(base, MergeFixture.side(older), MergeFixture.side(newer))
        let text = MergeFixture.text(result.merged)
        #expect(text.contains("First good line here."), "\(text)")
        #expect(text.contains("Second line, everywhere."), "\(text)")
        #expect(result.decisions.count == 1)
        #expect(result.decisions.first?.reason.hasPrefix("both sides changed the same words of front-matter key 'summary' (line 2: 'there.'") == true,
                "\(result.decisions)")
    }
}

extension BodyMergeTests {
    /// Item 4: a side's edit time is its `updatedAt` only where that side changed it, else the
    /// commit that carried the change; equal times go to the device whose name sorts last, on
    /// both devices alike.
    @Test func editTimesAndTiesDecideAlikeOnBothDevices() throws {
        let base = "---\nupdatedAt: 2026-01-01T10:00:00Z\n---\nThe room is three.\n"
        let quire = base.replacingOccurrences(of: "three", with: "four").replacingOccurrences(of: "10:00", with: "11:00")
        let byHand = base.replacingOccurrences(of: "three", with: "the garden")
        // The plain edit's commit (11:30) is later than the quire edit's updatedAt (11:00).
        let plain = MergeSide(data: Data(byHand.utf8), commitTime: MergeFixture.date("2026-01-01T11:30:00Z"),
                              timeSource: "'edit by hand' (Ben)")
        let stamped = MergeFixture.side(quire, at: "2026-01-01T12:00:00Z")
        let onLaptop = try MergeFixture.merge(base, stamped, plain, sides: MergeSideNames(ours: "laptop", theirs: "Ben"))
        #expect(MergeFixture.text(onLaptop.merged).contains("The room is the garden."))
        #expect(onLaptop.decisions.first?.reason.hasSuffix(
            "Ben's version is newer (commit time of 'edit by hand' (Ben), 2026-01-01T11:30:00Z)") == true, "\(onLaptop.decisions)")
        let onBen = try MergeFixture.merge(base, plain, stamped, sides: MergeSideNames(ours: "Ben", theirs: "laptop"))
        #expect(onBen.merged == onLaptop.merged)

        // Equal edit times: the device name that sorts last wins, whichever device merges.
        let one = base.replacingOccurrences(of: "three", with: "one").replacingOccurrences(of: "10:00", with: "11:00")
        let two = base.replacingOccurrences(of: "three", with: "two").replacingOccurrences(of: "10:00", with: "11:00")
        let x = try MergeFixture.merge(base, MergeFixture.side(one), MergeFixture.side(two), sides: MergeSideNames(ours: "alpha", theirs: "zulu"))
        let y = try MergeFixture.merge(base, MergeFixture.side(two), MergeFixture.side(one), sides: MergeSideNames(ours: "zulu", theirs: "alpha"))
        #expect(x.merged == y.merged)
        #expect(MergeFixture.text(x.merged).contains("The room is two."))
        #expect(x.decisions.first?.reason.hasSuffix("zulu's version wins the tie by device name") == true, "\(x.decisions)")
    }
}

extension BodyMergeTests {
    /// Found by the chaos driver (seed 222): both sides rewrote a one-line text (a link's target
    /// replaced by a note on each device); a word merge of two rewrites mixed their identifiers
    /// into one neither wrote (`tok-00016-2-0069`). A rewrite goes to the newer side whole.
    @Test func twoRewritesAreNeverMixed() throws {
        let result = try merge("plain-00004-1-0013.md", older: "# Was a link\n\ntok-00016-2-0072\n",
                               newer: "tok-00016-1-0069 # Was a link\n\ntok-00013-0-0051\n")
        #expect(result.text == "tok-00016-1-0069 # Was a link\n\ntok-00013-0-0051\n")
        #expect(result.collisions.count == 1)
        #expect(result.collisions.first?.lost == "# Was a link\n\ntok-00016-2-0072\n")
        // Identifiers, dates and paths are one token each: a word merge never splices them.
        let dated = try merge("Due 2026-12-01 in notes/plan.md\n", older: "Due 2026-12-02 in notes/plan.md\n",
                              newer: "Due 2026-11-30 in notes/plan.md today\n")
        #expect(dated.text == "Due 2026-11-30 in notes/plan.md today\n")
        #expect(dated.collisions.map(\.lost) == ["2026-12-02"])
    }
}

extension BodyMergeTests {
    /// Found by the demo: two rewrites of one sentence inside a longer line, merged word by word,
    /// gave "The bistro stays shut:, and Remy Remy has a bigger plan." Edits of one phrase with no
    /// word between them are one collision: the newer sentence is kept whole, the older named.
    @Test func editsOfOnePhraseWithNoWordBetweenCollide() throws {
        let rest = " Remy runs the kitchen from a hat that is no\n"
        let result = try merge("The little bistro reopens under its old name." + rest,
                               older: "The bistro reopens, and Remy cooks in plain sight." + rest,
                               newer: "The bistro stays shut: Remy has a bigger plan." + rest)
        #expect(result.text == "The bistro stays shut: Remy has a bigger plan." + rest)
        #expect(result.collisions.count == 1)
        // Neighbouring words edited on each side: one collision, the newer words kept.
        let near = try merge("one two three four\n", older: "one TWO three four\n", newer: "one two THREE four\n")
        #expect(near.text == "one two THREE four\n")
        #expect(near.collisions.map(\.lost) == ["TWO three"])
    }
}

extension BodyMergeTests {
    /// Both sides added a last line to a text whose last line has a line break, one of them
    /// without a final break: the lines are never joined into one.
    @Test func addedLastLinesAreNeverJoined() throws {
        let one = try merge("a\n", older: "a\nfrom laptop", newer: "a\nfrom phone\n")
        #expect(one.text == "a\nfrom phone\nfrom laptop")
        let neither = try merge("a\n", older: "a\nfrom laptop", newer: "a\nfrom phone")
        #expect(neither.text == "a\nfrom laptop\nfrom phone")
        #expect(one.collisions.isEmpty && neither.collisions.isEmpty)
    }
}
