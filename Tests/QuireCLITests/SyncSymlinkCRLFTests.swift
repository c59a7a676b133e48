import Foundation
import Testing

/// A symbolic link that becomes a note on a CRLF checkout (`core.autocrlf=true`): the index
/// holds the note as git would stage it, converted to LF.
@Suite struct SyncSymlinkCRLFTests {
    /// Device `a` with `target.md` and the link `alias.md` to it, synced; `b` cloned from it
    /// with `core.autocrlf=true`.
    static func linkOnTwoDevices() throws -> (SyncWorld, Device, Device) {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["target.md": "# Target\n\ntarget line\n"])
        try SyncSymlinkTests.link(a, "alias.md", to: "target.md")
        try a.sync()
        let b = try world.clone("b")
        try b.git(["config", "core.autocrlf", "true"])
        return (world, a, b)
    }

    /// Soak seed 4001 (`--edges 1`) found it: the work-tree update staged the note written over
    /// the link through libgit2, which skips the eol conversion when the entry it replaces is a
    /// link; the index kept the CRLF bytes and `git status` showed a staged change forever.
    @Test func aLinkMadeANoteIsStagedWithLFOnACRLFCheckout() throws {
        let (_, a, b) = try Self.linkOnTwoDevices()
        try #require(SyncSymlinkTests.isLink(b, "alias.md"))
        try a.remove("alias.md")
        try a.write("# Was a link\n\nnote line\n", to: "alias.md")
        try a.sync(now: "2026-11-29T12:10:00Z")
        try b.sync(now: "2026-11-29T12:20:00Z")
        #expect(try b.read("alias.md") == "# Was a link\r\n\r\nnote line\r\n")
        let status = try b.git(["status", "--porcelain"])
        #expect(status.stdout.isEmpty, "a staged change was left: \(status.stdout)")
        #expect(try b.git(["ls-files", "-s", "alias.md"]).stdout.contains(try b.git(["rev-parse", "HEAD:alias.md"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// The same on the device that makes the change: a note saved over a link with CRLF line
    /// breaks is committed with LF, as `git add` would store it.
    @Test func aLinkMadeANoteOnACRLFCheckoutIsCommittedWithLF() throws {
        let (world, _, b) = try Self.linkOnTwoDevices()
        try b.remove("alias.md")
        try b.write("# Was a link\r\n\r\nnote line\r\n", to: "alias.md")
        try b.sync(now: "2026-11-29T12:10:00Z")
        #expect(try world.git(["show", "main:alias.md"]).stdout == "# Was a link\n\nnote line\n")
        #expect(try b.git(["status", "--porcelain"]).stdout.isEmpty)
    }
}
