import Foundation
import Testing

/// Words of Thai (no spaces between words) are found by `quire search` inside running text.
@Suite("Thai search")
struct UnspacedScriptSearchTests {
    @Test func aThaiWordInsideASentenceIsFound() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: ภาษา", body: "การเขียนภาษาไทยไม่มีการเว้นวรรคระหว่างคำ\n"), to: "thai.md")
        try vault.write(noteText("title: Other", body: "Nothing Thai here.\n"), to: "other.md")
        for word in ["เว้นวรรค", "ระหว่าง", "เขียน", "ภาษาไทย"] {
            let run = try vault.run(["search", word, "--paths"])
            #expect(run.code == 0)
            #expect(run.stdout == "thai.md\n", "\(word)")
        }
        #expect(try vault.run(["search", "แมว", "--paths"]).stdout == "")
    }
}
