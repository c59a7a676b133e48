import Foundation
import Testing

/// Issue 31 on two devices through a bare remote: edits of adjacent lines and of different words
/// of one line both survive; a collision costs only the colliding words (named with their line
/// in `quire conflicts` on both devices); a git-only device merging through the merge driver
/// decides exactly as a quire device. (A teammate on plain git whose later edit wins, in
/// process: QuireKitTests' PlainGitTeammateTests.)
@Suite struct SyncWordMergeTests {
    static let minutes = note("n1", title: "Minutes", updated: "2026-11-29T10:00:00Z",
                              body: "# Minutes\n\nAttendees: Chen\nAgenda: budget\nPlace: room three.\n\nDecisions:\n")

    private static func edit(_ text: String, _ replacements: [(String, String)]) -> String {
        replacements.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    @Test func adjacentLinesAndDifferentWordsOfOneLineSurvive() throws {
        let (a, b) = try SyncWorld().pair(["minutes.md": Self.minutes])
        try a.write(Self.edit(Self.minutes, [("Chen\n", "Chen and Ana\n"), ("room three", "hall three"), ("10:00", "11:00")]),
                    to: "minutes.md")
        try b.write(Self.edit(Self.minutes, [("budget", "budget, hiring"), ("three.", "three, upstairs."), ("10:00", "11:30")]),
                    to: "minutes.md")
        try SyncMergeTests.syncABA(a, b)
        #expect(try a.read("minutes.md") == Self.edit(Self.minutes, [
            ("Chen\n", "Chen and Ana\n"), ("budget", "budget, hiring"), ("room three.", "hall three, upstairs."), ("10:00", "11:30")]))
        #expect(try SyncMergeTests.conflicts(a).isEmpty)
        #expect(try SyncMergeTests.conflicts(b).isEmpty)
    }

    @Test func aCollisionCostsOnlyTheCollidingWordsAndIsNamedOnBothDevices() throws {
        let (a, b) = try SyncWorld().pair(["minutes.md": Self.minutes])
        // a (older) adds a decision at the end and a note on the chair; b (newer) says Chen joins late.
        try a.write(Self.edit(Self.minutes, [("Chen\n", "Chen (chair)\n"), ("Decisions:\n", "Decisions:\n- ship on Friday\n"),
                                             ("10:00", "11:00")]), to: "minutes.md")
        try b.write(Self.edit(Self.minutes, [("Chen\n", "Chen (joins late)\n"), ("10:00", "11:30")]), to: "minutes.md")
        try a.sync(now: "2026-11-29T12:00:00Z")
        let merging = try b.sync(now: "2026-11-29T12:01:00Z")
        let told = try a.sync(now: "2026-11-29T12:02:00Z")
        #expect(try a.files() == b.files())
        #expect(try a.read("minutes.md") == Self.edit(Self.minutes, [
            ("Chen\n", "Chen (joins late)\n"), ("Decisions:\n", "Decisions:\n- ship on Friday\n"), ("10:00", "11:30")]))
        for device in [a, b] {
            let records = try SyncMergeTests.conflicts(device)
            try #require(records.count == 1, "\(device.name): \(records)")
            let reason = try #require(records[0]["reason"] as? String)
            #expect(reason.hasPrefix("both sides changed the same words (line 8: '(chair)' from a lost to '(joins late)' from b)"),
                    "\(reason)")
            #expect(reason.contains("b's version is newer (updatedAt 2026-11-29T11:30:00Z)"), "\(reason)")
            #expect(records[0]["lost"] as? String == "line 8: (chair)")
        }
        let id = try #require(try SyncMergeTests.conflicts(a).first?["id"] as? String)
        // The device that lost is told, by the sync that brought the merge in, with the command
        // that brings its words back; the device whose text won is not.
        #expect(told.stdout.contains("your text lost in 1 note (kept in history):\n  minutes.md: both sides changed the same words "
                                     + "(line 8: '(chair)' from this device lost to '(joins late)' from b)"), "\(told.stdout)")
        #expect(told.stdout.contains("'quire restore minutes.md --conflict \(id)' brings it back"), "\(told.stdout)")
        #expect(!merging.stdout.contains("your text lost"), "\(merging.stdout)")
        let listed = try a.run(["conflicts"])
        #expect(listed.stdout.contains("line 8: '(chair)' from this device lost to '(joins late)' from b"), "\(listed.stdout)")
        #expect(try a.run(["status"]).stdout.contains("1 automatic resolution dropped text"))

        // Restoring puts back the dropped words and keeps every other edit; status counts it no more.
        let restored = try a.run(["restore", "minutes.md", "--conflict", id], now: "2026-11-29T12:03:00Z")
        #expect(restored.code == 0, "\(restored.stderr)")
        let back = try a.read("minutes.md")
        #expect(back.contains("Attendees: Chen (chair)\n") && back.contains("- ship on Friday\n"), "\(back)")
        #expect(!(try a.run(["status"]).stdout.contains("dropped text")))
    }

    /// The same two edits, merged on the git-only device by `git pull` through quire's merge
    /// driver: the same bytes as the quire device's merge, the same decision.
    @Test func theMergeDriverDecidesAsAQuireDevice() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["minutes.md": Self.minutes])
        try a.write(Self.edit(Self.minutes, [("room three", "room four"), ("10:00", "11:00")]), to: "minutes.md")
        try a.sync(now: "2026-11-29T12:00:00Z")
        let byHand = Self.edit(Self.minutes, [("room three", "the garden"), ("Agenda: budget", "Agenda: budget, hiring")])
        try b.write(byHand, to: "minutes.md")
        try #require(try Self.plainGit(b, ["commit", "-qam", "edit by hand"], at: "2026-11-29T11:45:00Z").code == 0)
        let pull = try Self.plainGit(b, ["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"], at: "2026-11-29T12:05:00Z")
        try #require(pull.code == 0, "\(pull.stderr)")
        #expect(try b.read("minutes.md") == Self.edit(Self.minutes, [
            ("room three", "the garden"), ("Agenda: budget", "Agenda: budget, hiring"), ("10:00", "11:00")]))
        #expect(pull.stderr.contains("kept Ben's version — both sides changed the same words (line 10: 'room four.' from a lost "
                                     + "to 'the garden.' from Ben); Ben's version is newer (commit time of 'edit by hand' (Ben), 2026-11-29T11:45:00Z)"),
                "\(pull.stderr)")
    }

    /// git as a teammate without quire runs it: author Ben, the given author and commit time.
    static func plainGit(_ device: Device, _ arguments: [String], at time: String) throws -> GitRun {
        try gitCLI(["-c", "user.name=Ben", "-c", "user.email=ben@example.invalid"] + arguments, in: device.root,
                   environment: ["GIT_AUTHOR_DATE": time, "GIT_COMMITTER_DATE": time])
    }
}

/// Issue 31 item 8: a sync that fast-forwards names what arrived — notes added, changed, moved and
/// deleted, ten at most — and warns at once about an incoming note holding conflict markers.
@Suite struct SyncArrivalTests {
    @Test func aFastForwardNamesTheNotesThatArrived() throws {
        let (a, b) = try SyncWorld().pair(["keep.md": note("k", title: "Keep", updated: "2026-11-29T10:00:00Z"),
                                           "gone.md": note("g", title: "Gone", updated: "2026-11-29T10:00:00Z")])
        try a.write(note("k", title: "Keep", updated: "2026-11-29T11:00:00Z", body: "Changed.\n"), to: "keep.md")
        try a.remove("gone.md")
        try a.write(note("n", title: "New", updated: "2026-11-29T11:00:00Z"), to: "new.md")
        try a.write("---\ntitle: Clash\n---\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> other\n", to: "clash.md")
        try a.sync(now: "2026-11-29T12:00:00Z")
        let synced = try b.sync(now: "2026-11-29T12:01:00Z")
        for line in ["  added new.md", "  changed keep.md", "  deleted gone.md", "  added clash.md",
                     "warning: clash.md:4 arrived holding git's conflict markers"] {
            #expect(synced.stdout.contains(line), "\(line): \(synced.stdout)")
        }

        for index in 1...12 { try a.write(note("m\(index)", title: "Many \(index)", updated: "2026-11-29T12:00:00Z"), to: "many-\(index).md") }
        try a.sync(now: "2026-11-29T12:02:00Z")
        let many = try b.sync(now: "2026-11-29T12:03:00Z")
        #expect(many.stdout.contains("  … and 2 more"), "\(many.stdout)")
        #expect(many.stdout.components(separatedBy: "\n  added ").count == 11, "\(many.stdout)")
    }
}

/// Issue 31 item 6: a merge the git CLI made on a device that never runs `quire sync` (a
/// teammate on plain git, quire's merge driver registered) is recomputed by every other device:
/// its decision is listed by `quire conflicts` there, with the same id, attributed to the
/// teammate, and the losing text restorable.
@Suite struct ForeignMergeTests {
    @Test func aGitPullsDecisionIsListedOnDevicesThatNeverSawItsRecord() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["minutes.md": SyncWordMergeTests.minutes])
        // b, on plain git, edits first (11:45); a's quire edit is newer (updatedAt 12:10). b rewrote
        // the line (two of its three words): it goes to the newer side whole.
        try b.write(SyncWordMergeTests.minutes.replacingOccurrences(of: "room three", with: "the garden"), to: "minutes.md")
        try #require(try SyncWordMergeTests.plainGit(b, ["commit", "-qam", "edit by hand"], at: "2026-11-29T11:45:00Z").code == 0)
        try a.write(SyncWordMergeTests.minutes.replacingOccurrences(of: "room three", with: "room four")
            .replacingOccurrences(of: "10:00", with: "12:10"), to: "minutes.md")
        try a.sync(now: "2026-11-29T12:15:00Z")
        let pull = try SyncWordMergeTests.plainGit(b, ["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"], at: "2026-11-29T12:20:00Z")
        try #require(pull.code == 0, "\(pull.stderr)")
        try #require(try SyncWordMergeTests.plainGit(b, ["push", "-q", "origin", "main"], at: "2026-11-29T12:20:00Z").code == 0)

        try a.sync(now: "2026-11-29T12:30:00Z")
        #expect(try a.read("minutes.md") == b.read("minutes.md"))
        let onA = try SyncMergeTests.conflicts(a)
        try #require(onA.count == 1, "\(onA)")
        #expect(onA[0]["device"] as? String == "Ben")
        #expect(onA[0]["droppedFrom"] as? String == "Ben")
        #expect((onA[0]["reason"] as? String)?.contains("'Place: the garden.' from Ben lost to 'Place: room four.' from a") == true, "\(onA)")
        // b lists the driver's own record of it: the same id.
        let onB = try SyncMergeTests.conflicts(b)
        #expect(onB.map { $0["id"] as? String } == onA.map { $0["id"] as? String }, "\(onB)")
        let id = try #require(onA[0]["id"] as? String)
        let shown = try a.run(["conflicts", "show", id])
        #expect(shown.code == 0 && shown.stdout.contains("the garden"), "\(shown.stdout)\(shown.stderr)")
    }
}
