import Foundation
import Testing

/// Paths named by the synced `.quire/config.yml` (issue 32, class 3): another device's
/// `daily.folder: .git/info` (or `..`, an absolute path, `.quire/local`, a hidden folder, a
/// format climbing out) arrives by sync; `quire daily` refuses it, naming the key, and writes
/// nothing anywhere.
@Suite(.serialized) struct SyncConfigPathTests {
    static let hostile: [(daily: String, key: String)] = [
        ("folder: .git/info", "daily.folder '.git/info' is a path inside a git folder"),
        ("folder: .GIT/hooks", "daily.folder '.GIT/hooks' is a path inside a git folder"),
        ("folder: .quire/local/journal", "daily.folder '.quire/local/journal' is this device's own state"),
        ("folder: .quire/notes", "daily.folder '.quire/notes' is in a hidden folder (`.quire`)"),
        ("folder: Notes/.secret", "daily.folder 'Notes/.secret' is in a hidden folder (`.secret`)"),
        ("folder: ../outside", "daily.folder '../outside' is a path that climbs out of its folder"),
        ("folder: /tmp", "daily.folder '/tmp' is an absolute path"),
        ("format: ../../YYYY-MM-DD", "daily.format '../../YYYY-MM-DD' makes '../../2026-11-29.md', which is a path that climbs"),
        ("format: .git/YYYY", "daily.format '.git/YYYY' makes '.git/2026.md', which is a path inside a git folder"),
        ("template: ../../.git/config", "daily.template '../../.git/config' is a path; it takes a name only"),
    ]

    @Test func aConfigPathFromAnotherDeviceIsRefusedByDaily() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["n.md": note("n", title: "N", updated: "2026-11-29T10:00:00Z")])
        for (daily, message) in Self.hostile {
            try a.write("version: 4\ndaily:\n  \(daily)\n", to: ".quire/config.yml")
            try a.sync()
            try b.sync()
            #expect(try b.read(".quire/config.yml").contains(daily))
            let gitFiles = try TestVault.snapshot(b.root.appendingPathComponent(".git")).keys.sorted()
            let before = try b.files()
            let run = try b.run(["daily", "--no-edit"])
            #expect(run.code == 1, "\(daily): \(run.stdout)")
            #expect(run.stderr.hasPrefix("quire: error: invalid vault configuration .quire/config.yml: \(message)"), "\(run.stderr)")
            #expect(run.stderr.contains("hint: fix .quire/config.yml in an editor"))
            #expect(try b.files() == before, "\(daily)")
            #expect(try TestVault.snapshot(b.root.appendingPathComponent(".git")).keys.sorted() == gitFiles, "\(daily)")
            #expect(!FileManager.default.fileExists(atPath: world.directory.appendingPathComponent("outside").path))
        }
        // A plain folder still works.
        try a.write("version: 4\ndaily:\n  folder: Journal/\n", to: ".quire/config.yml")
        try a.sync()
        try b.sync()
        let made = try b.run(["daily", "--no-edit"])
        #expect(made.code == 0, "\(made.stderr)")
        #expect(b.exists("Journal/2026-11-29.md"))
    }
}
