import Foundation
import QuireCore
import QuireKit
import QuireSearch
import Testing

/// `VaultCheck` over a fresh catalog: every kind of finding, sorted, and a clean vault.
@Suite final class VaultCheckTests {
    private let kit: KitVault

    init() throws { kit = try KitVault() }
    deinit { kit.remove() }

    private func check() throws -> VaultCheck.Report {
        let fresh = try FreshCatalog.open(vault: kit.vault, rules: GitIgnoreRules.of(kit.vault, environment: kit.environment),
                                          environment: kit.environment, walk: true)
        return try VaultCheck.run(vault: kit.vault, catalog: fresh.store.catalog, skipped: fresh.skipped)
    }

    @Test func journalNamesAreDatesOrTheDailyFolder() {
        let journal = JournalNotes(dailyFolder: "Journal/")
        for path in ["2026-03-14.md", "Log/2026-03-14 Saturday.md", "20260314.md", "x/2026_03_14-standup.md", "Journal/monday.md"] {
            #expect(journal.contains(path), "\(path)")
        }
        for path in ["2026-13-01.md", "202603145.md", "Journaling/a.md", "notes-2026-03-14.md", "2026-03.md", "2026-03_14.md"] {
            #expect(!journal.contains(path), "\(path)")
        }
    }

    @Test func aCleanVault() throws {
        try kit.write("---\ntitle: One\n---\nbody\n", to: "one.md")
        let report = try check()
        #expect(report.isClean)
        #expect(report.noteCount == 1)
    }

    @Test func everyKindOfProblemIsFoundAndSorted() throws {
        let id = "0b7d2f0e-8f5c-4c55-9d6b-1b7f1c3f4a10"
        try kit.write("---\nid: \(id)\ntitle: Same\n---\n", to: "a.md")
        try kit.write("---\nid: \(id.uppercased())\ntitle: same\n---\n", to: "b.md")
        try kit.write("---\ntitle: [unclosed\n---\nbody\n", to: "bad.md")
        try kit.write("version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n", to: "lfs.md")
        try kit.write("[submodule \"lib\"]\n\tpath = lib\n\turl = ../lib.git\n", to: ".gitmodules")
        try FileManager.default.createSymbolicLink(atPath: kit.root.appendingPathComponent("broken.md").path,
                                                   withDestinationPath: "/nonexistent/x.md")
        let report = try check()
        #expect(report.problems.map(\.path) == ["a.md", "a.md", "b.md", "bad.md", "broken.md", "lfs.md", "lib"])
        #expect(report.problems.map(\.kind) == [.duplicateId, .duplicateTitle, .duplicateId,
                                                     .note(.invalidYAML), .skipped(.brokenSymlink), .lfsPointer, .submodule])
        #expect(report.problems[0].message == "id \(id) is also used by b.md")
        #expect(report.problems[1].message == "title 'Same' is shared by 2 notes: also b.md")
        #expect(report.problems[1].related == ["b.md"])
        #expect(report.skipped.map(\.path) == ["broken.md"])
        #expect(report.fileProblems.count == 6)
        #expect(report.noteCount == 4)
        #expect(VaultCheck.Kind.skipped(.notAFile).rawValue == "notAFile")
    }

    /// Flags that are neither true nor false and a title that is no text are named (they read as
    /// false and as the list written out, silently), with the notes that hold them counted.
    @Test func flagsAndTitlesOfTheWrongTypeAreFound() throws {
        try kit.write("---\ntitle: [a, b]\ndraft: maybe\npinned: 1\nmood: 9\n---\n", to: "x.md")
        try kit.write("---\ntitle: Fine\ndraft: \"true\"\npinned: false\n---\n", to: "y.md")
        let report = try check()
        #expect(report.problems.map(\.message) == ["'title' is not text", "'draft' is not true or false",
                                                        "'pinned' is not true or false", "'mood' is not a whole number from 1 to 5"])
        #expect(report.problems.map(\.line) == [2, 3, 4, 5])
        #expect(report.notesWithProblems == 1)
    }

    /// `Plan.md`, `plan.md` and `Notes/PLAN.md`: the first two are one file on macOS and Windows.
    @Test func namesThatDifferOnlyInCaseAreFound() throws {
        try kit.write("---\ntitle: Upper\n---\n", to: "Plan.md")
        try kit.write("---\ntitle: Lower\n---\n", to: "plan.md")
        try kit.write("---\ntitle: Elsewhere\n---\n", to: "Notes/PLAN.md")
        let report = try check()
        #expect(report.problems.map(\.path) == ["Plan.md", "plan.md"])
        #expect(report.problems.map(\.kind) == [.caseTwin, .caseTwin])
        #expect(report.problems[0].message == ("another note's name differs only in letter case (plan.md): "
                       + "one file on macOS and Windows, two here — rename one of them"))
    }

    /// `café.md` precomposed and decomposed side by side: each is named, with its form.
    @Test func namesEqualUnderNormalizationAreFound() throws {
        let composed = "caf\u{E9}.md"
        let decomposed = "cafe\u{301}.md"
        try kit.write("---\ntitle: Composed\n---\n", to: composed)
        try kit.write("---\ntitle: Decomposed\n---\n", to: decomposed)
        try kit.write("---\ntitle: Other\n---\n", to: "other.md")
        let report = try check()
        #expect(report.noteCount == 3)
        #expect(report.problems.map(\.kind) == [.normalizationTwin, .normalizationTwin])
        // Equal `String`s, sorted by their bytes ("e" before "\u{E9}"): the same order every run.
        #expect(report.problems.map { Array($0.path.utf8) } == [Array(decomposed.utf8), Array(composed.utf8)])
        let messages = Dictionary(uniqueKeysWithValues: report.problems.map { (Array($0.path.utf8), $0.message) })
        #expect(messages[Array(composed.utf8)] == ("this name is written precomposed (NFC); another note has it "
                       + "decomposed (NFD): one file on macOS, two here — rename one of them"))
        #expect(messages[Array(decomposed.utf8)] == ("this name is written decomposed (NFD); another note has it "
                       + "precomposed (NFC): one file on macOS, two here — rename one of them"))
    }
}
