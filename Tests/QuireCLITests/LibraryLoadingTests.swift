import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// libgit2 is opened on first use, not linked (Sources/CLibGit2/loader.c): a command that needs
/// no git never loads it, one that does loads it then, and a libgit2 that cannot be loaded is a
/// clear error of the git commands alone. The dynamic loader's own trace (`LD_DEBUG=files`)
/// tells which libraries a run opened.
@Suite struct LibraryLoadingTests {
    /// A vault with one committed note, made by `quire init` and `quire sync`.
    static func vault(_ world: SyncWorld) throws -> Device {
        let device = try SyncErrorTests.lonely(world)
        try device.sync()
        return device
    }

    /// The libraries a run of `arguments` opened, from the loader's trace.
    static func loaded(_ device: Device, _ arguments: [String], environment: [String: String] = [:])
        throws -> (run: QuireRun, libraries: String) {
        let run = try device.run(arguments, environment: environment.merging(["LD_DEBUG": "files"]) { $1 })
        let libraries = run.stderr.split(separator: "\n").filter { $0.contains("file=") }.joined(separator: "\n")
        return (run, libraries)
    }

    @Test func searchingNeverLoadsLibgit2AndSyncingDoes() throws {
        let device = try Self.vault(try SyncWorld())
        for arguments in [["search", "one"], ["list"], ["show", "one.md"], ["--version"]] {
            let (run, libraries) = try Self.loaded(device, arguments)
            #expect(run.code == 0, "\(arguments): \(run.stderr.suffix(500))")
            #expect(!libraries.isEmpty, "the loader traced nothing: LD_DEBUG unsupported?")
            #expect(!libraries.contains("libgit2"), "\(arguments) loaded libgit2:\n\(libraries)")
            #expect(!libraries.contains("libicuuc"), "\(arguments) loaded ICU:\n\(libraries)")
        }
        try device.write(SyncMergeTests.base + "a second line\n", to: "one.md")
        let (sync, libraries) = try Self.loaded(device, ["sync"])
        #expect(sync.code == 0, "\(sync.stderr.suffix(500))")
        #expect(libraries.contains("file=libgit2.so"), "sync must load libgit2:\n\(libraries)")
        #expect(libraries.contains("dynamically loaded"), "opened by dlopen, not at start:\n\(libraries)")
    }

    /// A `.gitignore` that hides notes (as an Obsidian vault's does) needs libgit2's verdicts;
    /// they are remembered, so only the first command after a change loads libgit2.
    @Test func hidingRulesLoadLibgit2OnceThenTheVerdictsAreRemembered() throws {
        let device = try Self.vault(try SyncWorld())
        try device.write(try device.read(".gitignore") + "private/\n", to: ".gitignore")
        try device.write(SyncMergeTests.base, to: "private/secret.md")
        try device.sync()
        // A rule changed after the sync: the next command asks libgit2 again. No racily-clean
        // window (`QUIRE_RACY_WINDOW_MS=0`): the rule files and the index are trusted at once
        // (nothing changes them between the two searches), with no wait.
        try device.write(try device.read(".gitignore") + "drafts/\n", to: ".gitignore")
        let settled = ["QUIRE_RACY_WINDOW_MS": "0"]
        let (first, firstLibraries) = try Self.loaded(device, ["search", "one"], environment: settled)
        #expect(first.code == 0, "\(first.stderr.suffix(500))")
        #expect(firstLibraries.contains("file=libgit2.so"), "the first walk asks libgit2:\n\(firstLibraries)")
        #expect(first.stdout.contains("one.md") && !first.stdout.contains("secret.md"), "\(first.stdout)")
        let (second, secondLibraries) = try Self.loaded(device, ["search", "one"], environment: settled)
        #expect(second.code == 0, "\(second.stderr.suffix(500))")
        #expect(!secondLibraries.contains("libgit2"), "the verdicts are remembered:\n\(secondLibraries)")
        #expect(second.stdout == first.stdout)
    }

    /// Text in an unspaced script (Thai) is what needs ICU's word breaks: indexing it loads libicuuc.
    @Test func thaiTextLoadsICUWhenIndexed() throws {
        let device = try Self.vault(try SyncWorld())
        try device.write("---\ntitle: ไทย\n---\nภาษาไทยเป็นภาษาที่สวยงาม\n", to: "thai.md")
        let (run, libraries) = try Self.loaded(device, ["search", "ภาษา"])
        #expect(run.code == 0, "\(run.stderr.suffix(500))")
        #expect(libraries.contains("file=libicuuc.so"), "indexing Thai must load ICU:\n\(libraries)")
        #expect(run.stdout.contains("thai.md"), "ICU's word breaks find the word: \(run.stdout)")
    }

    /// A libgit2 that cannot be loaded (here a broken file found first through
    /// LD_LIBRARY_PATH): git commands fail with the loader's reason and a hint, exit 1; the rest
    /// of quire works.
    @Test func anUnloadableLibgit2FailsOnlyTheGitCommands() throws {
        let world = try SyncWorld()
        let device = try Self.vault(world)
        let libraries = world.folder("broken-libraries")
        try FileManager.default.createDirectory(at: libraries, withIntermediateDirectories: true)
        try Harness.write("not a library\n", to: libraries.appendingPathComponent("libgit2.so.1.5"))
        let broken = ["LD_LIBRARY_PATH": libraries.path]
        try device.write(SyncMergeTests.base + "edited\n", to: "one.md")
        let sync = try device.run(["sync"], environment: broken)
        #expect(sync.code == 1, "\(sync.stderr)")
        #expect(sync.stderr.contains("quire: error: cannot load libgit2"), "\(sync.stderr)")
        #expect(sync.stderr.contains("libgit2.so.1.5"), "\(sync.stderr)")
        #expect(sync.stderr.contains("hint: quire needs libgit2"), "\(sync.stderr)")
        let history = try device.run(["history", "one.md"], environment: broken)
        #expect(history.code == 1 && history.stderr.contains("cannot load libgit2"), "\(history.stderr)")
        let search = try device.run(["search", "edited"], environment: broken)
        #expect(search.code == 0, "\(search.stderr)")
        #expect(search.stdout.contains("one.md"), "\(search.stdout)")
        #expect(try device.run(["sync"]).code == 0, "with the real library the edit is committed")
    }

    /// A library of that name that is not libgit2 (here zlib, a real shared object that loads):
    /// refused when loaded, naming a function it lacks, never a crash at that function's call.
    @Test func aLibraryWithoutLibgit2sFunctionsIsRefusedWhenLoaded() throws {
        let zlib = ["/lib/x86_64-linux-gnu/libz.so.1", "/usr/lib/x86_64-linux-gnu/libz.so.1", "/lib/aarch64-linux-gnu/libz.so.1"]
            .first { FileManager.default.fileExists(atPath: $0) }
        guard let zlib else {
            Issue.record("no libz.so.1 to stand in for libgit2 on this machine")
            return
        }
        let world = try SyncWorld()
        let device = try Self.vault(world)
        let libraries = world.folder("other-library")
        try FileManager.default.createDirectory(at: libraries, withIntermediateDirectories: true)
        // The library itself, not its symlink (a dangling copy would let the loader search on).
        let real = URL(fileURLWithPath: zlib).resolvingSymlinksInPath().path
        try FileManager.default.copyItem(atPath: real, toPath: libraries.appendingPathComponent("libgit2.so.1.5").path)
        let history = try device.run(["history", "one.md"], environment: ["LD_LIBRARY_PATH": libraries.path])
        #expect(history.code == 1, "\(history.stderr)")
        #expect(history.stderr.contains("cannot load libgit2: libgit2.so.1.5 has no function git_"), "\(history.stderr)")
        #expect(history.stderr.contains("hint: quire needs libgit2"), "\(history.stderr)")
    }

    /// A remote whose scheme libgit2 has no transport for: exit 5 with the transport hint, found
    /// by quire before any connection (not from libgit2's wording).
    @Test func anUnknownSchemeIsNotFoundWithTheTransportHint() throws {
        let device = try Self.vault(try SyncWorld())
        try #require(try device.run(["remote", "--replace", "gopher://example.invalid/notes.git"]).code == 0)
        let sync = try device.run(["sync"])
        #expect(sync.code == 5, "\(sync.stderr)")
        #expect(sync.stderr.contains("gopher"), "\(sync.stderr)")
        #expect(sync.stderr.contains("URLs start with ssh://, https://"), "\(sync.stderr)")
    }
}
