import Foundation
import Testing

/// Files a sync brings in are written as git writes them, and nothing the user did not change is
/// ever committed: an ignored file where a note arrives, a file or a link turned into a folder.
/// Two devices through a bare repository (found by a QA pass, 2026-12-03).
/// (Binary files and CRLF notes, in process: QuireKitTests' SyncFileShapeScenarioTests.)
@Suite struct SyncFileShapesTests {
    /// A file this device ignores (`.git/info/exclude`) where the other device adds a note of the
    /// same path: the incoming note is written beside it, and the index records it there, so the
    /// next sync commits that move — never the ignored file over the other device's note.
    @Test func anIgnoredFileWhereANoteArrivesStaysOutOfGit() throws {
        let (a, b) = try SyncWorld().pair(["keep.md": SyncPairingTests.keep])
        try "private.md\n".write(to: a.vault.url(".git/info/exclude"), atomically: true, encoding: .utf8)
        let diary = "---\ntitle: Diary\n---\nA's private diary, never to be pushed.\n"
        try a.write(diary, to: "private.md")
        let shared = "---\ntitle: Shared\nupdatedAt: 2026-11-29T11:00:00Z\n---\nB's shared note.\n"
        try b.write(shared, to: "private.md")
        try b.sync()
        let pulled = try a.sync(now: "2026-11-29T12:01:00Z")
        #expect(pulled.code == 0, "\(pulled.stderr)")
        #expect((pulled.stdout + pulled.stderr).contains(
            "private.md: this device ignores the file there; the incoming one is written as private-2.md"), "\(pulled.stdout)")
        #expect(try a.read("private.md") == diary)
        #expect(try a.read("private-2.md") == shared)
        try a.sync(now: "2026-11-29T12:02:00Z")
        try b.sync(now: "2026-11-29T12:03:00Z")
        #expect(try b.read("private-2.md") == shared)
        #expect(!b.exists("private.md"))
        #expect(try a.git(["log", "--all", "-p"]).stdout.contains("private diary") == false)
        #expect(try a.read("private.md") == diary)
    }

    /// A tracked file (or a link) replaced by a folder of its name: staging the name failed ("it is
    /// a directory") and every sync stopped there until the user ran `git add -A`. The file's
    /// deletion and the folder's notes are committed, and the other device gets both.
    @Test(arguments: [false, true])
    func aFileReplacedByAFolderOfItsNameIsCommitted(link: Bool) throws {
        let (a, b) = try SyncWorld().pair(["keep.md": SyncPairingTests.keep])
        if link {
            try FileManager.default.createSymbolicLink(atPath: a.vault.url("Projects").path, withDestinationPath: "keep.md")
        } else {
            try a.write("todo list\n", to: "Projects")
        }
        try a.sync()
        try a.remove("Projects")
        try a.write("---\ntitle: P\n---\nnote in folder\n", to: "Projects/p.md")
        try a.sync(now: "2026-11-29T12:01:00Z")
        #expect(try a.git(["status", "--porcelain"]).stdout == "")
        #expect(try a.git(["ls-files"]).stdout.split(separator: "\n").contains("Projects/p.md"))
        try b.sync(now: "2026-11-29T12:02:00Z")
        #expect(try b.read("Projects/p.md") == "---\ntitle: P\n---\nnote in folder\n")
    }

    /// How the user's file came to be where the update makes a folder.
    enum FolderPlace: String, CaseIterable {
        /// Saved while the sync ran, after it committed (the sync stopped right before it
        /// updates the work tree).
        case savedDuringTheSync
        /// Saved after a sync died right before its update (`before-checkout:kill`): the next
        /// sync finishes that update first (`Journal.replay`).
        case savedAfterACrash
        /// A tracked file the incoming change replaces by a folder, edited after such a crash.
        case trackedFileEditedAfterACrash
        /// Saved during the sync, while the incoming change also makes a folder `Projects-2/`:
        /// the file goes to `Projects-3`, never where the update makes that folder.
        case savedDuringTheSyncBesideAFolderOfTheFreeName
    }

    /// `b` makes `Projects/` a folder of notes; `a`'s user puts a file `Projects` there while `a`'s
    /// sync brings the folder in. The update could not make the folder, and every later sync
    /// failed finishing it ("cannot create its folder"; found by `soak.sh` with the edge shapes,
    /// seed 4036). The file moves to `Projects-2`, as a merge keeps a file and a folder of one
    /// name, it is listed, the next sync commits it, and both devices end with both.
    @Test(arguments: FolderPlace.allCases)
    func aFileSavedWhereAnIncomingFolderGoesIsKeptBeside(place: FolderPlace) throws {
        let tracked = place == .trackedFileEditedAfterACrash
        let (a, b) = try SyncWorld().pair(tracked ? ["keep.md": SyncPairingTests.keep, "Projects": "todo list\n"]
                                                  : ["keep.md": SyncPairingTests.keep])
        let plan = "---\ntitle: Plan\n---\nB's plan.\n"
        if tracked { try b.remove("Projects") }
        try b.write(plan, to: "Projects/plan.md")
        let beside = place == .savedDuringTheSyncBesideAFolderOfTheFreeName ? "Projects-3" : "Projects-2"
        if beside == "Projects-3" { try b.write("---\ntitle: Other\n---\nB's other.\n", to: "Projects-2/other.md") }
        try b.sync(now: "2026-11-29T11:00:00Z")
        let mine = tracked ? "todo list\nA's line\n" : "A's list\n"
        let finished: QuireRun
        if place == .savedDuringTheSync || place == .savedDuringTheSyncBesideAFolderOfTheFreeName {
            let (run, stopped) = try a.runStopping(at: "before-checkout", ["sync"], now: "2026-11-29T11:10:00Z") {
                try a.write(mine, to: "Projects")
            }
            try #require(stopped, "the sync never reached the update")
            finished = run
        } else {
            let crashed = try a.run(["sync"], now: "2026-11-29T11:10:00Z", environment: ["QUIRE_FAULT": "before-checkout:kill"])
            try #require(crashed.code != 0)
            if tracked { try a.remove("Projects") }
            try a.write(mine, to: "Projects")
            finished = try a.run(["sync"], now: "2026-11-29T11:20:00Z")
        }
        #expect(finished.code == 0, "\(finished.stderr)")
        #expect(finished.stdout.contains(
            "a file and a folder at one path, kept both: Projects/ and \(beside) (the file was saved while the sync ran)"), "\(finished.stdout)")
        #expect(try a.read("Projects/plan.md") == plan)
        #expect(try a.read(beside) == mine)
        try a.sync(now: "2026-11-29T11:30:00Z")
        try b.sync(now: "2026-11-29T11:40:00Z")
        try a.sync(now: "2026-11-29T11:50:00Z")
        #expect(try b.read(beside) == mine)
        #expect(try a.files() == b.files())
        #expect(try a.git(["status", "--porcelain"]).stdout.isEmpty)
        #expect(!a.exists(".quire/local/sync-journal.json"))
    }

    /// `a`'s user replaces the tracked file `Projects` by a folder of notes while `a`'s sync brings
    /// in `b`'s change to the file (saved during the sync, or after a sync died before its update).
    /// A deletion loses to a change, but the file could not come back at its path: the folder's
    /// notes were committed over it and `b`'s change left the tree, listed nowhere. It comes back
    /// beside the folder (`Projects-2`), listed by `quire conflicts`, on both devices.
    @Test(arguments: [false, true])
    func aFileTheUserReplacedByAFolderWhileItsChangeArrivedComesBackBeside(crash: Bool) throws {
        let (a, b) = try SyncWorld().pair(["keep.md": SyncPairingTests.keep, "Projects": "todo list\n"])
        try b.write("todo list\nB's line\n", to: "Projects")
        try b.sync(now: "2026-11-29T11:00:00Z")
        let note = "---\ntitle: P\n---\nA's note\n"
        func replaceByFolder() throws {
            try a.remove("Projects")
            try a.write(note, to: "Projects/p.md")
        }
        if crash {
            let crashed = try a.run(["sync"], now: "2026-11-29T11:10:00Z", environment: ["QUIRE_FAULT": "before-checkout:kill"])
            try #require(crashed.code != 0)
            try replaceByFolder()
            try a.sync(now: "2026-11-29T11:20:00Z")
        } else {
            let (run, stopped) = try a.runStopping(at: "before-checkout", ["sync"], now: "2026-11-29T11:10:00Z") {
                try replaceByFolder()
            }
            try #require(stopped, "the sync never reached the update")
            #expect(run.code == 0, "\(run.stderr)")
            try a.sync(now: "2026-11-29T11:20:00Z")
        }
        #expect(try a.read("Projects-2") == "todo list\nB's line\n")
        #expect(try a.read("Projects/p.md") == note)
        let listed = try a.run(["conflicts"])
        #expect(listed.stdout.contains("a folder took its name (Projects/), so it is Projects-2 now"), "\(listed.stdout)")
        try b.sync(now: "2026-11-29T11:30:00Z")
        try a.sync(now: "2026-11-29T11:40:00Z")
        #expect(try b.read("Projects-2") == "todo list\nB's line\n")
        #expect(try a.files() == b.files())
        #expect(try a.git(["status", "--porcelain"]).stdout.isEmpty)
    }

    /// `a`'s user edits the file `Projects` while `a`'s sync brings `b`'s change to it (a kept
    /// edit, merged at the next sync), then makes it a folder of notes, the text moved into one,
    /// and commits that with the git CLI. The next sync found the kept edit committed since,
    /// looked up the folder as the file's version, and failed, that sync and every later one
    /// (soak seed 7017). Now `b`'s change comes back beside the folder (`Projects-2`), listed, and
    /// every line is still there.
    @Test func aKeptEditCommittedAsAFolderWithTheGitCLIDoesNotStopTheSync() throws {
        let (a, b) = try SyncWorld().pair(["keep.md": SyncPairingTests.keep, "Projects": "todo list\n"])
        try b.write("todo list\nB's line\n", to: "Projects")
        try b.sync(now: "2026-11-29T11:00:00Z")
        let (run, stopped) = try a.runStopping(at: "before-checkout", ["sync"], now: "2026-11-29T11:10:00Z") {
            try a.write("todo list\nA's line\n", to: "Projects")
        }
        try #require(stopped, "the sync never reached the update")
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.contains("kept your edit of Projects"), "\(run.stdout)")
        let text = try a.read("Projects")
        try a.remove("Projects")
        try a.write("---\ntitle: P\n---\n" + text, to: "Projects/p.md")
        try a.git(["add", "-A"])
        try #require(try a.git(["commit", "-qm", "projects as a folder"]).code == 0)
        let next = try a.run(["sync"], now: "2026-11-29T11:20:00Z")
        #expect(next.code == 0, "\(next.stderr)")
        #expect(try a.run(["conflicts"]).stdout.contains("a folder took its name (Projects/), so it is Projects-2 now"))
        try SyncPairingTests.converge(a, b)
        let all = try SyncPairingTests.exactFiles(a).values.joined(separator: "\n")
        #expect(all.contains("A's line"), "\(all)")
        #expect(all.contains("B's line"), "\(all)")
    }

    /// `b` adds a file `Projects`; `a`'s user makes `Projects/` a folder of notes (or saves a file
    /// `Projects`) after `a`'s update checked that path and before it wrote the files. The write
    /// was refused, as it must be, but the index kept the incoming file where the disk had the
    /// user's, and the next sync committed its deletion (soak seed 7064). The incoming file goes
    /// beside (`Projects-2`), as when the user's was there first, and both devices keep both.
    @Test(arguments: [true, false])
    func anAdditionWhosePlaceTheUserTookWhileItWasWrittenGoesBeside(folder: Bool) throws {
        let (a, b) = try SyncWorld().pair(["keep.md": SyncPairingTests.keep])
        try b.write("B's list\n", to: "Projects")
        try b.sync(now: "2026-11-29T11:00:00Z")
        let mine = "---\ntitle: P\n---\nA's note\n"
        let (run, stopped) = try a.runStopping(at: "before-work-tree-writes", ["sync"], now: "2026-11-29T11:10:00Z") {
            try a.write(folder ? mine : "A's list\n", to: folder ? "Projects/p.md" : "Projects")
        }
        try #require(stopped, "the sync never reached the writes")
        #expect(run.code == 0, "\(run.stderr)")
        #expect(try a.read("Projects-2") == "B's list\n")
        try SyncPairingTests.converge(a, b)
        #expect(try b.read("Projects-2") == "B's list\n")
        #expect(try b.read(folder ? "Projects/p.md" : "Projects") == (folder ? mine : "A's list\n"))
    }

    /// A note arriving as `plan.md` where the user made `Plan.md` after the sync committed —
    /// while it ran, or while a crash kept its update waiting for the next sync: one file on
    /// macOS and Windows. The update wrote `plan.md` beside it, the next sync committed the
    /// user's `Plan.md`, and the pair reached every device (soak seed 10028). The incoming note
    /// goes beside (`plan-2.md`), as a merge places it (`CaseFoldedNames`).
    /// `crowded`: a note `PLAN-2.md` is there too, so the free name is `plan-3.md` (the update
    /// once wrote `plan-2.md`, a pair with it: soak seed 10205).
    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func aNameThatDiffersOnlyInCaseFromAnArrivingOneMakesNoPair(crash: Bool, crowded: Bool) throws {
        let (a, b) = try SyncWorld().pair(["keep.md": SyncPairingTests.keep]
            .merging(crowded ? ["PLAN-2.md": "# PLAN 2\n"] : [:]) { $1 })
        try b.write("# Plan\n\nB's plan\n", to: "plan.md")
        try b.sync(now: "2026-11-29T11:00:00Z")
        if crash {
            let killed = try a.run(["sync"], now: "2026-11-29T11:10:00Z", environment: ["QUIRE_FAULT": "before-checkout:kill"])
            try #require(killed.code != 0)
            try a.write("# Plan\n\nA's plan\n", to: "Plan.md")
            try a.sync(now: "2026-11-29T11:20:00Z")
        } else {
            let (run, stopped) = try a.runStopping(at: "before-checkout", ["sync"], now: "2026-11-29T11:10:00Z") {
                try a.write("# Plan\n\nA's plan\n", to: "Plan.md")
            }
            try #require(stopped, "the sync never reached its update")
            #expect(run.code == 0, "\(run.stderr)")
        }
        try SyncPairingTests.converge(a, b)
        for device in [a, b] {
            let notes = try SyncPairingTests.exactFiles(device).filter { $0.key.lowercased().hasPrefix("plan") }
            #expect(notes == ["Plan.md": "# Plan\n\nA's plan\n", crowded ? "plan-3.md" : "plan-2.md": "# Plan\n\nB's plan\n"]
                .merging(crowded ? ["PLAN-2.md": "# PLAN 2\n"] : [:]) { $1 }, "\(device.name): \(notes)")
        }
    }

    /// The same with the user's name in the other Unicode form too (`CAFÉ.md` decomposed, as
    /// macOS writes it, where `café.md` precomposed arrives): still one file on macOS, still
    /// kept apart, and a symlink of such a name counts as the user's file as well.
    @Test(arguments: [false, true])
    func aCaseTwinInTheOtherUnicodeFormOrALinkMakesNoPair(link: Bool) throws {
        let (a, b) = try SyncWorld().pair(["keep.md": SyncPairingTests.keep])
        try b.write("# Café\n\nB's café\n", to: "caf\u{E9}.md")
        try b.sync(now: "2026-11-29T11:00:00Z")
        let (run, stopped) = try a.runStopping(at: "before-checkout", ["sync"], now: "2026-11-29T11:10:00Z") {
            if link {
                try FileManager.default.createSymbolicLink(atPath: a.vault.url("CAFE\u{301}.md").path, withDestinationPath: "keep.md")
            } else {
                try a.write("# Café\n\nA's café\n", to: "CAFE\u{301}.md")
            }
        }
        try #require(stopped, "the sync never reached its update")
        #expect(run.code == 0, "\(run.stderr)")
        let notes = try SyncPairingTests.exactFiles(a).filter { $0.key.lowercased().hasPrefix("caf") }
        #expect(Set(notes.keys) == ["CAFE\\u{301}.md", "caf\\u{E9}-2.md"], "\(notes)")
        #expect(notes["caf\\u{E9}-2.md"] == "# Café\n\nB's café\n", "\(notes)")
    }
}
