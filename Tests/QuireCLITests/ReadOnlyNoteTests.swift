import Foundation
import Testing

/// A read-only note (`chmod 444`) is never rewritten unless `--force` says so. Tests run as root,
/// who may write any file: the refusal must come from the mode bits, not from a failed write.
@Suite("read-only notes")
struct ReadOnlyNoteTests {
    static let note = noteText("id: 22220000-0000-4000-8000-000000000002\ntitle: Frozen\nupdatedAt: 2026-01-01T00:00:00+00:00\ntags: [old]",
                               body: "Keep me.\n")

    static func readOnlyVault() throws -> TestVault {
        let vault = try TestVault()
        try vault.write(Self.note, to: "frozen.md")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: vault.url("frozen.md").path)
        return vault
    }

    static func mode(_ vault: TestVault, _ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: vault.url(path).path)[.posixPermissions] as? Int)
    }

    @Test(arguments: [["set", "frozen.md", "color=red"], ["unset", "frozen.md", "tags"], ["tag", "frozen.md", "+new"],
                      ["rename", "frozen.md", "Thawed"], ["edit", "frozen.md"]])
    func changingARefusedReadOnlyNoteLeavesItAsItIs(_ arguments: [String]) throws {
        let vault = try Self.readOnlyVault()
        let run = try vault.run(arguments, environment: ["EDITOR": try TestVault.script("echo edited >> \"$1\"")])
        #expect(run.code == 1)
        #expect(run.stderr == "quire: error: the note is read-only, it is left as it is (frozen.md)\nhint: make it writable (chmod u+w), or add --force to change it anyway\n")
        #expect(try vault.read("frozen.md") == Self.note)
        #expect(!vault.exists("thawed.md"))
    }

    @Test func forceChangesItAndKeepsItReadOnly() throws {
        let vault = try Self.readOnlyVault()
        let run = try vault.run(["set", "frozen.md", "color=red", "--force"], environment: ["QUIRE_NOW": "2026-11-30T08:00:00Z"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(try vault.read("frozen.md") == Self.note.replacingOccurrences(of: "2026-01-01T00:00:00+00:00", with: "2026-11-30T08:00:00+00:00")
            .replacingOccurrences(of: "tags: [old]", with: "tags: [old]\ncolor: red"))
        #expect(try Self.mode(vault, "frozen.md") == 0o444)
        let edit = try vault.run(["edit", "--force", "Frozen"], environment: ["EDITOR": try TestVault.script("echo edited >> \"$1\"")])
        #expect(edit.code == 0, "\(edit.stderr)")
        #expect(try vault.read("frozen.md").hasSuffix("Keep me.\nedited\n"))
        #expect(try Self.mode(vault, "frozen.md") == 0o444)
    }

    @Test func aChangeThatChangesNothingIsNoError() throws {
        let vault = try Self.readOnlyVault()
        let run = try vault.run(["tag", "frozen.md", "+old"])
        #expect(run.code == 0)
        #expect(run.stdout == "#old\n")
    }

    @Test func restoreOverAReadOnlyNoteIsRefusedUnlessForced() throws {
        let vault = try Self.readOnlyVault()
        try vault.commitAll()
        let run = try vault.run(["restore", "frozen.md", "--at", "HEAD"])
        #expect(run.code == 1)
        #expect(run.stderr.hasPrefix("quire: error: the note is read-only, it is left as it is (frozen.md)\n"))
        #expect(try vault.read("frozen.md") == Self.note)
        #expect(try vault.run(["restore", "frozen.md", "--at", "HEAD", "--force"]).code == 0)
        #expect(try Self.mode(vault, "frozen.md") == 0o444)
    }
}
