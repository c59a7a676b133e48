import Foundation
import Testing

/// Issue 36: `-q/--quiet` on sync, clone, index, import and migrate (nothing on success, warnings
/// included; errors still on standard error), commit subjects that name the notes, and a push's
/// progress that never goes silent.
@Suite struct QuietSyncTests {
    /// Each command under `-q` or `--quiet`: nothing on standard output or error when it works,
    /// even where it would warn (an old vault format, a skipped import file).
    @Test func quietCommandsPrintNothingOnSuccessWarningsIncluded() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["one.md": SyncMergeTests.base])
        try a.write(note("n2", title: "Two", updated: "2026-11-29T12:00:00Z"), to: "two.md")
        let loud = try a.run(["sync", "--dry-run"])
        #expect(!loud.stdout.isEmpty)
        for arguments in [["sync", "-q"], ["index", "--quiet"], ["index", "-q", "--rebuild"]] {
            let run = try a.run(arguments)
            #expect(run.code == 0 && run.stdout.isEmpty && run.stderr.isEmpty, "\(arguments): \(run.stdout) \(run.stderr)")
        }
        let clone = try Harness.run(["clone", "-q", world.bare.path, world.folder("b").path], in: world.directory)
        #expect(clone.code == 0 && clone.stdout.isEmpty && clone.stderr.isEmpty, "\(clone.stdout) \(clone.stderr)")

        let source = try Harness.temporaryDirectory("quire-quiet-import")
        try Harness.write("# Imported\n\ntext\n", to: source.appendingPathComponent("imported.md"))
        try Harness.write("not a note", to: source.appendingPathComponent(".hidden/x.md"))
        let imported = try a.run(["import", source.path, "--from", "plain", "-q"])
        #expect(imported.code == 0 && imported.stdout.isEmpty && imported.stderr.isEmpty, "\(imported.stdout) \(imported.stderr)")
        #expect(a.exists("imported.md"))

        // An old format warns on every command; under -q, sync and migrate say nothing.
        let old = try MigrationTests.oldSampleVault()
        #expect(try old.run(["index"]).stderr == MigrationTests.notice)
        let index = try old.run(["index", "-q"])
        #expect(index.code == 0 && index.stdout.isEmpty && index.stderr.isEmpty, "\(index.stderr)")
        let migrated = try old.run(["migrate", "--quiet"], environment: ["QUIRE_DEVICE": "laptop"])
        #expect(migrated.code == 0 && migrated.stdout.isEmpty && migrated.stderr.isEmpty, "\(migrated.stderr)")
    }

    /// A failure under `-q` still says why on standard error, with the warnings held back.
    @Test func quietErrorsStillGoToStandardError() throws {
        let old = try MigrationTests.oldSampleVault()
        #expect(try old.run(["remote", old.root.appendingPathComponent("missing.git").path]).code == 0)
        let run = try old.run(["sync", "-q"])
        #expect(run.code == 5)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix(MigrationTests.notice + "quire: error: "), "\(run.stderr)")
        let help = try old.run(["sync", "--help"])
        #expect(help.stdout.contains("--quiet, -q"))
        let other = try old.run(["status", "-q"])
        #expect(other.code == 2, "only the five commands take -q")
    }

    /// The subject of a sync's commit names the notes; the device and the paths are in the body.
    @Test func commitSubjectsNameTheNotes() throws {
        let world = try SyncWorld()
        let a = try world.first("a", notes: ["one.md": SyncMergeTests.base])
        func subject() throws -> String { try a.git(["log", "-1", "--format=%s"]).stdout.trimmingCharacters(in: .newlines) }

        try a.write(SyncOptionsTests.fromA, to: "one.md")
        try a.sync()
        #expect(try subject() == "Edit “One”")
        let body = try a.git(["log", "-1", "--format=%b"]).stdout
        #expect(body == "quire sync on a: 1 change\n\nM one.md\n\nQuire-Device: a\n\n", "\(body)")

        for (index, title) in ["Budget review Q3", "Beta", "Gamma"].enumerated() {
            try a.write(note("b\(index)", title: title, updated: "2026-11-29T12:00:00Z"), to: "b\(index).md")
        }
        try a.sync()
        #expect(try subject() == "Add 3 notes: “Budget review Q3”, “Beta” and 1 more")
        try a.write(note("b0", title: "Budget review Q3", updated: "2026-11-29T12:00:00Z", body: "Changed.\n"), to: "b0.md")
        try a.write(note("c", title: "Fresh", updated: "2026-11-30T08:00:00Z", extra: "tags: [x, y]\n",
                         body: "A note unlike the others, long enough to be no rename of them.\n"), to: "c.md")
        try a.remove("b2.md")
        try a.sync()
        let message = try a.git(["log", "-1", "--format=%B"]).stdout
        #expect(message.hasPrefix("Edit “Budget review Q3”, add “Fresh”, delete “Gamma”\n"), "\(message)")
        #expect(try a.git(["mv", "b1.md", "beta.md"]).code == 0)
        try a.sync()
        #expect(try subject() == "Move “Beta”")
        try a.write(note("b0", title: "Budget review Q3", updated: "2026-11-29T12:00:00Z", body: "Again.\n"), to: "b0.md")
        try a.write(note("c", title: "Fresh", updated: "2026-11-29T12:00:00Z", body: "Again.\n"), to: "c.md")
        try a.sync()
        #expect(try subject() == "Edit 2 notes: “Budget review Q3” and “Fresh”")

        // History still tells quire's commits by their trailer, not by their subject.
        let history = try a.run(["history", "b0.md"])
        #expect(history.stdout.contains("edited on a") && !history.stdout.contains("Budget review Q3”\""), "\(history.stdout)")
    }
}
