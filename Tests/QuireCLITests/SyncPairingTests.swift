import Foundation
import Testing

/// How a merge pairs notes across two devices and places them in the merged tree. A note's
/// identity is its `id` — never its path, never a similar body — and two different files never
/// end up sharing one name: not one path, not a file and a folder, not two Unicode spellings of
/// one name. Each test runs two devices through a bare remote until they agree, and asserts the
/// exact files (names byte for byte) on both.
@Suite struct SyncPairingTests {
    static let keep = note("k", title: "Keep", updated: "2026-11-29T10:00:00Z")

    /// Every file outside `.git/`, `.quire/local/` and `.quire/cache/`, its name's non-ASCII
    /// scalars written `\u{…}` so that a precomposed and a decomposed name stay apart (Swift
    /// compares strings by canonical equivalence).
    static func exactFiles(_ device: Device) throws -> [String: String] {
        var files: [String: String] = [:]
        guard let walker = FileManager.default.enumerator(atPath: device.root.path) else { return files }
        while let relative = walker.nextObject() as? String {
            if relative == ".git" || relative.hasPrefix(".git/") || relative.hasPrefix(".quire/local/")
                || relative.hasPrefix(".quire/cache/") || relative.hasPrefix(".test-home") { continue }
            var isDirectory: ObjCBool = false
            let full = device.root.path + "/" + relative
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            files[escaped(relative)] = try String(decoding: Data(contentsOf: URL(fileURLWithPath: full)), as: UTF8.self)
        }
        return files
    }

    static func escaped(_ name: String) -> String {
        name.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }.joined()
    }

    /// Syncs A, B, A (the merge happens on B), then B and A again: after that both devices hold
    /// the same files under the same names, their heads the same tree, and nothing to commit.
    static func converge(_ a: Device, _ b: Device, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try a.sync(now: "2026-11-29T12:00:00Z", sourceLocation: sourceLocation)
        try b.sync(now: "2026-11-29T12:01:00Z", sourceLocation: sourceLocation)
        try a.sync(now: "2026-11-29T12:02:00Z", sourceLocation: sourceLocation)
        try b.sync(now: "2026-11-29T12:03:00Z", sourceLocation: sourceLocation)
        try a.sync(now: "2026-11-29T12:04:00Z", sourceLocation: sourceLocation)
        #expect(try exactFiles(a) == exactFiles(b), sourceLocation: sourceLocation)
        #expect(try a.headTree() == b.headTree(), sourceLocation: sourceLocation)
        for device in [a, b] {
            #expect(try device.git(["status", "--porcelain"]).stdout == "", "\(device.name) has changes left",
                    sourceLocation: sourceLocation)
        }
    }

    /// `quire conflicts --json` on `device`: (path, reason) of every record.
    static func conflicts(_ device: Device) throws -> [(path: String, reason: String)] {
        try SyncMergeTests.conflicts(device).map { ($0["path"] as? String ?? "", $0["reason"] as? String ?? "") }
    }

    static let noteA = note("note-a", title: "A", updated: "2026-11-29T10:00:00Z", body: "Note A.\n")
    static let noteB = note("note-b", title: "B", updated: "2026-11-29T10:00:00Z", body: "Note B.\n")
    static let editedB = note("note-b", title: "B", updated: "2026-11-29T11:30:00Z", body: "Note B, edited on b.\n")

    /// Device a moves B away and renames A onto B's old path; device b edits B there. The old
    /// merge paired by path and merged A into B (one note gone); by id, A keeps its new name and
    /// B is moved with b's edit in it.
    @Test func aNoteRenamedOntoAPathTheOtherNoteLeftIsPairedByID() throws {
        let (a, b) = try SyncWorld().pair(["a.md": Self.noteA, "b.md": Self.noteB, "keep.md": Self.keep])
        try a.write(Self.noteB, to: "c.md")
        try a.write(Self.noteA, to: "b.md")
        try a.remove("a.md")
        try b.write(Self.editedB, to: "b.md")
        try Self.converge(a, b)
        #expect(try Self.exactFiles(a).filter { $0.key.hasSuffix(".md") } == ["b.md": Self.noteA, "c.md": Self.editedB, "keep.md": Self.keep])
        #expect(try Self.conflicts(a).isEmpty)
    }

    /// Device a deletes B and renames A onto its path; device b edits B. Both notes stay: b's
    /// edit revives B (modify beats delete), and the note that arrives second at `b.md` is kept
    /// beside it, listed by `quire conflicts`.
    @Test func aNoteRenamedOntoTheNameOfAnEditedNoteKeepsBoth() throws {
        let (a, b) = try SyncWorld().pair(["a.md": Self.noteA, "b.md": Self.noteB, "keep.md": Self.keep])
        try a.write(Self.noteA, to: "b.md")
        try a.remove("a.md")
        try b.write(Self.editedB, to: "b.md")
        try Self.converge(a, b)
        #expect(try Self.exactFiles(a).filter { $0.key.hasSuffix(".md") } == ["b.md": Self.editedB, "b-2.md": Self.noteA, "keep.md": Self.keep])
        let records = try SyncMergeTests.conflicts(b)
        #expect(records.compactMap { $0["path"] as? String }.sorted() == ["b-2.md", "b.md"], "\(records)")
        // The note kept beside shows as what lost its name; the revived note's loser is the
        // deletion (at `b.md` the other side holds note A, which is not its version).
        for record in records {
            let shown = try b.run(["conflicts", "show", try #require(record["id"] as? String)])
            if record["path"] as? String == "b-2.md" {
                #expect(shown.stdout == Self.noteA)
            } else {
                #expect(shown.code == 1 && shown.stdout.isEmpty && shown.stderr.contains("deleted there"), "\(shown)")
            }
        }
    }

    /// A new note added where the other device renamed a different note: both kept, the
    /// incoming one suffixed and listed.
    @Test func aRenameOntoAPathTheOtherSideAddedKeepsBothAndRecordsIt() throws {
        let (a, b) = try SyncWorld().pair(["a.md": Self.noteA, "keep.md": Self.keep])
        let added = note("note-n", title: "New", updated: "2026-11-29T11:00:00Z", body: "New on b.\n")
        try a.write(Self.noteA, to: "n.md")
        try a.remove("a.md")
        try b.write(added, to: "n.md")
        try Self.converge(a, b)
        #expect(try Self.exactFiles(a).filter { $0.key.hasSuffix(".md") } == ["n.md": added, "n-2.md": Self.noteA, "keep.md": Self.keep])
        let records = try Self.conflicts(a)
        #expect(records.map(\.path) == ["n-2.md"], "\(records)")
        let id = try #require(try SyncMergeTests.conflicts(a).first?["id"] as? String)
        #expect(try a.run(["conflicts", "show", id]).stdout == Self.noteA)
    }

    /// A note b renamed (and changed a line of) onto a name a used for a new note of its own,
    /// while a changed the same line: the note is kept beside a's new one (`next-2.md`), the
    /// line b lost is recorded there — and `quire conflicts show` and `restore` bring back b's
    /// version. The record names `next-2.md`, which neither side had, and both said "the note
    /// was deleted there" (soak seed 9246, with long names; notes without ids, as an editor
    /// makes them).
    @Test func aNoteKeptBesideTheFileOnItsNewNameShowsTheVersionThatLost() throws {
        let lines = { (word: String) in "# Plan\n\nalpha beta gamma \(word)\nsecond line here\nthird line stays\n" }
        let (a, b) = try SyncWorld().pair(["keep.md": Self.keep, "plan.md": lines("delta")])
        try b.remove("plan.md")
        try b.write(lines("EPSILON"), to: "next.md")
        try b.sync(now: "2026-11-29T11:00:00Z")
        try a.write(lines("ZETA"), to: "plan.md")
        try a.write("# Other\n\nunrelated words entirely\n", to: "next.md")
        try a.sync(now: "2026-11-29T11:10:00Z")
        #expect(try Self.exactFiles(a).filter { $0.key.hasSuffix(".md") }
            == ["keep.md": Self.keep, "next.md": "# Other\n\nunrelated words entirely\n", "next-2.md": lines("ZETA")])
        let records = try SyncMergeTests.conflicts(a)
        #expect(records.map { $0["path"] as? String } == ["next-2.md", "next-2.md"], "\(records)")
        for record in records {
            let id = try #require(record["id"] as? String)
            let shown = try a.run(["conflicts", "show", id])
            #expect(shown.code == 0 && shown.stdout == lines("EPSILON"), "\(id): \(shown.stdout)\(shown.stderr)")
        }
        let lost = try #require(records.first { ($0["lost"] as? String)?.contains("EPSILON") == true }?["id"] as? String)
        let restored = try a.run(["restore", "next-2.md", "--conflict", lost])
        #expect(restored.code == 0, "\(restored.stderr)")
        #expect(try a.read("next-2.md").contains("EPSILON"))
    }

    /// A note deleted on one device and a new note with another id but nearly the same body (made
    /// from a template) on the same device: git's rename detection paired them, and the other
    /// device's edit of the deleted note was merged into the new one. Ids never pair across.
    @Test func aNewNoteWithAnotherIDIsNeverPairedWithADeletedOne() throws {
        let body = (1...12).map { "Template line \($0) with enough words to look alike.\n" }.joined()
        let old = note("tpl-old", title: "Weekly", updated: "2026-11-29T10:00:00Z", body: body)
        let fresh = note("tpl-new", title: "Weekly", updated: "2026-11-29T11:00:00Z", body: body)
        let edited = note("tpl-old", title: "Weekly", updated: "2026-11-29T11:30:00Z", body: body + "Done on b.\n")
        let (a, b) = try SyncWorld().pair(["weekly.md": old, "keep.md": Self.keep])
        try a.remove("weekly.md")
        try a.write(fresh, to: "weekly-next.md")
        try b.write(edited, to: "weekly.md")
        try Self.converge(a, b)
        #expect(try Self.exactFiles(a).filter { $0.key.hasSuffix(".md") } == ["weekly.md": edited, "weekly-next.md": fresh, "keep.md": Self.keep])
        let records = try Self.conflicts(a)
        #expect(records.map(\.path) == ["weekly.md"], "\(records)")
        #expect(records.first?.reason.contains("deleted on a") == true)
    }

    /// `Projects` a file on one device, a folder of notes on the other: the file was dropped when
    /// the tree was written. Now the file is kept as `Projects-2`, whichever device merges.
    @Test(arguments: [true, false])
    func aFileAndAFolderOfTheSameNameAreBothKept(fileDeviceSyncsFirst: Bool) throws {
        let (a, b) = try SyncWorld().pair(["keep.md": Self.keep])
        let plan = note("plan", title: "Plan", updated: "2026-11-29T11:00:00Z")
        let (fileDevice, folderDevice) = fileDeviceSyncsFirst ? (a, b) : (b, a)
        try fileDevice.write("plain file\n", to: "Projects")
        try folderDevice.write(plan, to: "Projects/plan.md")
        try Self.converge(a, b)
        #expect(try Self.exactFiles(a).filter { !$0.key.hasPrefix(".") }
                == ["Projects-2": "plain file\n", "Projects/plan.md": plan, "keep.md": Self.keep])
        let records = try SyncMergeTests.conflicts(a)
        #expect(records.compactMap { $0["path"] as? String } == ["Projects-2"], "\(records)")
        #expect(records.first?["winner"] as? String == (fileDeviceSyncsFirst ? "ours" : "theirs"))
        let shown = try a.run(["conflicts", "show", try #require(records.first?["id"] as? String)])
        #expect(shown.stdout == "plain file\n", "\(shown)")
    }

    /// An empty folder (git keeps none: made in a file manager, or left by moving its notes out)
    /// where the other device adds a file of that name: the update kept the folder as if it were
    /// the user's edit, and every later sync failed on it. The empty folder gives way.
    @Test func anEmptyFolderGivesWayToAnIncomingFileOfItsName() throws {
        let (a, b) = try SyncWorld().pair(["keep.md": Self.keep])
        try FileManager.default.createDirectory(at: a.root.appendingPathComponent("Projects"), withIntermediateDirectories: false)
        try b.write("plain file\n", to: "Projects")
        try b.sync(now: "2026-11-29T11:59:00Z")
        try Self.converge(a, b)
        #expect(try Self.exactFiles(a).filter { !$0.key.hasPrefix(".") } == ["Projects": "plain file\n", "keep.md": Self.keep])
    }

    /// `café.md` precomposed (NFC) and decomposed (NFD, as macOS writes names): two names to git
    /// and Linux, one on a Mac. Written on two devices, the devices renamed each other's file back
    /// and forth forever and one note was lost; both on one Linux device, a device that
    /// fast-forwarded wrote one over the other and committed the other's deletion. Now both are
    /// kept, the second suffixed, and the devices converge on the same names byte for byte; the
    /// collision a merge finds is listed by `quire conflicts`.
    @Test(arguments: [false, true])
    func namesEqualUnderNFCAreOneCollision(bothOnOneDevice: Bool) throws {
        let precomposed = note("cafe-nfc", title: "Café", updated: "2026-11-29T11:00:00Z", body: "Precomposed.\n")
        let decomposed = note("cafe-nfd", title: "Café", updated: "2026-11-29T11:30:00Z", body: "Decomposed.\n")
        let (files, records) = try Self.twins(("caf\u{E9}.md", precomposed), ("cafe\u{301}.md", decomposed), bothOnOneDevice)
        #expect(files == ["cafe\\u{301}.md": decomposed, "caf\\u{E9}-2.md": precomposed, "keep.md": Self.keep])
        #expect(records.map { Self.escaped($0.path) } == (bothOnOneDevice ? [] : ["caf\\u{E9}-2.md"]), "\(records)")
    }

    /// `plan.md` made on one device (as `quire new` names files) and `Plan.md` on another (as
    /// Obsidian does): two names to git and Linux, one file on a Mac or Windows, where a checkout
    /// writes one over the other. The merge keeps the one that arrives beside the other as
    /// `plan-2.md` and lists it; a pair made on one device is that user's, left as it is
    /// (`quire check` names it).
    @Test(arguments: [false, true])
    func namesThatDifferOnlyInCaseMadeApartAreOneCollision(bothOnOneDevice: Bool) throws {
        let lower = note("plan-lower", title: "plan", updated: "2026-11-29T11:00:00Z", body: "Made on a.\n")
        let upper = note("plan-upper", title: "Plan", updated: "2026-11-29T11:30:00Z", body: "Made on b.\n")
        let (files, records) = try Self.twins(("plan.md", lower), ("Plan.md", upper), bothOnOneDevice)
        #expect(files == (bothOnOneDevice ? ["Plan.md": upper, "plan.md": lower, "keep.md": Self.keep]
                                          : ["Plan.md": upper, "plan-2.md": lower, "keep.md": Self.keep]))
        #expect(records.map(\.path) == (bothOnOneDevice ? [] : ["plan-2.md"]), "\(records)")
        if !bothOnOneDevice {
            #expect(records.first?.reason.contains("a name that differs from it only in letter case") == true, "\(records)")
        }
    }

    /// `Résumé/n.md` with the folder precomposed on one device and decomposed on the other: the
    /// device that fast-forwarded to the merge moved its file into a folder it did not have yet
    /// (the rename failed), called the file the user's edit, and every later sync failed.
    @Test func notesInFoldersEqualUnderNFCConverge() throws {
        let first = note("resume-a", title: "From a", updated: "2026-11-29T11:00:00Z", body: "From a.\n")
        let second = note("resume-b", title: "From b", updated: "2026-11-29T11:30:00Z", body: "From b.\n")
        let (files, records) = try Self.twins(("R\u{E9}sum\u{E9}/n.md", first), ("Re\u{301}sume\u{301}/n.md", second), false)
        #expect(files == ["Re\\u{301}sume\\u{301}/n.md": second, "R\\u{E9}sum\\u{E9}/n-2.md": first, "keep.md": Self.keep])
        #expect(records.map { Self.escaped($0.path) } == ["R\\u{E9}sum\\u{E9}/n-2.md"], "\(records)")
    }

    /// A twin pair on one device — `né.md` precomposed, which b changes, and `né.md` decomposed,
    /// new on a — merged with b's change: the update writes the pair as `né.md` and `né-2.md`,
    /// both precomposed, by renaming each. It died after its writes (`after-work-tree-writes`),
    /// and the replay renamed the precomposed name again, by then holding the other note, over
    /// the `né-2.md` the first pass had made: both files held one note and the other was gone
    /// (`soak.sh`, seed 6000, with notes of no id as here). Now nothing is renamed over a file:
    /// every line is still there, in two different files, on both devices.
    @Test(arguments: ["after-work-tree-writes:kill", "before-checkout:kill"])
    func aReplayedUpdateNeverRenamesATwinOverTheOther(fault: String) throws {
        let (a, b) = try SyncWorld().pair(["keep.md": Self.keep, "n\u{E9}.md": "X\ntokX\n"])
        try b.write("X\ntokX\ntokB\n", to: "n\u{E9}.md")
        try b.sync(now: "2026-11-29T11:00:00Z")
        try a.write("Z\ntokZ\n", to: "ne\u{301}.md")
        let crashed = try a.run(["sync"], now: "2026-11-29T11:10:00Z", environment: ["QUIRE_FAULT": fault])
        try #require(crashed.code != 0, "the sync was not stopped at \(fault)")
        try Self.converge(a, b)
        let notes = try Self.exactFiles(a).filter { $0.key.hasPrefix("n") }
        #expect(notes.count == 2, "\(notes)")
        #expect(Set(notes.values).count == 2, "two files hold one note: \(notes)")
        for token in ["tokX", "tokZ", "tokB"] {
            #expect(notes.values.contains { $0.contains(token) }, "\(token) is gone: \(notes)")
        }
    }

    /// `né.md` precomposed, a note of no id both devices have, changed on b; on a, a new note
    /// `né.md` decomposed beside it. The merge took the first name in byte order, the new twin,
    /// for the note the base knows, and merged b's change with it as one note: one of the two
    /// texts was dropped, and `quire conflicts show` printed the other twin (`soak.sh`, seed 6080).
    /// The twin spelled as the base spells it is that note; the new one is a new note: every
    /// line is kept, with no collision, and the devices converge.
    @Test func aTwinNewOnOneDeviceIsANewNoteNotAnEditOfTheOther() throws {
        let (a, b) = try SyncWorld().pair(["keep.md": Self.keep, "n\u{E9}.md": "# N\n\ntokX\n"])
        try b.write("# N\n\ntokX tokB\n", to: "n\u{E9}.md")
        try b.sync(now: "2026-11-29T11:00:00Z")
        try a.write("# N\n\ntokZ\n", to: "ne\u{301}.md")
        let merged = try a.sync(now: "2026-11-29T11:10:00Z")
        #expect(!merged.stdout.contains("collision"), "\(merged.stdout)")
        try Self.converge(a, b)
        let notes = try Self.exactFiles(a).filter { $0.key.hasPrefix("n") }
        #expect(notes["n\\u{E9}.md"] == "# N\n\ntokX tokB\n", "\(notes)")
        #expect(notes.count == 2 && notes.values.contains("# N\n\ntokZ\n"), "\(notes)")
        #expect(try Self.conflicts(a).isEmpty)
    }

    /// The record of such a merge made before that fix names the base's spelling (`né.md`
    /// precomposed), whose version on the losing side is the base's note, not the new twin whose
    /// text was dropped: `quire conflicts show` printed the other twin. The merge is made here
    /// as that version made it (git's plumbing, its trailer as written then); the twin holding
    /// the dropped words is the version shown and restored.
    @Test func anOldRecordOfATwinShowsTheTwinThatLost() throws {
        let (a, _) = try SyncWorld().pair(["keep.md": Self.keep, "n\u{E9}.md": "# N\n\ntokX\n"])
        func git(_ arguments: [String]) throws -> String {
            let run = try a.git(arguments)
            try #require(run.code == 0, "git \(arguments): \(run.stderr)")
            return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let base = try git(["rev-parse", "HEAD"])
        try a.write("# N\n\ntokZ\n", to: "ne\u{301}.md")
        _ = try git(["add", "-A"])
        _ = try git(["commit", "-q", "-m", "a adds the decomposed twin"])
        let ours = try git(["rev-parse", "HEAD"])
        _ = try git(["reset", "-q", "--hard", base])
        try a.write("# N\n\ntokX tokB\n", to: "n\u{E9}.md")
        _ = try git(["commit", "-q", "-am", "b edits the precomposed one"])
        let theirs = try git(["rev-parse", "HEAD"])
        try a.write("# N\n\ntokX\n", to: "n\u{E9}-2.md")
        _ = try git(["add", "-A"])
        let tree = try git(["write-tree"])
        let message = "quire sync on a: merged the changes of b\n\nQuire-Device: a\n"
            + "Quire-Conflict: winner=theirs lost=line%203:%20tokZ%0A path=n%C3%A9.md reason=both sides changed the same words "
            + "(line 3: 'tokZ' from a lost to 'tokX tokB' from b); b's version is newer\n"
        let merge = try git(["commit-tree", tree, "-p", ours, "-p", theirs, "-m", message])
        _ = try git(["reset", "-q", "--hard", merge])
        let records = try SyncMergeTests.conflicts(a)
        try #require(records.count == 1, "\(records)")
        let id = try #require(records[0]["id"] as? String)
        let shown = try a.run(["conflicts", "show", id])
        #expect(shown.code == 0, "\(shown.stderr)")
        #expect(shown.stdout == "# N\n\ntokZ\n", "\(shown.stdout)")
        let restored = try a.run(["restore", "n\u{E9}.md", "--conflict", id])
        #expect(restored.code == 0, "\(restored.stderr)")
        #expect(try a.read("n\u{E9}.md").contains("tokZ"))
    }

    /// Device a writes `first`; a (`bothOnOneDevice`) or b writes `second`; both converge. Returns
    /// a's notes by escaped name and the conflicts listed.
    static func twins(_ first: (name: String, text: String), _ second: (name: String, text: String),
                      _ bothOnOneDevice: Bool) throws -> (files: [String: String], records: [(path: String, reason: String)]) {
        let (a, b) = try SyncWorld().pair(["keep.md": Self.keep])
        try a.write(first.text, to: first.name)
        try (bothOnOneDevice ? a : b).write(second.text, to: second.name)
        try Self.converge(a, b)
        return (try Self.exactFiles(a).filter { $0.key.hasSuffix(".md") }, try Self.conflicts(a))
    }
}
