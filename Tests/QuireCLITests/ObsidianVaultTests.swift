import Foundation
import Testing

/// Vaults shaped like Obsidian's: most notes have no front matter; the file name is the title.
@Suite("Obsidian-shaped vaults")
struct ObsidianVaultTests {
    /// Notes as an Obsidian user writes them.
    static func obsidianVault() throws -> TestVault {
        let vault = try TestVault()
        try vault.write("# Summer plans\n\nDrive along the coast.\n", to: "Trips/Road trip.md")
        try vault.write("```\n# Printed banner\n```\nNo heading here.\n", to: "Code sample.md")
        try vault.write("---\naliases: [Reading list]\n---\n# Books to read\n", to: "Books.md")
        try vault.write(noteText("title: Kept title", body: "# Heading of a titled note\n"), to: "titled.md")
        return vault
    }

    @Test func untitledNotesAreTitledByFileNameAndFoundByTheirFirstHeading() throws {
        let vault = try Self.obsidianVault()
        #expect(try vault.run(["list", "title:summer", "--paths"]).stdout == "Trips/Road trip.md\n")
        #expect(try vault.run(["list", "title:road", "--paths"]).stdout == "Trips/Road trip.md\n")
        #expect(try vault.run(["list", "title:books", "--paths"]).stdout == "Books.md\n")
        #expect(try vault.run(["list", "title:banner", "--paths"]).stdout == "")
        #expect(try vault.run(["list", "title:heading", "--paths"]).stdout == "")
        // The exact heading ranks its note first, above a body mention.
        try vault.write("We talked about summer plans today.\n", to: "Diary.md")
        #expect(try vault.run(["search", "summer plans", "--paths"]).stdout == "Trips/Road trip.md\nDiary.md\n")
        let show = try vault.run(["show", "Road trip", "--json"])
        #expect(show.code == 0)
        #expect(show.stdout.contains("\"title\": \"Road trip\""))
    }

    @Test func checkDoesNotReportNotesWithoutATitle() throws {
        let vault = try Self.obsidianVault()
        let run = try vault.run(["check"])
        #expect(run.stdout == "no problems in 4 notes\n")
        #expect(run.code == 0)
    }
}
