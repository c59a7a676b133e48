import Foundation
import Testing

/// The mood range lives in one place (`NoteFields.moods`): `quire new --mood`, `quire set mood=`,
/// `quire import` and the reading of a note (`quire check`) take and refuse the same values.
@Suite("mood range agrees")
struct MoodRangeAgreementTests {
    @Test func newSetImportAndCheckTakeTheSameMoods() throws {
        let vault = try TestVault()
        for (mood, taken) in [("1", true), ("5", true), ("0", false), ("6", false), ("2.5", false)] {
            let created = try vault.run(["new", "New \(mood)", "--mood", mood, "--body", "x"])
            #expect((created.code == 0) == taken, "new --mood \(mood): \(created.stderr)")
            try vault.write(noteText("title: Set \(mood)"), to: "set-\(mood).md")
            let set = try vault.run(["set", "set-\(mood).md", "mood=\(mood)"])
            #expect((set.code == 0) == taken, "set mood=\(mood): \(set.stderr)")
            try vault.write("[{\"title\": \"Imported \(mood)\", \"mood\": \(mood)}]", to: "../mood-\(mood).json")
            let imported = try vault.run(["import", vault.url("../mood-\(mood).json").path])
            #expect(imported.stderr.contains("not imported") != taken, "import mood \(mood): \(imported.stderr)")
            try vault.write(noteText("title: Read \(mood)\nmood: \(mood)"), to: "read-\(mood).md")
            let check = try vault.run(["check", "--json"])
            #expect(check.stdout.contains("read-\(mood).md") != taken, "check mood \(mood)")
            try FileManager.default.removeItem(at: vault.url("read-\(mood).md"))
            for message in [created.stderr, set.stderr, imported.stderr] where !taken {
                #expect(message.contains("a whole number from 1 to 5"), "\(message)")
            }
        }
    }
}
