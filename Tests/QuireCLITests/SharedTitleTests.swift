import Foundation
import Testing

/// A title names one note: rename refuses a taken title, new warns, check reports shared titles.
@Suite("shared titles")
struct SharedTitleTests {
    static func vault() throws -> TestVault {
        let vault = try TestVault()
        try vault.write(noteText("id: 33330000-0000-4000-8000-000000000001\ntitle: Alpha"), to: "alpha.md")
        try vault.write(noteText("id: 33330000-0000-4000-8000-000000000002\ntitle: Beta"), to: "Sub/beta.md")
        return vault
    }

    @Test func renameToATakenTitleIsRefusedUnlessForced() throws {
        let vault = try Self.vault()
        let before = try vault.read("alpha.md")
        let run = try vault.run(["rename", "Alpha", "BETA"])
        #expect(run.code == 1)
        #expect(run.stderr == "quire: error: another note is titled 'Beta' (Sub/beta.md)\nhint: choose another title, or add --force to share it (a shared title no longer names one note)\n")
        #expect(try vault.read("alpha.md") == before)
        let forced = try vault.run(["rename", "Alpha", "Beta", "--force"])
        #expect(forced.code == 0, "\(forced.stderr)")
        #expect(forced.stdout == "beta.md\n")
        #expect(try vault.read("beta.md").contains("title: Beta\n"))
    }

    @Test func renameToItsOwnTitleInAnotherCaseIsAllowed() throws {
        let vault = try Self.vault()
        let run = try vault.run(["rename", "Alpha", "ALPHA"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(try vault.read("alpha.md").contains("title: ALPHA\n"))
    }

    /// The title a note already has, asked again, changes nothing: a note titled by its file
    /// name (no front matter, or none with `title`) was given a front matter for it.
    @Test func renameToTheTitleItHasChangesNothing() throws {
        let vault = try Self.vault()
        try vault.write("# Scratch\n\nplain note\n", to: "scratch.md")
        try vault.write("---\nmood: 3\n---\nbody\n", to: "keyed.md")
        for (note, title) in [("scratch", "scratch"), ("keyed.md", "keyed"), ("alpha", "Alpha")] {
            let before = try vault.read(note.hasSuffix(".md") ? note : note + ".md")
            let run = try vault.run(["rename", note, title])
            #expect(run.code == 0, "\(run.stderr)")
            #expect(try vault.read(note.hasSuffix(".md") ? note : note + ".md") == before, "\(note)")
        }
    }

    @Test func newWithATakenTitleWarns() throws {
        let vault = try Self.vault()
        let run = try vault.run(["new", "beta"])
        #expect(run.code == 0)
        #expect(run.stdout == "beta.md\n")
        #expect(run.stderr == "quire: warning: another note is titled 'Beta' (Sub/beta.md); the title no longer names one note — 'quire rename' changes it\n")
        #expect(try vault.run(["new", "Gamma"]).stderr == "")
    }

    @Test func checkReportsSharedTitles() throws {
        let vault = try Self.vault()
        try vault.write(noteText("id: 33330000-0000-4000-8000-000000000003\ntitle: alpha"), to: "Other/alpha.md")
        let run = try vault.run(["check"])
        #expect(run.code == 1)
        #expect(run.stdout == """
            Other/alpha.md: title 'alpha' is shared by 2 notes: also alpha.md
            1 problem in 1 of 3 notes

            """)
        let json = try vault.run(["check", "--json"])
        #expect(json.stdout.contains("\"kind\": \"duplicateTitle\""))
        #expect(json.stdout.contains("\"related\": [\n      \"alpha.md\"\n    ]"), "\(json.stdout)")
    }

    /// Ten "Daily log" notes are one finding, not ten lines each naming the nine others; and
    /// journals — notes named by a date, or in the daily folder — may share titles at all,
    /// unless `--journals` asks for them.
    @Test func oneFindingPerGroupAndJournalsAreExempt() throws {
        let vault = try TestVault()
        for day in 1...10 {
            try vault.write(noteText("title: Daily log"), to: String(format: "Log/2026-03-%02d.md", day))
        }
        try vault.write(noteText("title: Standup"), to: "Journal/monday.md")
        try vault.write(noteText("title: Standup"), to: "Journal/tuesday.md")
        #expect(try vault.run(["check"]).stdout == "no problems in 12 notes\n")
        for index in 1...5 { try vault.write(noteText("title: Plan"), to: "plan-\(index).md") }
        let run = try vault.run(["check"])
        #expect(run.code == 1)
        #expect(run.stdout == "plan-1.md: title 'Plan' is shared by 5 notes: also plan-2.md, plan-3.md, plan-4.md and 1 more\n"
                + "1 problem in 1 of 17 notes\n", "\(run.stdout)")
        let all = try vault.run(["check", "--journals"])
        #expect(all.stdout == """
            Journal/monday.md: title 'Standup' is shared by 2 notes: also Journal/tuesday.md
            Log/2026-03-01.md: title 'Daily log' is shared by 10 notes: also Log/2026-03-02.md, Log/2026-03-03.md, Log/2026-03-04.md and 6 more
            plan-1.md: title 'Plan' is shared by 5 notes: also plan-2.md, plan-3.md, plan-4.md and 1 more
            3 problems in 3 of 17 notes

            """, "\(all.stdout)")
        // The daily folder is the one `quire daily` uses.
        try vault.write("version: 4\ndaily:\n  folder: Diary\n", to: ".quire/config.yml")
        #expect(try vault.run(["check"]).stdout.hasPrefix("Journal/monday.md: title 'Standup' is shared by 2 notes"))
    }
}
