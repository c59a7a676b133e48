import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A vault full of hostile files (issue 5, "Hostile input"), generated here, run through the built
/// binary: every command ends within a deadline, none dies by a signal, no file is rewritten,
/// symlinks out of the vault are not followed, and `check` names the bad notes.
@Suite(.serialized) struct HostileVaultTests {
    /// A deadline per command, generous for a debug build on a shared two-core machine.
    static let deadline: TimeInterval = 60
    /// Text that only the files outside the vault hold.
    static let secret = "OUTSIDESECRETTOKEN"

    /// Notes whose front matter cannot be read: `check` lists them, edits refuse them.
    static let badNotes = ["binary.md", "nul-bytes.md", "invalid-utf8.md", "nested.md", "alias-bomb.md"]

    /// Builds the hostile vault in a fresh temporary directory; returns (vault, outside folder).
    static func makeVault() throws -> (vault: URL, outside: URL) {
        let base = try Harness.temporaryDirectory("quire-hostile")
        let vault = base.appendingPathComponent("vault")
        let outside = base.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: vault, withIntermediateDirectories: true)
        let initRun = try HostileRunner.run(["init"], in: vault)
        #expect(initRun.code == 0, "init: \(initRun.stderr)")
        try Harness.write("---\ntitle: \(secret)\n---\n\(secret) body\n", to: outside.appendingPathComponent("secret.md"))
        try Harness.write("---\ntitle: Good note\ntags: [ok]\nproject: Plain\n---\nhello x world\n",
                          to: vault.appendingPathComponent("good.md"))
        func put(_ name: String, _ bytes: [UInt8]) throws {
            let url = vault.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        var random = SystemRandomNumberGenerator()
        try put("binary.md", Array("---\ntitle: bin\n---\n".utf8) + (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) })
        try put("nul-bytes.md", Array("---\ntitle: nul\n---\nbefore".utf8) + [0, 0, 0] + Array(" after x\n".utf8))
        try put("invalid-utf8.md", Array("---\ntitle: caf".utf8) + [0xC3, 0x28] + Array("\n---\nbody ".utf8) + [0xFF, 0xFE] + Array(" x\n".utf8))
        let manyKeys = (0..<10_000).map { "key\($0): value \($0)\n" }.joined()
        try put("long-front-matter.md", Array("---\ntitle: Long front matter\n\(manyKeys)---\nx\n".utf8))
        try put("nested.md", Array(("---\ntitle: " + String(repeating: "[", count: 10_000) + "\n---\nx\n").utf8))
        var bomb = "---\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...9 {
            bomb += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]\n"
        }
        try put("alias-bomb.md", Array((bomb + "---\nx\n").utf8))
        try put("long-line.md", Array("---\ntitle: Long line\n---\n".utf8) + Array(repeating: UInt8(ascii: "a"), count: 10 << 20))
        try put("with space.md", Array("---\ntitle: Spaced\n---\nx\n".utf8))
        try put("new\nline.md", Array("---\ntitle: Newline name\n---\nx\n".utf8))
        try put("ünïcødé 日本 🎉.md", Array("---\ntitle: Unicode name\n---\nx\n".utf8))
        try put("Folder With Space/inner.md", Array("---\ntitle: Inner\n---\nx\n".utf8))
        let manager = FileManager.default
        try manager.createDirectory(at: vault.appendingPathComponent("loops"), withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: vault.appendingPathComponent("loops/up").path, withDestinationPath: "..")
        try manager.createSymbolicLink(atPath: vault.appendingPathComponent("loops/self.md").path, withDestinationPath: "self.md")
        try manager.createSymbolicLink(atPath: vault.appendingPathComponent("outside-file.md").path,
                                       withDestinationPath: outside.appendingPathComponent("secret.md").path)
        try manager.createSymbolicLink(atPath: vault.appendingPathComponent("outside-dir").path, withDestinationPath: outside.path)
        try manager.createSymbolicLink(atPath: vault.appendingPathComponent("relative-out.md").path,
                                       withDestinationPath: "../outside/secret.md")
        #expect(mkfifo(vault.appendingPathComponent("fifo.md").path, 0o644) == 0)
        return (vault, outside)
    }

    /// Everything but what quire may create (`.quire/`) and git's own files.
    static func snapshot(_ vault: URL) -> TreeSnapshot {
        TreeSnapshot(vault) { $0 == ".quire" || $0 == ".git" || $0 == ".test-home" }
    }

    /// Runs one command and checks the bounds every command must keep.
    @discardableResult
    static func bounded(_ arguments: [String], in vault: URL, asOtherUser: Bool = false) throws -> BoundedRun {
        let run = try HostileRunner.run(arguments, in: vault, timeout: deadline, asOtherUser: asOtherUser)
        let label = arguments.joined(separator: " ")
        #expect(!run.timedOut, "\(label) did not finish within \(deadline)s")
        #expect(!run.signalled, "\(label) died by signal \(run.code): \(run.stderr.suffix(2000))")
        #expect(run.code != 2, "\(label) was a usage error: \(run.stderr)")
        return run
    }

    @Test func readCommandsSurviveAHostileVault() throws {
        let (vault, _) = try Self.makeVault()
        defer { try? FileManager.default.removeItem(at: vault.deletingLastPathComponent()) }
        let before = Self.snapshot(vault)
        let reads: [[String]] = [
            ["index", "--rebuild"], ["list"], ["list", "--json"], ["search", "x"], ["search", Self.secret],
            ["tags"], ["projects"], ["stats"], ["folders"], ["check"], ["show", "binary.md"],
            ["show", "alias-bomb.md"], ["show", "invalid-utf8.md"], ["show", "nested.md"], ["list", "--json"],
        ]
        for arguments in reads {
            let run = try Self.bounded(arguments, in: vault)
            let label = arguments.joined(separator: " ")
            #expect(!run.stdout.contains(Self.secret), "\(label) showed a file outside the vault")
            if arguments == ["check"] {
                #expect(run.code == 1, "check must fail on a hostile vault")
                for name in Self.badNotes { #expect(run.stdout.contains(name), "check does not list \(name)") }
                // What the walk skips is named with the reason, not silently left out.
                for (name, reason) in [("fifo.md", "not a regular file"),
                                       ("outside-file.md", "symlink leads outside the vault"),
                                       ("outside-dir", "symlink leads outside the vault"),
                                       ("relative-out.md", "symlink leads outside the vault")] {
                    #expect(run.stdout.contains("\(name): skipped: \(reason)"), "check does not name \(name): \(run.stdout)")
                }
            } else if arguments.first != "show" {
                #expect(run.code == 0, "\(label) failed: \(run.stderr)")
            }
        }
        let listed = try Self.bounded(["list", "--json"], in: vault)
        for name in ["good.md", "binary.md", "nested.md", "alias-bomb.md", "long-line.md", "with space.md",
                     "ünïcødé 日本 🎉.md", "Folder With Space/inner.md", "long-front-matter.md"] {
            #expect(listed.stdout.contains(name), "list --json does not list \(name)")
        }
        #expect(!listed.stdout.contains("outside-file.md") && !listed.stdout.contains("outside-dir"),
                "a symlink out of the vault was followed")
        #expect(Self.snapshot(vault).changes(since: before) == [], "a read command rewrote a file")
    }

    @Test func watcherInAHostileVault() throws {
        let (vault, _) = try Self.makeVault()
        defer { try? FileManager.default.removeItem(at: vault.deletingLastPathComponent()) }
        let start = try Self.bounded(["watch", "start"], in: vault)
        #expect(start.code == 0, "watch start failed: \(start.stderr)")
        defer { _ = try? HostileRunner.run(["watch", "stop"], in: vault) }
        // Symlinks the walk may follow: the watcher cannot vouch, every command walks.
        #expect(start.stdout.contains("symlink loops/self.md in the vault"), "\(start.stdout)")
        let index = try Self.bounded(["index"], in: vault)
        #expect(index.stdout.contains("the watcher could not vouch for the vault (symlink loops/self.md in the vault)"), "\(index.stdout)")
        let listed = try Self.bounded(["list", "--paths", "-0"], in: vault)
        #expect(listed.stdout.split(separator: "\0").contains("new\nline.md"))
        #expect(!listed.stdout.contains("outside-file.md"))

        // Without the symlinks it vouches again, also for a name with a newline (NUL-separated).
        for link in ["loops/up", "loops/self.md", "outside-file.md", "outside-dir", "relative-out.md"] {
            try FileManager.default.removeItem(atPath: vault.appendingPathComponent(link).path)
        }
        _ = try Self.bounded(["index"], in: vault)
        try Harness.write("---\ntitle: Newline renamed\n---\nx\n", to: vault.appendingPathComponent("new\nline.md"))
        let after = try Self.bounded(["index"], in: vault)
        #expect(after.stdout.contains("the watcher named 1 note to look at"), "\(after.stdout)")
        #expect(after.stdout.contains("changed 1"), "\(after.stdout)")
        let search = try Self.bounded(["search", "renamed", "--paths", "-0"], in: vault)
        #expect(search.stdout == "new\nline.md\0")
    }

    @Test func writeCommandsRefuseBadNotes() throws {
        let (vault, _) = try Self.makeVault()
        defer { try? FileManager.default.removeItem(at: vault.deletingLastPathComponent()) }
        let before = Self.snapshot(vault)
        for name in Self.badNotes {
            for arguments in [["set", name, "title=Changed"], ["set", name, "color=red"], ["tag", name, "+new"],
                              ["unset", name, "title"], ["rename", name, "Renamed \(name)"]] {
                let run = try Self.bounded(arguments, in: vault)
                #expect(run.code == 1, "\(arguments.joined(separator: " ")) did not refuse: \(run.stdout)")
            }
        }
        #expect(Self.snapshot(vault).changes(since: before) == [], "an edit of a bad note rewrote a file")
        // A long but valid front matter is edited surgically: only that file changes, and it still reads.
        let edit = try Self.bounded(["set", "long-front-matter.md", "color=red"], in: vault)
        #expect(edit.code == 0, "set on a long front matter failed: \(edit.stderr)")
        #expect(Self.snapshot(vault).changes(since: before) == ["long-front-matter.md"])
        let show = try Self.bounded(["show", "long-front-matter.md", "--json"], in: vault)
        #expect(show.code == 0 && show.stdout.contains("red"))
    }

    @Test func fiftyMegabyteNote() throws {
        let vault = try Harness.temporaryDirectory("quire-huge")
        defer { try? FileManager.default.removeItem(at: vault) }
        #expect(try HostileRunner.run(["init"], in: vault).code == 0)
        let line = "lorem ipsum dolor sit amet 12345 hugeword\n"
        let text = "---\ntitle: Huge\n---\n" + String(repeating: line, count: (50 << 20) / line.utf8.count + 1)
        try Data(text.utf8).write(to: vault.appendingPathComponent("huge.md"))
        let before = Self.snapshot(vault)
        let start = Date()
        for arguments in [["list", "--json"], ["search", "hugeword"], ["check"], ["stats"]] {
            let run = try Self.bounded(arguments, in: vault)
            #expect(run.code == 0, "\(arguments.joined(separator: " ")): \(run.stderr)")
            if arguments[0] == "search" { #expect(run.stdout.contains("huge")) }
        }
        #expect(Self.snapshot(vault).changes(since: before) == [])
        #expect(Date().timeIntervalSince(start) < 4 * Self.deadline)
    }

    // Root reads a chmod 000 file; without root and setpriv there is no other user to be.
    @Test(.enabled(if: HostileRunner.canRunAsOtherUser, "needs root and /usr/bin/setpriv to run quire as user nobody"))
    func unreadableFileAsAnotherUser() throws {
        let base = try Harness.temporaryDirectory("quire-unreadable")
        defer { try? FileManager.default.removeItem(at: base) }
        let vault = base.appendingPathComponent("vault")
        try FileManager.default.createDirectory(at: vault, withIntermediateDirectories: true)
        #expect(try HostileRunner.run(["init"], in: vault).code == 0)
        try Harness.write("---\ntitle: Good note\n---\nhello x\n", to: vault.appendingPathComponent("good.md"))
        try Harness.write("---\ntitle: Hidden\n---\nsecret x\n", to: vault.appendingPathComponent("unreadable.md"))
        try Harness.write("---\ntitle: Locked inner\n---\nx\n", to: vault.appendingPathComponent("locked/inner.md"))
        HostileRunner.giveToOtherUser(base)
        #expect(chmod(vault.appendingPathComponent("unreadable.md").path, 0) == 0)
        #expect(chmod(vault.appendingPathComponent("locked").path, 0) == 0)
        let before = Self.snapshot(vault)
        for arguments in [["list"], ["list", "--json"], ["search", "x"], ["tags"], ["stats"], ["folders"],
                          ["check"], ["show", "unreadable.md"], ["set", "unreadable.md", "color=red"],
                          ["index", "--rebuild"]] {
            let run = try Self.bounded(arguments, in: vault, asOtherUser: true)
            let label = arguments.joined(separator: " ")
            #expect(!run.stdout.contains("secret"), "\(label) read an unreadable file")
            switch arguments[0] {
            case "check":
                #expect(run.code == 1 && run.stdout.contains("unreadable.md"), "check: \(run.stdout) \(run.stderr)")
                #expect(run.stdout.contains("locked: skipped: folder cannot be read"), "check: \(run.stdout)")
            case "show", "set":
                #expect(run.code == 1, "\(label): \(run.stdout)")
            default:
                #expect(run.code == 0, "\(label) failed: \(run.stderr)")
            }
        }
        #expect(Self.snapshot(vault).changes(since: before) == [])
    }
}
