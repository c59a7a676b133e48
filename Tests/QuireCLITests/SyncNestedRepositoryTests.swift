import Foundation
import Testing

/// A git repository inside the vault (issue 13, item 16): a folder with its own `.git`, or a
/// submodule entry pushed by the git CLI. It is skipped with a warning by `quire sync` and
/// `quire status`; everything else syncs.
@Suite(.serialized) struct SyncNestedRepositoryTests {
    /// A repository made with `git init` at `path` of `device`'s vault, holding `file` (uncommitted).
    @discardableResult
    static func repository(_ path: String, in device: Device, file: String, text: String) throws -> URL {
        let folder = device.root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #require(try gitCLI(["init", "-q", "-b", "main"], in: folder).code == 0)
        try Harness.write(text, to: folder.appendingPathComponent(file))
        return folder
    }

    @Test func aFolderWithItsOwnGitIsSkippedAndTheRestSyncs() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["ok.md": note("ok", title: "OK", updated: "2026-11-29T10:00:00Z")])
        // A project cloned into the vault, with a commit of its own, and a repository without commits.
        let project = try Self.repository("Code/project", in: a, file: "README.md", text: "# Project\n")
        try #require(try gitCLI(["add", "README.md"], in: project).code == 0)
        try #require(try gitCLI(["commit", "-q", "-m", "one"], in: project).code == 0)
        try Self.repository("scratch", in: a, file: "todo.txt", text: "not committed there yet\n")
        try a.write(note("new", title: "New", updated: "2026-11-29T11:00:00Z"), to: "Code/new.md")
        try a.write(note("ok", title: "OK", updated: "2026-11-29T11:00:00Z", body: "Edited.\n"), to: "ok.md")
        for round in 1...2 {
            let synced = try a.sync()
            #expect(synced.stdout.contains("warning: skipped Code/project/: a git repository of its own"), "round \(round): \(synced.stdout)")
            #expect(synced.stdout.contains("warning: skipped scratch/: a git repository of its own"), "round \(round): \(synced.stdout)")
            let status = try a.run(["status"])
            #expect(status.stdout.contains("warning: the last sync skipped Code/project/: a git repository of its own"), "\(status.stdout)")
            // Skipped, so never "uncommitted": nothing waits that a sync would commit.
            let json = try a.run(["status", "--json"])
            #expect(!json.stdout.contains("\"A Code/project/\"") && !json.stdout.contains("\"A scratch/\""), "\(json.stdout)")
        }
        // Nor does a dry run say it would commit them.
        let dry = try a.run(["sync", "--dry-run"])
        #expect(!dry.stdout.contains("scratch/") && !dry.stdout.contains("Code/project/"), "\(dry.stdout)")
        try b.sync()
        #expect(try b.read("Code/new.md").contains("New"))
        #expect(try b.read("ok.md").contains("Edited."))
        #expect(!b.exists("Code/project") && !b.exists("scratch"))
        // The nested repository is untouched and not in the vault's history.
        #expect(try gitCLI(["log", "--oneline"], in: project).stdout.contains("one"))
        #expect(try world.git(["ls-tree", "-r", "--name-only", "main"]).stdout.split(separator: "\n").allSatisfy {
            !$0.hasPrefix("Code/project") && !$0.hasPrefix("scratch")
        })
    }

    @Test func anIncomingSubmoduleIsSkippedAndTheRestSyncs() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["ok.md": note("ok", title: "OK", updated: "2026-11-29T10:00:00Z")])
        let commit = try world.git(["rev-parse", "main"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try HostileTree(bare: world.bare).commit([
            "lib/theme": .init(mode: "160000", content: commit),
            "incoming.md": .init(mode: "100644", content: note("in", title: "Incoming", updated: "2026-11-29T11:00:00Z")),
        ])
        try a.write(note("ok", title: "OK", updated: "2026-11-29T11:30:00Z", body: "Edited on a.\n"), to: "ok.md")
        for device in [b, a] {
            let synced = try device.sync()
            #expect(synced.stdout.contains("warning: skipped lib/theme: a git repository of its own"), "\(device.name): \(synced.stdout)")
            #expect(try device.read("incoming.md").contains("Incoming"))
            let again = try device.sync()
            #expect(again.code == 0)
        }
        try b.sync()
        #expect(try a.files() == b.files())
        #expect(try b.read("ok.md").contains("Edited on a."))
        // The entry stays in the shared tree for the git CLI (quire neither checks it out nor drops it).
        #expect(try world.git(["ls-tree", "-r", "main"]).stdout.contains("160000 commit \(commit)\tlib/theme"))
    }

    @Test func notesIncomingIntoAFolderThatIsARepositoryHereStayOutOfIt() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["ok.md": note("ok", title: "OK", updated: "2026-11-29T10:00:00Z")])
        try Self.repository("Code/project", in: b, file: "secret.txt", text: "private\n")
        let incoming = note("notes", title: "Notes", updated: "2026-11-29T11:00:00Z")
        try a.write(incoming, to: "Code/project/notes.md")
        try a.sync()
        for round in 1...2 {
            let synced = try b.sync()
            #expect(synced.stdout.contains("warning: skipped Code/project/notes.md: its folder Code/project/ is a git repository of its own"),
                    "round \(round): \(synced.stdout)")
            #expect(!b.exists("Code/project/notes.md"))
        }
        let tree = try world.git(["ls-tree", "-r", "--name-only", "main"]).stdout
        #expect(tree.contains("Code/project/notes.md") && !tree.contains("secret.txt"), "\(tree)")
        try a.sync()
        #expect(try a.read("Code/project/notes.md") == incoming)
    }
}
