import Foundation
import QuireSync
import Testing

private typealias F = MergeFixture

@Suite struct MergeResolverTests {
    let base = """
        ---
        id: 6f1c2a9e-0000-4000-8000-000000000001
        title: Woody
        color: blue # favourite
        updatedAt: 2026-01-01T10:00:00Z
        tags: [toy, cowboy]
        ---
        One
        Two
        Three
        Four
        Five

        """

    private func edit(_ text: String, _ replacements: [(String, String)]) -> String {
        replacements.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    @Test func cleanKeyMergeTakesBothSides() throws {
        let ours = edit(base, [("blue", "red"), ("10:00:00Z", "11:00:00Z")])
        let theirs = edit(base, [("cowboy]", "cowboy, sheriff]"), ("01T10:00:00Z", "02T09:00:00Z")])
        let result = try F.merge(base, F.side(ours), F.side(theirs))
        #expect(F.text(result.merged) == """
            ---
            id: 6f1c2a9e-0000-4000-8000-000000000001
            title: Woody
            color: red # favourite
            updatedAt: 2026-01-02T09:00:00Z
            tags: [toy, cowboy, sheriff]
            ---
            One
            Two
            Three
            Four
            Five

            """)
        #expect(result.decisions.isEmpty)
        #expect(result.keepBothCopy == nil)
    }

    @Test func sameKeyChangedOnBothSidesNewerWins() throws {
        let ours = edit(base, [("blue", "red"), ("10:00:00Z", "11:00:00Z")])
        let theirs = edit(base, [("blue", "green"), ("01T10:00:00Z", "02T09:00:00Z")])
        let result = try F.merge(base, F.side(ours), F.side(theirs))
        #expect(F.text(result.merged) == theirs)
        #expect(result.decisions == [MergeDecision(
            path: "woody.md", winner: .theirs,
            reason: "both sides changed front-matter key 'color'; the remote's version is newer (updatedAt 2026-01-02T09:00:00Z)")])
        let swapped = try F.merge(base, F.side(theirs), F.side(ours))
        #expect(swapped.merged == result.merged)
        #expect(swapped.decisions.map(\.winner) == [.ours])
    }

    @Test func tagsMergeAsSetsWithRemovals() throws {
        let tagged = edit(base, [("[toy, cowboy]", "[toy, cowboy, hat]")])
        let ours = edit(tagged, [("[toy, cowboy, hat]", "[cowboy, hat, boots]"), ("10:00:00Z", "12:00:00Z")])
        let theirs = edit(tagged, [("[toy, cowboy, hat]", "[Toy, hat, rope]"), ("10:00:00Z", "11:00:00Z")])
        let result = try F.merge(tagged, F.side(ours), F.side(theirs))
        #expect(F.text(result.merged) == edit(ours, [("[cowboy, hat, boots]", "[hat, boots, rope]")]))
        #expect(result.decisions.isEmpty)
    }

    @Test func removedAndAddedKeysAndOtherListsMerge() throws {
        let listed = "---\ntitle: Woody\nproject: Toy Story\naliases: [Sheriff, Cowboy]\n---\nBody\n"
        let ours = "---\ntitle: Woody\naliases: [Sheriff, Cowboy, Pardner]\nmood: 5\n---\nBody\n"
        let theirs = "---\ntitle: Woody\nproject: Toy Story\naliases: [Sheriff]\npinned: true\n---\nBody\n"
        let result = try F.merge(listed, F.side(ours, at: "2026-01-02T00:00:00Z"), F.side(theirs))
        #expect(F.text(result.merged) == "---\ntitle: Woody\naliases: [Sheriff, Pardner]\nmood: 5\npinned: true\n---\nBody\n")
        #expect(result.decisions.isEmpty)
    }

    @Test func blockAndStringTagsKeepTheirForm() throws {
        let block = "---\ntags:\n  - toy\n  - cowboy\n---\nBody\n"
        let ours = "---\ntags:\n  - toy\n  - cowboy\n  - hat\nupdatedAt: 2026-01-02T00:00:00Z\n---\nBody\n"
        let theirs = "---\ntags:\n  - cowboy\n  - rope\nupdatedAt: 2026-01-01T12:00:00Z\n---\nBody\n"
        let result = try F.merge(block, F.side(ours), F.side(theirs))
        #expect(F.text(result.merged) == "---\ntags:\n  - cowboy\n  - hat\n  - rope\nupdatedAt: 2026-01-02T00:00:00Z\n---\nBody\n")

        let string = "---\ntags: toy, cowboy\n---\nBody\n"
        let stringResult = try F.merge(string, F.side("---\ntags: toy, cowboy, hat\n---\nBody\n", at: "2026-01-02T00:00:00Z"),
                                       F.side("---\ntags: cowboy, rope\n---\nBody\n"))
        #expect(F.text(stringResult.merged) == "---\ntags: cowboy, hat, rope\n---\nBody\n")
    }

    @Test func updatedAtIsTheLaterAndCreatedAtTheEarlier() throws {
        let dated = "---\ncreatedAt: 2026-01-01T00:00:00Z\nupdatedAt: 2026-01-01T00:00:00Z\ncolor: blue\n---\nBody\n"
        let ours = "---\ncreatedAt: 2025-12-01T00:00:00Z\nupdatedAt: 2026-01-05T00:00:00Z\ncolor: blue\n---\nBody\n"
        let theirs = "---\ncreatedAt: 2025-12-15T00:00:00Z\nupdatedAt: 2026-01-04T00:00:00Z\ncolor: red\n---\nBody\n"
        let result = try F.merge(dated, F.side(ours), F.side(theirs), strategy: .theirs)
        #expect(F.text(result.merged)
            == "---\ncreatedAt: 2025-12-01T00:00:00Z\nupdatedAt: 2026-01-05T00:00:00Z\ncolor: red\n---\nBody\n")
        #expect(result.decisions.isEmpty)
    }

    @Test func bodyMergesThreeWays() throws {
        let ours = edit(base, [("One", "One!"), ("10:00:00Z", "11:00:00Z")])
        let theirs = edit(base, [("Five", "Five!\nSix"), ("10:00:00Z", "12:00:00Z")])
        let result = try F.merge(base, F.side(ours), F.side(theirs))
        #expect(F.text(result.merged) == edit(base, [("One", "One!"), ("Five", "Five!\nSix"), ("10:00:00Z", "12:00:00Z")]))
        #expect(result.decisions.isEmpty)
    }

    @Test func bodyCollisionCostsOnlyTheCollidingWords() throws {
        let ours = edit(base, [("One", "One (ours)"), ("Three", "Three (ours)"), ("blue", "red"),
                               ("10:00:00Z", "11:00:00Z")])
        let theirs = edit(base, [("Three", "Three (theirs)"), ("10:00:00Z", "12:00:00Z")])
        let result = try F.merge(base, F.side(ours), F.side(theirs))
        #expect(F.text(result.merged) == edit(theirs, [("blue", "red"), ("One", "One (ours)")]))
        #expect(result.decisions == [MergeDecision(
            path: "woody.md", winner: .theirs,
            reason: "both sides changed the same words (line 10: '(ours)' from this device lost to '(theirs)' from the remote); "
                + "the remote's version is newer (updatedAt 2026-01-01T12:00:00Z)", lost: "line 10: (ours)")])
        #expect(!F.text(result.merged).contains("<<<<<<<"))
    }

    @Test func equalUpdatedAtTheLargerBlobIDWins() throws {
        let ours = edit(base, [("blue", "red"), ("10:00:00Z", "11:00:00Z")])
        let theirs = edit(base, [("blue", "green"), ("10:00:00Z", "11:00:00Z")])
        let oursLarger = MergeResolver.blobID(Data(ours.utf8)) > MergeResolver.blobID(Data(theirs.utf8))
        let winner: MergeWinner = oursLarger ? .ours : .theirs
        let result = try F.merge(base, F.side(ours, at: "2026-02-01T00:00:00Z"), F.side(theirs))
        #expect(F.text(result.merged) == (oursLarger ? ours : theirs))
        #expect(result.decisions == [MergeDecision(
            path: "woody.md", winner: winner,
            reason: "both sides changed front-matter key 'color'; both edits have the same time (updatedAt 2026-01-01T11:00:00Z); "
                + "\(MergeSideNames.generic.version(of: winner)) has the larger blob id")])
    }

    @Test func blobIDIsGitsBlobHash() {
        #expect(MergeResolver.blobID(Data("hello\n".utf8)) == "ce013625030ba8dba906f756967f9e9ca394464a")
        #expect(MergeResolver.blobID(Data()) == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391")
    }

    @Test func withoutUpdatedAtTheCommitTimeDecides() throws {
        let plain = "---\ntitle: Woody\ncolor: blue\n---\nBody\n"
        let ours = "---\ntitle: Woody\ncolor: red\n---\nBody\n"
        let theirs = "---\ntitle: Woody\ncolor: green\n---\nBody\n"
        let result = try F.merge(plain, F.side(ours, at: "2026-03-02T08:00:00Z"), F.side(theirs, at: "2026-03-01T08:00:00Z"))
        #expect(F.text(result.merged) == ours)
        #expect(result.decisions.map(\.reason)
            == ["both sides changed front-matter key 'color'; this device's version is newer (commit time 2026-03-02T08:00:00Z)"])
    }

    @Test func crlfNoteKeepsItsLineEndings() throws {
        let crlf = "---\r\ntitle: Woody\r\ntags: [toy]\r\n---\r\nOne\r\nTwo\r\nThree\r\n"
        let ours = "---\r\ntitle: Woody\r\ntags: [toy, hat]\r\n---\r\nOne!\r\nTwo\r\nThree\r\n"
        let theirs = "---\r\ntitle: Woody\r\ntags: [toy]\r\ncolor: red\r\n---\r\nOne\r\nTwo\r\nThree!\r\n"
        let result = try F.merge(crlf, F.side(ours), F.side(theirs, at: "2026-01-02T00:00:00Z"))
        #expect(F.text(result.merged)
            == "---\r\ntitle: Woody\r\ntags: [toy, hat]\r\ncolor: red\r\n---\r\nOne!\r\nTwo\r\nThree!\r\n")
    }

    @Test func bomNoteKeepsItsBOM() throws {
        let bom = "\u{FEFF}---\ntitle: Woody\ncolor: blue\n---\nOne\nTwo\n"
        let ours = "\u{FEFF}---\ntitle: Woody\ncolor: red\n---\nOne\nTwo\n"
        let theirs = "\u{FEFF}---\ntitle: Woody\ncolor: blue\nmood: 4\n---\nOne\nTwo!\n"
        let result = try F.merge(bom, F.side(ours), F.side(theirs))
        #expect(Array(result.merged.prefix(3)) == [0xEF, 0xBB, 0xBF])
        #expect(F.text(result.merged) == "\u{FEFF}---\ntitle: Woody\ncolor: red\nmood: 4\n---\nOne\nTwo!\n")
    }

    @Test func dendronEpochUpdatedStaysEpochMilliseconds() throws {
        let dendron = "---\nid: woody\ndesc: ''\nupdated: 1767261600000\ncreated: 1767261600000\n---\nBody\n"
        let ours = "---\nid: woody\ndesc: 'Sheriff'\nupdated: 1767348000000\ncreated: 1767261600000\n---\nBody\n"
        let theirs = "---\nid: woody\ndesc: ''\nupdated: 1767434400000\ncreated: 1767261600000\n---\nBody!\n"
        let result = try F.merge(dendron, F.side(ours), F.side(theirs), strategy: .ours)
        #expect(F.text(result.merged)
            == "---\nid: woody\ndesc: 'Sheriff'\nupdated: 1767434400000\ncreated: 1767261600000\n---\nBody!\n")
    }

    @Test func oursAndTheirsStrategiesWinEveryCollision() throws {
        let ours = edit(base, [("blue", "red"), ("Three", "Three (ours)"), ("title: Woody", "title: Woody Pride"),
                               ("10:00:00Z", "12:00:00Z")])
        let theirs = edit(base, [("blue", "green"), ("Three", "Three (theirs)"), ("Five", "Five!"),
                                 ("cowboy]", "cowboy, hat]"), ("10:00:00Z", "11:00:00Z")])
        let oursResult = try F.merge(base, F.side(ours), F.side(theirs), strategy: .ours)
        #expect(F.text(oursResult.merged) == edit(ours, [("cowboy]", "cowboy, hat]"), ("Five", "Five!")]))
        #expect(oursResult.decisions.map(\.reason) == [
            "both sides changed front-matter key 'color'; the strategy keeps this device's version",
            "both sides changed the same words (line 10: '(theirs)' from the remote lost to '(ours)' from this device); "
                + "the strategy keeps this device's version"])
        #expect(oursResult.decisions.allSatisfy { $0.winner == .ours })

        let theirsResult = try F.merge(base, F.side(ours), F.side(theirs), strategy: .theirs)
        #expect(F.text(theirsResult.merged)
            == edit(theirs, [("title: Woody", "title: Woody Pride"), ("11:00:00Z", "12:00:00Z")]))
        #expect(theirsResult.decisions.allSatisfy { $0.winner == .theirs })
        #expect(theirsResult.decisions.count == 2)
    }

    @Test func keepBothAlsoReturnsTheLoserWithANewID() throws {
        let ours = edit(base, [("blue", "red"), ("10:00:00Z", "11:00:00Z")])
        let theirs = edit(base, [("blue", "green"), ("Four", "Four!"), ("10:00:00Z", "12:00:00Z")])
        let result = try F.merge(base, F.side(ours), F.side(theirs), strategy: .keepBoth)
        #expect(F.text(result.merged) == theirs)
        #expect(result.decisions.map(\.winner) == [.theirs])
        let copy = F.text(result.keepBothCopy)
        let newID = copy.split(separator: "\n").first { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) } ?? ""
        #expect(newID.range(of: "^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$",
                            options: .regularExpression) != nil)
        // The copy says where it came from: the losing side (here this device's).
        #expect(copy == edit(ours, [("id: 6f1c2a9e-0000-4000-8000-000000000001", "id: \(newID)"),
                                    ("title: Woody\n", "title: Woody (version from this device)\n"),
                                    ("cowboy]\n", "cowboy]\nconflictOf: 6f1c2a9e-0000-4000-8000-000000000001\n")]))
        // Swapped sides with swapped names (as two devices see one merge): the same copy.
        let named = try F.merge(base, F.side(ours), F.side(theirs), strategy: .keepBoth,
                                sides: MergeSideNames(ours: "laptop", theirs: "phone"))
        let again = try F.merge(base, F.side(theirs), F.side(ours), strategy: .keepBoth,
                                sides: MergeSideNames(ours: "phone", theirs: "laptop"))
        #expect(again.keepBothCopy == named.keepBothCopy)
        #expect(F.text(named.keepBothCopy).contains("title: Woody (version from laptop)\n"))

        let clean = try F.merge(base, F.side(edit(base, [("One", "One!")])), F.side(theirs), strategy: .keepBoth)
        #expect(clean.keepBothCopy == nil)
    }

    @Test func unreadableFrontMatterMergesTheWholeFile() throws {
        let broken = "---\ntitle: [unclosed\n---\nOne\nTwo\nThree\nFour\n"
        let ours = "---\ntitle: [unclosed\n---\nOne!\nTwo\nThree\nFour\n"
        let theirs = "---\ntitle: [unclosed\n---\nOne\nTwo\nThree\nFour!\n"
        let clean = try F.merge(broken, F.side(ours), F.side(theirs))
        #expect(F.text(clean.merged) == "---\ntitle: [unclosed\n---\nOne!\nTwo\nThree\nFour!\n")
        #expect(clean.decisions.isEmpty)

        let collide = "---\ntitle: [unclosed\n---\nOne?\nTwo\nThree\nFour!\n"
        let result = try F.merge(broken, F.side(ours, at: "2026-01-01T00:00:00Z"), F.side(collide, at: "2026-01-01T00:00:01Z"))
        #expect(F.text(result.merged) == collide)
        #expect(result.decisions == [MergeDecision(
            path: "woody.md", winner: .theirs,
            reason: "both sides changed the same words (line 4: 'One!' from this device lost to 'One?' from the remote); "
                + "the remote's version is newer (commit time 2026-01-01T00:00:01Z)", lost: "line 4: One!")])
    }

    @Test func tomlAndMissingFrontMatterMergeTheWholeFile() throws {
        let toml = "+++\ntitle = \"Woody\"\n+++\nOne\nTwo\nThree\n"
        let result = try F.merge(toml, F.side("+++\ntitle = \"Woody!\"\n+++\nOne\nTwo\nThree\n"),
                                 F.side("+++\ntitle = \"Woody\"\n+++\nOne\nTwo\nThree!\n"))
        #expect(F.text(result.merged) == "+++\ntitle = \"Woody!\"\n+++\nOne\nTwo\nThree!\n")
        let plain = try F.merge("One\nTwo\nThree\n", F.side("One!\nTwo\nThree\n", at: "2026-01-02T00:00:00Z"),
                                F.side("One?\nTwo\nThree\n"))
        #expect(F.text(plain.merged) == "One!\nTwo\nThree\n")
        #expect(plain.decisions.map(\.winner) == [.ours])
    }

    @Test func addedOnBothSides() throws {
        let identical = try F.merge(nil, F.side(base), F.side(base))
        #expect(F.text(identical.merged) == base)
        #expect(identical.decisions.isEmpty)

        let ours = edit(base, [("blue", "red"), ("10:00:00Z", "11:00:00Z")])
        let theirs = edit(base, [("Two", "Two!")])
        let different = try F.merge(nil, F.side(ours), F.side(theirs))
        #expect(F.text(different.merged) == ours)
        #expect(different.decisions.map(\.winner) == [.ours, .ours])
    }

    @Test func isRealChangeIgnoresARestamp() {
        let restamped = base.replacingOccurrences(of: "10:00:00Z", with: "18:30:00Z")
        #expect(!MergeResolver.isRealChange(base: Data(base.utf8), changed: Data(restamped.utf8)))
        #expect(!MergeResolver.isRealChange(base: Data(base.utf8), changed: Data(base.utf8)))
        let edited = restamped.replacingOccurrences(of: "Two", with: "Two!")
        #expect(MergeResolver.isRealChange(base: Data(base.utf8), changed: Data(edited.utf8)))
        let retagged = base.replacingOccurrences(of: "cowboy]", with: "cowboy, hat]")
        #expect(MergeResolver.isRealChange(base: Data(base.utf8), changed: Data(retagged.utf8)))
        let dendron = "---\nupdated: 1767261600000\n---\nBody\n"
        #expect(!MergeResolver.isRealChange(base: Data(dendron.utf8),
                                            changed: Data("---\nupdated: 1767434400000\n---\nBody\n".utf8)))
        let stampedNew = "---\ntitle: Woody\n---\nBody\n"
        #expect(!MergeResolver.isRealChange(base: Data(stampedNew.utf8),
                                            changed: Data("---\ntitle: Woody\nupdatedAt: 2026-01-01T00:00:00Z\n---\nBody\n".utf8)))
        #expect(MergeResolver.isRealChange(base: Data("no front matter\n".utf8), changed: Data("no front matter!\n".utf8)))
    }

    @Test func neverWritesConflictMarkers() throws {
        let ours = edit(base, [("Two", "Two (ours)"), ("blue", "red")])
        let theirs = edit(base, [("Two", "Two (theirs)"), ("blue", "green")])
        for strategy in MergeStrategy.allCases {
            let result = try F.merge(base, F.side(ours), F.side(theirs), strategy: strategy)
            #expect(!F.text(result.merged).contains("<<<<<<<"))
            #expect(!F.text(result.merged).contains(">>>>>>>"))
        }
    }
}
