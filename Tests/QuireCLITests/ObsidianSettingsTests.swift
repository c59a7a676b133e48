import Foundation
import Testing

/// Obsidian's own settings where `.quire/config.yml` says nothing: `.obsidian/templates.json`
/// (templates folder, `{{date}}`/`{{time}}` formats) and `.obsidian/daily-notes.json` (folder,
/// moment.js format, template), their paths checked as a remote's (`ConfigPath`).
@Suite("Obsidian's templates and daily notes settings")
struct ObsidianSettingsTests {
    static let now = ["QUIRE_NOW": "2026-03-14T08:05:00Z", "TZ": "UTC"]

    static func vault(daily: String) throws -> TestVault {
        let vault = try TestVault()
        try vault.write(#"{"folder": "Templates", "dateFormat": "DD.MM.YYYY"}"#, to: ".obsidian/templates.json")
        try vault.write(daily, to: ".obsidian/daily-notes.json")
        try vault.write("# {{date:dddd, MMMM Do YYYY}}\nAt {{time:HH:mm}} on {{date}}: {{title}}\n", to: "Templates/Daily.md")
        try vault.write("Meeting {{title}} on {{date:YYYY-MM-DD}} ({{date}})\n", to: "Templates/Meeting.md")
        return vault
    }

    @Test func dailyNotesGoWhereObsidianPutsThem() throws {
        let vault = try Self.vault(daily: #"{"folder": "Daily/", "format": "YYYY/MM/YYYY-MM-DD ddd", "template": "Templates/Daily"}"#)
        let run = try vault.run(["daily", "--no-edit"], environment: Self.now)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout == "Daily/2026/03/2026-03-14 Sat.md\n")
        let text = try vault.read("Daily/2026/03/2026-03-14 Sat.md")
        // As Obsidian's daily notes fill a daily template: `{{date}}` is the note's name.
        #expect(text.contains("# Saturday, March 14th 2026\nAt 08:05 on 2026-03-14 Sat: 2026-03-14 Sat\n"), "\(text)")

        let made = try vault.run(["new", "Standup", "--template", "Meeting"], environment: Self.now)
        #expect(made.code == 0, "\(made.stderr)")
        let path = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try vault.read(path).contains("Meeting Standup on 2026-03-14 (14.03.2026)\n"))
    }

    @Test func quireOwnSettingsWin() throws {
        let vault = try Self.vault(daily: #"{"folder": "Daily"}"#)
        try vault.write(try vault.read(".quire/config.yml") + "daily:\n  folder: Journal\n", to: ".quire/config.yml")
        #expect(try vault.run(["daily", "--no-edit"], environment: Self.now).stdout == "Journal/2026-03-14.md\n")
    }

    @Test func obsidiansDefaultFolderIsTheRoot() throws {
        let vault = try Self.vault(daily: "{}")
        #expect(try vault.run(["daily", "--no-edit"], environment: Self.now).stdout == "2026-03-14.md\n")
    }

    @Test func hostilePathsInObsidiansSettingsAreRefused() throws {
        let hostile: [(String, String)] = [
            (#"{"folder": ".git/hooks"}"#, "folder '.git/hooks' is a path inside a git folder"),
            (#"{"folder": "../outside"}"#, "folder '../outside' is a path that climbs out of its folder"),
            (#"{"folder": ".hidden"}"#, "folder '.hidden' is in a hidden folder (`.hidden`)"),
            (#"{"format": "../YYYY"}"#, "format '../YYYY' makes '../2026.md', which is a path that climbs"),
            (#"{"template": "../../etc/passwd"}"#, "template '../../etc/passwd.md' is a path that climbs"),
        ]
        for (json, message) in hostile {
            let vault = try Self.vault(daily: json)
            let before = try TestVault.snapshot(vault.root)
            let run = try vault.run(["daily", "--no-edit"], environment: Self.now)
            #expect(run.code == 1, "\(json): \(run.stdout)")
            #expect(run.stderr.hasPrefix("quire: error: invalid vault configuration .obsidian/daily-notes.json: \(message)"),
                    "\(run.stderr)")
            #expect(try TestVault.snapshot(vault.root) == before, "\(json)")
        }
        let vault = try Self.vault(daily: "{}")
        try vault.write(#"{"folder": ".git"}"#, to: ".obsidian/templates.json")
        let run = try vault.run(["new", "X", "--template", "Meeting"], environment: Self.now)
        #expect(run.code == 1)
        #expect(run.stderr.contains(".obsidian/templates.json: folder '.git' is a path inside a git folder"), "\(run.stderr)")
    }
}
