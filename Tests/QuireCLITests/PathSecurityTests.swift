import Foundation
import Testing

/// Note names, titles and folders cannot write outside the vault (issue 5, "Security"): each
/// attempt is refused or lands inside the vault, and nothing outside it changes.
@Suite(.serialized) struct PathSecurityTests {
    /// A vault three levels below a scratch folder, so `../..` still lands in the scratch folder.
    static func makeVault() throws -> (base: URL, vault: URL) {
        let base = try Harness.temporaryDirectory("quire-escape")
        let vault = base.appendingPathComponent("a/b/vault")
        try FileManager.default.createDirectory(at: vault, withIntermediateDirectories: true)
        #expect(try HostileRunner.run(["init"], in: vault).code == 0)
        try Harness.write("---\ntitle: Victim\n---\nbody\n", to: vault.appendingPathComponent("victim.md"))
        return (base, vault)
    }

    /// Everything in the scratch folder outside the vault.
    static func outside(_ base: URL) -> TreeSnapshot {
        TreeSnapshot(base) { $0 == "a/b/vault" }
    }

    /// Runs one attempt: it must end normally and leave everything outside the vault alone.
    @discardableResult
    static func attempt(_ arguments: [String], base: URL, vault: URL) throws -> BoundedRun {
        let before = outside(base)
        let run = try HostileRunner.run(arguments, in: vault, timeout: 60)
        let label = arguments.joined(separator: " ")
        #expect(!run.timedOut && !run.signalled, "\(label) crashed or hung: \(run.stderr)")
        #expect(outside(base).changes(since: before) == [], "\(label) wrote outside the vault")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/x.md") || run.code != 0, "\(label) wrote /tmp/x.md")
        return run
    }

    /// The vault-relative paths of every note, from `list --json`.
    static func notePaths(_ vault: URL) throws -> [String] {
        let run = try HostileRunner.run(["list", "--json"], in: vault)
        guard let notes = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]] else { return [] }
        return notes.compactMap { $0["path"] as? String }.sorted()
    }

    @Test func newCannotEscape() throws {
        let (base, vault) = try Self.makeVault()
        defer { try? FileManager.default.removeItem(at: base) }
        let attempts: [[String]] = [
            ["new", "../../x"], ["new", "../../../x", "--folder", "."], ["new", "x", "--folder", "../.."],
            ["new", "x", "--folder", "/tmp"], ["new", "x", "--folder", base.path], ["new", "y", "--folder", "a/../../.."],
            ["new", "a/b/../../../../z"], ["new", "slash/in\u{2215}title \u{FF0F} \u{2400} nul-like"],
            ["new", "..", "--folder", "sub"], ["new", "x\\..\\..\\w"],
        ]
        for arguments in attempts {
            let run = try Self.attempt(arguments, base: base, vault: vault)
            #expect(run.code == 0 || run.code == 1 || run.code == 2, "\(arguments): exit \(run.code)")
        }
        for path in try Self.notePaths(vault) {
            #expect(!path.hasPrefix("/") && !path.split(separator: "/").contains(".."), "note path \(path) escapes")
        }
    }

    @Test func moveRenameAndFolderCannotEscape() throws {
        let (base, vault) = try Self.makeVault()
        defer { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.createDirectory(at: base.appendingPathComponent("a/b/target"), withIntermediateDirectories: true)
        let attempts: [[String]] = [
            ["mv", "victim.md", "../.."], ["mv", "victim.md", "../target"], ["mv", "victim.md", base.path],
            ["mv", "victim.md", "/tmp"], ["folder", "add", "../x"], ["folder", "add", "/tmp/quire-escape-folder"],
            ["folder", "add", "inside/../../x"], ["folder", "rename", "sub", "../renamed"],
            ["rename", "victim.md", "../../renamed"], ["rename", "victim.md", "a/../../b"],
        ]
        for arguments in attempts {
            let run = try Self.attempt(arguments, base: base, vault: vault)
            if ["mv", "folder"].contains(arguments[0]) && !arguments.contains("inside/../../x") {
                #expect(run.code != 0, "\(arguments.joined(separator: " ")) was accepted: \(run.stdout)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/quire-escape-folder"))
        let paths = try Self.notePaths(vault)
        #expect(paths.count == 1, "the victim note is gone or doubled: \(paths)")
        for path in paths {
            #expect(!path.hasPrefix("/") && !path.split(separator: "/").contains(".."), "note path \(path) escapes")
        }
    }
}
