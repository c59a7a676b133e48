import Foundation
import Testing

/// Trees from the remote that no device may write as they are (issue 13, item 14): paths under
/// `.git` in any spelling a file system takes for it, `..`, and this device's own state. The
/// entry is refused and reported by `quire sync`, `quire status` and `quire conflicts`; the rest
/// syncs, and every later sync works.
@Suite(.serialized) struct SyncHostileTreeTests {
    /// Paths a hostile client pushes beside an ordinary note.
    static let hostile: [String: HostileTree.Entry] = [
        ".git/hooks/post-merge": .init(mode: "100755", content: "#!/bin/sh\ntouch \"$HOME/pwned\"\n"),
        ".GIT/config": .init(mode: "100644", content: "[core]\n\tfsmonitor = touch pwned\n"),
        ".git./hooks/pre-commit": .init(mode: "100755", content: "#!/bin/sh\nexit 1\n"),
        "git~1/hooks/post-checkout": .init(mode: "100755", content: "#!/bin/sh\nexit 1\n"),
        "Notes/.g\u{200C}it/hooks/post-merge": .init(mode: "100755", content: "#!/bin/sh\nexit 1\n"),
        "Notes/..\\x.md": .init(mode: "100644", content: "climbs on NTFS\n"),
        ".quire/local/config.yml": .init(mode: "100644", content: "sshKey: /tmp/attacker\n"),
        ".git /hooks/post-merge": .init(mode: "100755", content: "#!/bin/sh\nexit 1\n"),
        "Docs/.Git::$INDEX_ALLOCATION/hooks/post-merge": .init(mode: "100755", content: "#!/bin/sh\nexit 1\n"),
        "incoming.md": .init(mode: "100644", content: note("in", title: "Incoming", updated: "2026-11-29T11:00:00Z")),
    ]

    /// Names that only look like those: synced as any file.
    static let lookalikes = [".github/workflows/notes.yml", "notes.git.md", "git~2.md", "Docs/.gitkeep"]

    static let refusedPaths = hostile.keys.filter { $0 != "incoming.md" }.sorted()

    @Test func refusedEntriesNeverReachTheVaultAndTheRestSyncs() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["ok.md": note("ok", title: "OK", updated: "2026-11-29T10:00:00Z")])
        var entries = Self.hostile
        for path in Self.lookalikes { entries[path] = .init(mode: "100644", content: "kept: \(path)\n") }
        // A broken tree: `sneaky` is a link into `.git` and, beside it, a folder of the same name.
        entries["sneaky/post-merge"] = .init(mode: "100755", content: "#!/bin/sh\nexit 1\n")
        try HostileTree(bare: world.bare).commit(entries, beside: ["sneaky": .init(mode: "120000", content: ".git/hooks")])
        // b has nothing new: a fast-forward; a has an edit of its own: a merge.
        try a.write(note("ok", title: "OK", updated: "2026-11-29T11:30:00Z", body: "Edited on a.\n"), to: "ok.md")
        for (device, options) in [(a, ["--no-push"]), (b, [])] {
            let synced = try device.sync(options)
            for path in Self.refusedPaths + ["sneaky/post-merge"] {
                #expect(synced.stdout.contains("warning: skipped \(path): refused from the remote"),
                        "\(device.name) does not report \(path): \(synced.stdout)")
            }
            #expect(try device.read("incoming.md").contains("Incoming"))
            for path in Self.lookalikes { #expect(try device.read(path) == "kept: \(path)\n") }
            #expect(!device.exists(".git /hooks") && !device.exists("Docs/.Git::$INDEX_ALLOCATION"))
            #expect(!device.exists(".git/hooks/post-merge") && !device.exists(".GIT/config") && !device.exists(".git.")
                    && !device.exists("git~1") && !device.exists("Notes/.g\u{200C}it") && !device.exists("Notes/..\\x.md"))
            let local = (try? device.read(".quire/local/config.yml")) ?? ""
            #expect(!local.contains("attacker"))
            let status = try device.run(["status"])
            #expect(status.stdout.contains("warning: the last sync skipped .git/hooks/post-merge: refused from the remote"),
                    "\(status.stdout)")
            let conflicts = try device.run(["conflicts", "--json"])
            let records = try #require(try JSONSerialization.jsonObject(with: Data(conflicts.stdout.utf8)) as? [[String: Any]])
            #expect(Set(Self.refusedPaths).isSubset(of: Set(records.compactMap { $0["path"] as? String })), "\(conflicts.stdout)")
            let tracked = try device.git(["ls-files", "-z"]).stdout.split(separator: "\0").map(String.init)
            #expect(Set(tracked).isDisjoint(with: Self.refusedPaths), "\(tracked)")
        }
        // Nothing is blocked: both devices keep syncing, and converge.
        try b.write(note("later", title: "Later", updated: "2026-11-29T12:10:00Z"), to: "later.md")
        try b.sync()
        let again = try a.sync()
        #expect(!again.stdout.contains("warning: skipped"), "\(again.stdout)")
        try b.sync()
        #expect(try a.files() == b.files())
        #expect(try a.read("ok.md").contains("Edited on a."))
        #expect(try world.git(["ls-tree", "-r", "--name-only", "main"]).stdout
            .split(separator: "\n").allSatisfy { !Self.refusedPaths.contains(String($0)) })
    }

    @Test func aVaultStartedApartRefusesTheSameEntries() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["ok.md": note("ok", title: "OK", updated: "2026-11-29T10:00:00Z")])
        try HostileTree(bare: world.bare).commit(Self.hostile)
        // A vault started apart, whose first sync merges the remote's history into its own.
        let root = world.folder("c")
        try #require(try Harness.run(["init", root.path], in: world.directory).code == 0)
        let c = Device(name: "c", vault: TestVault(existing: root))
        try #require(try c.run(["remote", "--replace", world.remoteURL]).code == 0)
        let synced = try c.sync()
        #expect(synced.stdout.contains("warning: skipped .git/hooks/post-merge"), "\(synced.stdout)")
        #expect(try c.read("incoming.md").contains("Incoming") && c.exists("ok.md"))
        #expect(!c.exists(".git/hooks/post-merge"))
        try a.sync()
        #expect(try a.files() == c.files())
    }

    @Test func aCloneLeavesTheRefusedEntriesOut() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["ok.md": note("ok", title: "OK", updated: "2026-11-29T10:00:00Z")])
        try HostileTree(bare: world.bare).commit(Self.hostile)
        let cloned = try Harness.run(["clone", world.remoteURL, "c"], in: world.directory, environment: ["QUIRE_DEVICE": "c"])
        #expect(cloned.code == 0, "\(cloned.stderr)")
        #expect(cloned.stdout.contains("warning: skipped .git/hooks/post-merge: refused from the remote"), "\(cloned.stdout)")
        let c = Device(name: "c", vault: TestVault(existing: world.folder("c")))
        #expect(try c.read("incoming.md").contains("Incoming") && c.exists("ok.md"))
        #expect(!c.exists(".git/hooks/post-merge") && !c.exists(".git.") && !c.exists("git~1"))
        let porcelain = try c.git(["status", "--porcelain"]).stdout
        #expect(porcelain.isEmpty, "\(porcelain)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(c.run(["conflicts", "--json"]).stdout.utf8)) as? [[String: Any]])
        #expect(Set(Self.refusedPaths).isSubset(of: Set(records.compactMap { $0["path"] as? String })))
        try c.sync()
        try a.sync()
        #expect(try a.files() == c.files())
    }

    @Test func conflictsShowPrintsTheRefusedVersion() throws {
        let world = try SyncWorld()
        let (_, b) = try world.pair(["ok.md": note("ok", title: "OK", updated: "2026-11-29T10:00:00Z")])
        try HostileTree(bare: world.bare).commit([".git/hooks/post-merge": .init(mode: "100755", content: "#!/bin/sh\necho hook\n")])
        try b.sync()
        let list = try b.run(["conflicts", "--json"])
        let records = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        let record = try #require(records.first { $0["path"] as? String == ".git/hooks/post-merge" })
        let shown = try b.run(["conflicts", "show", try #require(record["id"] as? String)])
        #expect(shown.code == 0 && shown.stdout.contains("echo hook"), "\(shown.stdout) \(shown.stderr)")
    }
}
