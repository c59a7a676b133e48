import Foundation
import QuireCore
import Testing

@Suite("quire migrate, format versions")
struct MigrationTests {
    /// A committed copy of SampleVault set back to format version 1.
    static func oldSampleVault() throws -> TestVault {
        let root = try Harness.copySampleVault()
        let vault = TestVault(existing: root)
        try vault.write(try vault.read(".quire/config.yml").replacingOccurrences(of: "version: 4\n", with: "version: 1\n"),
                        to: ".quire/config.yml")
        #expect(try Harness.run(["init"], in: root).code == 0)
        try vault.commitAll()
        return vault
    }

    static let notice = "quire: note: this vault's format is version 1; 'quire migrate' brings it to version 4"
        + " ('quire migrate --dry-run' shows the changes)\n"

    @Test func sampleVaultOddNotesMigrateSurgicallyAsOneCommit() throws {
        let vault = try Self.oldSampleVault()
        let list = try vault.run(["list", "--paths"])
        #expect(list.code == 0)
        #expect(list.stderr == Self.notice)

        let before = try TestVault.snapshot(vault.root)
        let dry = try vault.run(["migrate", "--dry-run"])
        #expect(dry.code == 0)
        #expect(dry.stdout.contains("""
        --- a/Pitches/braintrust-notes.md
        +++ b/Pitches/braintrust-notes.md
        @@ -2,8 +2,8 @@
         id: 493efff3-8211-4ff5-9455-41084d8e6816
         title: Braintrust notes
         desc: Running log of feedback from Braintrust sessions across all five projects
        -updated: 1770000000000
        -created: 1767225600000
        +updatedAt: 2026-02-02T02:40:00+00:00
        +createdAt: 2026-01-01T00:00:00+00:00
         ---
        """))
        #expect(dry.stdout.contains("-version: 1\n+version: 4\n"))
        #expect(dry.stderr == "dry run: version 1 → 4, 4 files would change; nothing written\n")
        #expect(try TestVault.snapshot(vault.root) == before)

        let run = try vault.run(["migrate"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("migrated the vault from version 1 to 4 (4 files changed, commit "))
        #expect(run.stdout.hasSuffix("\n  legacy-dates: 3 notes\n  tags: 0 notes\n  ids: 2 notes\n"))
        let habits = try vault.read("writing-habits.md")
        #expect(habits.hasPrefix("---\ncreatedAt: 2026-01-04 10:22\nupdatedAt: 2026-02-11 16:05\ntags: writing, obsidian\naliases: [habits, routine]\nid: "))
        // Only the changed lines differ: every other line of every note is as it was.
        let after = try TestVault.snapshot(vault.root)
        for (path, data) in before where path.hasSuffix(".md") {
            let old = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
            let new = String(decoding: after[path] ?? Data(), as: UTF8.self).components(separatedBy: "\n")
            let changed = Set(new).symmetricDifference(Set(old)).filter {
                !($0.hasPrefix("id: ") || $0.hasPrefix("createdAt: ") || $0.hasPrefix("updatedAt: ")
                  || $0.hasPrefix("created: ") || $0.hasPrefix("updated: ") || $0.hasPrefix("modified: ") || $0.hasPrefix("date: "))
            }
            #expect(changed.isEmpty, "\(path): \(changed)")
        }
        // One commit, listing the migrations, and a clean work tree.
        let message = try vault.gitOutput(["log", "-1", "--format=%B"])
        #expect(message.hasPrefix("quire migrate on laptop: vault format 1 → 4\n\nlegacy-dates (version 2): 3 notes — "))
        #expect(message.contains("\nids (version 4): 2 notes — "))
        #expect(message.contains("\nM .quire/config.yml\n"))
        #expect(try vault.gitOutput(["status", "--porcelain"]) == "")
        #expect(try vault.gitOutput(["rev-list", "--count", "HEAD"]) == "2\n")

        // No more notice; a second run has nothing to do; the steps again change nothing.
        #expect(try vault.run(["list", "--paths"]).stderr == "")
        #expect(try vault.run(["migrate"]).stdout == "the vault's format is up to date (version 4)\n")
        let migrated = try TestVault.snapshot(vault.root)
        try vault.write(try vault.read(".quire/config.yml").replacingOccurrences(of: "version: 4\n", with: "version: 1\n"),
                        to: ".quire/config.yml")
        let again = try vault.run(["migrate", "--json"])
        #expect(again.stdout.contains("\"changed\": [\n    \".quire/config.yml\"\n  ]"))
        #expect(try TestVault.snapshot(vault.root).filter { $0.key.hasSuffix(".md") } == migrated.filter { $0.key.hasSuffix(".md") })
    }

    static let corpora = FileManager.default.fileExists(
        atPath: Harness.packageRoot.appendingPathComponent("Tests/Corpora/dendron-site/vault").path)

    /// A real-shaped vault: the Dendron corpus (1,000 notes with epoch-ms dates, ids, nested
    /// keys) and the Hugo one (dates, categories/keywords, aliases) side by side, committed at
    /// version 1. After the migration every note reads the same (same second for dates, same
    /// tags, same body, every other key equal), has an id, and a second run changes no note.
    @Test(.enabled(if: corpora, "needs the vendored corpora in Tests/Corpora"))
    func realShapedVaultMigratesWithoutChangingWhatNotesSay() throws {
        let vault = try TestVault()
        try vault.write(try vault.read(".quire/config.yml").replacingOccurrences(of: "version: 4\n", with: "version: 1\n"),
                        to: ".quire/config.yml")
        let corpora = Harness.packageRoot.appendingPathComponent("Tests/Corpora")
        try FileManager.default.copyItem(at: corpora.appendingPathComponent("dendron-site/vault"), to: vault.url("dendron"))
        try FileManager.default.copyItem(at: corpora.appendingPathComponent("hugo-docs/content"), to: vault.url("hugo"))
        try vault.commitAll()
        let before = try TestVault.snapshot(vault.root).filter { $0.key.hasSuffix(".md") && !$0.key.hasPrefix(".") }
        let run = try vault.run(["migrate"])
        #expect(run.code == 0, "\(run.stderr)")
        let after = try TestVault.snapshot(vault.root)
        let utc = TimeZone(identifier: "UTC") ?? .current
        let renamed: Set<String> = ["created", "updated", "date", "modified", "lastmod", "mtime"]
        var withoutID = 0
        for (path, data) in before {
            let old = NoteParser.parse(data, path: path, timeZone: utc)
            let new = NoteParser.parse(after[path] ?? Data(), path: path, timeZone: utc)
            #expect(new.body == old.body, "\(path)")
            #expect(new.title == old.title, "\(path)")
            #expect(old.createdAt.map { $0.timeIntervalSince1970.rounded(.down) } == new.createdAt.map { $0.timeIntervalSince1970.rounded(.down) }, "\(path)")
            #expect(old.updatedAt.map { $0.timeIntervalSince1970.rounded(.down) } == new.updatedAt.map { $0.timeIntervalSince1970.rounded(.down) }, "\(path)")
            var seen = Set<String>()
            #expect(new.tags == old.tags.filter { seen.insert($0.lowercased()).inserted }, "\(path)")
            for entry in old.frontMatter where !renamed.contains(entry.key) && entry.key != "tags" {
                #expect(new.frontMatter.first { $0.key == entry.key }?.value == entry.value, "\(path): \(entry.key)")
            }
            if old.format == .yaml && old.problems.isEmpty && new.id == nil { withoutID += 1 }
        }
        #expect(withoutID == 0)
        #expect(try vault.gitOutput(["status", "--porcelain"]) == "")
        try vault.write(try vault.read(".quire/config.yml").replacingOccurrences(of: "version: 4\n", with: "version: 1\n"),
                        to: ".quire/config.yml")
        let again = try vault.run(["migrate", "--dry-run"])
        #expect(again.stderr == "dry run: version 1 → 4, 1 file would change; nothing written\n")
    }

    /// The migration commits only its own change of each committed file: the user's staged
    /// files stay staged (migrated), unfinished edits stay unstaged, an untracked note is
    /// migrated in the work tree and stays untracked.
    @Test func migrateCommitsOnlyItsOwnChanges() throws {
        let vault = try Self.vault(atVersion: 3)
        try vault.write("---\ntitle: A\n---\nbody\n", to: "a.md")
        try vault.write("---\ntitle: B\n---\nb\n", to: "b.md")
        try vault.commitAll()
        try vault.write("---\ntitle: A\n---\nbody\nhalf-written paragraph\n", to: "a.md")
        try vault.write("not ready\n", to: "staged.md")
        try vault.write("---\ntitle: B\n---\nb, staged edit\n", to: "b.md")
        try vault.write("---\ntitle: New\n---\nnew\n", to: "new.md")
        #expect(try vault.git(["add", "staged.md", "b.md"]) == 0)
        let run = try vault.run(["migrate"])
        #expect(run.code == 0, "\(run.stderr)")
        let committed = try vault.gitOutput(["show", "--name-status", "--format=", "HEAD"])
        #expect(committed == "M\t.quire/config.yml\nM\ta.md\nM\tb.md\n", "\(committed)")
        let a = try vault.gitOutput(["show", "HEAD:a.md"])
        #expect(a.hasPrefix("---\ntitle: A\nid: ") && a.hasSuffix("---\nbody\n"), "\(a)")
        #expect(try vault.gitOutput(["show", "HEAD:b.md"]).hasSuffix("---\nb\n"))
        #expect(try vault.gitOutput(["status", "--short"]) == " M a.md\nM  b.md\nA  staged.md\n?? new.md\n")
        #expect(try vault.gitOutput(["diff", "--cached", "--stat"]).contains("2 files changed, 2 insertions(+), 1 deletion(-)"))
        #expect(try vault.gitOutput(["diff"]).hasSuffix(" body\n+half-written paragraph\n"))
        #expect(try vault.read("a.md").hasSuffix("---\nbody\nhalf-written paragraph\n"))
        #expect(try vault.read("new.md").hasPrefix("---\ntitle: New\nid: "), "an untracked note is migrated too")
        #expect(try vault.gitOutput(["show", ":b.md"]).contains("\nid: "), "the staged version is migrated")
        #expect(try vault.gitOutput(["show", "--format=%B", "-s", "HEAD"]).contains("\n\nM a.md\nM b.md\nM .quire/config.yml\n\n"))
    }

    /// A new vault whose configuration says format `version`.
    static func vault(atVersion version: Int) throws -> TestVault {
        let vault = try TestVault()
        try vault.write(try vault.read(".quire/config.yml").replacingOccurrences(of: "version: 4\n", with: "version: \(version)\n"),
                        to: ".quire/config.yml")
        return vault
    }

    @Test func tagsNormalisedAndUnreadableNotesLeftAlone() throws {
        let vault = try Self.vault(atVersion: 1)
        try vault.write("---\ntitle: T\ntags: [' Work', work, '#Home', home, x]  # kept comment\n---\nBody\n", to: "t.md")
        try vault.write("---\ntitle: S\ntags: \"#a, #A,  #b \"\nmtime: 1700000000\n---\n", to: "s.md")
        try vault.write("+++\ntitle = \"toml\"\ndate = 2024-01-01\n+++\nBody\n", to: "toml.md")
        try vault.write("---\ntitle: [broken\n---\nBody\n", to: "broken.md")
        try vault.write("No front matter at all.\n", to: "plain.md")
        try vault.commitAll()
        let run = try vault.run(["migrate"])
        #expect(run.code == 0)
        // Each step is credited with its own changes (the dates step used to tidy the tags too).
        #expect(run.stdout.contains("  legacy-dates: 1 note\n  tags: 2 notes\n"), "\(run.stdout)")
        #expect(run.stderr.contains("quire: warning: toml.md left as it is: TOML front matter is read-only\n"))
        #expect(run.stderr.contains("quire: warning: broken.md left as it is: the front matter is unreadable\n"))
        let t = try vault.read("t.md")
        #expect(t.hasPrefix("---\ntitle: T\ntags: [Work, Home, x]  # kept comment\nid: "))
        #expect(try vault.read("s.md").hasPrefix("---\ntitle: S\ntags: \"#a, #b\"\nupdatedAt: 2023-11-14T22:13:20+00:00\nid: "))
        #expect(try vault.read("toml.md") == "+++\ntitle = \"toml\"\ndate = 2024-01-01\n+++\nBody\n")
        #expect(try vault.read("broken.md") == "---\ntitle: [broken\n---\nBody\n")
        #expect(try vault.read("plain.md") == "No front matter at all.\n")

        // A vault without a configuration file is at version 1: migrating writes one.
        try FileManager.default.removeItem(at: vault.url(".quire/config.yml"))
        #expect(try vault.run(["list", "--paths"]).stderr.hasPrefix("quire: note: this vault's format is version 1;"))
        #expect(try vault.run(["migrate"]).code == 0)
        #expect(try vault.read(".quire/config.yml").contains("\nversion: 4\n"))
        #expect(!(try vault.run(["list", "--paths"]).stderr.contains("quire: note:")))
    }

    @Test func anOlderQuireRefusesToWriteANewerVault() throws {
        let vault = try TestVault()
        try vault.write("---\ntitle: A\n---\nBody\n", to: "a.md")
        try vault.write(try vault.read(".quire/config.yml").replacingOccurrences(of: "version: 4\n", with: "version: 9\n"),
                        to: ".quire/config.yml")
        let before = try TestVault.snapshot(vault.root)
        let refused = "quire: error: this vault's format is version 9, newer than this quire knows (4); nothing was written\n"
            + "hint: a newer quire migrated this vault: update quire on this device (read commands still work)\n"
        for arguments in [["new", "B"], ["set", "a.md", "mood=3"], ["migrate"], ["import", "../x.json"], ["tag", "a.md", "x"]] {
            if arguments[0] == "import" { try vault.write("[{\"title\": \"X\"}]", to: "../x.json") }
            let run = try vault.run(arguments)
            #expect(run.code == 1, "\(arguments)")
            #expect(run.stderr == refused, "\(arguments)")
        }
        let list = try vault.run(["list", "--paths"])
        #expect(list.code == 0)
        #expect(list.stdout == "a.md\n")
        #expect(try TestVault.snapshot(vault.root).filter { !$0.key.hasPrefix(".quire/local/") } == before.filter { !$0.key.hasPrefix(".quire/local/") })
    }

    @Test func twoDevicesMigratingAtOnceConverge() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: [
            "one.md": "---\ntitle: One\nmodified: 1700000000000\ntags: [x, X]\n---\nOne.\n",
            "two.md": "---\ntitle: Two\ndate: 2024-02-03\n---\nTwo.\n",
        ])
        try a.write(try a.read(".quire/config.yml").replacingOccurrences(of: "version: 4\n", with: "version: 1\n"),
                    to: ".quire/config.yml")
        try a.sync()
        let b = try world.clone("b")
        #expect(try b.run(["migrate"], now: "2026-11-30T08:00:00Z").code == 0)
        #expect(try a.run(["migrate"], now: "2026-11-30T09:00:00Z").code == 0)
        // b edits a note after migrating; both sync twice.
        try b.write(try b.read("two.md").replacingOccurrences(of: "Two.\n", with: "Two, edited.\n"), to: "two.md")
        try a.sync(now: "2026-11-30T10:00:00Z")
        try b.sync(now: "2026-11-30T10:01:00Z")
        try a.sync(now: "2026-11-30T10:02:00Z")
        #expect(try a.headTree() == b.headTree())
        #expect(try a.files() == b.files())
        let one = try a.read("one.md")
        #expect(one.hasPrefix("---\ntitle: One\nupdatedAt: 2023-11-14T22:13:20+00:00\ntags: [x]\nid: "))
        #expect(one.components(separatedBy: "\nid: ").count == 2)
        #expect(try a.read(".quire/config.yml").contains("\nversion: 4\n"))
        #expect(try a.read("two.md").contains("createdAt: 2024-02-03\n"))
        #expect(try a.read("two.md").hasSuffix("Two, edited.\n"))
        #expect(try a.run(["conflicts", "--json"]).stdout == "[]\n")
    }
}

extension TestVault {
    /// The standard output of the git CLI in the vault.
    func gitOutput(_ arguments: [String]) throws -> String {
        try gitCLI(arguments, in: root).stdout
    }
}
