import Foundation
import Testing

/// `quire undo` with an uncommitted edit of a note the undone merge changed (issue 32, class 6).
/// Before the fix the note kept the merge's change (the edit was left as it was) while undo said
/// the vault was back. Now that note is undone three ways — the merge's change out, the edit
/// kept and still uncommitted — or, when the two touch the same lines, undo refuses, names the
/// note and changes nothing. Two devices and a real bare remote.
@Suite struct UndoUncommittedEditTests {
    static func body(_ lines: [String]) -> String {
        note("n1", title: "Shared", updated: "2026-11-29T10:00:00Z", body: lines.joined(separator: "\n") + "\n")
    }

    static let lines = ["one", "two", "three", "four", "five", "six"]

    /// `a` merges `b`'s change of line two, then edits `line` (uncommitted) in `a`'s copy.
    static func mergedThenEdited(line index: Int, to text: String) throws -> (Device, Device) {
        let (a, b) = try SyncWorld().pair(["n.md": body(lines), "other.md": note("n2", title: "Other", updated: "2026-11-29T10:00:00Z")])
        var theirs = lines
        theirs[1] = "two from b"
        try b.write(body(theirs), to: "n.md")
        try b.sync(now: "2026-11-29T11:00:00Z")
        try a.write(note("n3", title: "Mine", updated: "2026-11-29T11:30:00Z"), to: "mine.md")
        try a.sync(now: "2026-11-29T12:00:00Z")  // a merge: a commit of a's own, b's change in
        #expect(try a.read("n.md").contains("two from b"))
        var edited = try a.read("n.md").components(separatedBy: "\n")
        let at = try #require(edited.firstIndex(of: lines[index]) ?? edited.firstIndex(of: "two from b"))
        edited[at] = text
        try a.write(edited.joined(separator: "\n"), to: "n.md")
        return (a, b)
    }

    @Test func theMergesChangeComesOutAndTheEditStays() throws {
        let (a, b) = try Self.mergedThenEdited(line: 4, to: "five edited on a")
        let undone = try a.run(["undo"], now: "2026-11-29T12:05:00Z")
        #expect(undone.code == 0, "\(undone.stderr)")
        #expect(undone.stdout.contains("kept your uncommitted edit of n.md, without the merge's change"), "\(undone.stdout)")
        let text = try a.read("n.md")
        #expect(!text.contains("two from b"), "\(text)")
        #expect(text.contains("\ntwo\n") && text.contains("five edited on a"), "\(text)")
        // Still an uncommitted edit of the undone vault.
        #expect(try a.git(["status", "--porcelain"]).stdout == " M n.md\n")
        #expect(try a.git(["show", "HEAD:n.md"]).stdout.contains("two\nthree"))
        try a.sync(now: "2026-11-29T12:06:00Z")
        try b.sync(now: "2026-11-29T12:07:00Z")
        let there = try b.read("n.md")
        #expect(!there.contains("two from b") && there.contains("five edited on a"), "\(there)")
    }

    @Test func anEditOfTheLinesTheMergeChangedIsRefusedAndNamed() throws {
        let (a, _) = try Self.mergedThenEdited(line: 1, to: "two from b, edited on a")
        let before = try a.read("n.md")
        let head = try a.git(["rev-parse", "HEAD"]).stdout
        let refused = try a.run(["undo"], now: "2026-11-29T12:05:00Z")
        #expect(refused.code == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.hasPrefix("quire: error: undo cannot take the merge's change out of your uncommitted edit of n.md: they touch the same lines\n"),
                "\(refused.stderr)")
        #expect(refused.stderr.contains("hint: nothing was changed."))
        #expect(try a.read("n.md") == before)
        #expect(try a.git(["rev-parse", "HEAD"]).stdout == head)
        #expect(a.exists("mine.md"))
    }
}
