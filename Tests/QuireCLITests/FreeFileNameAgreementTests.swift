import Foundation
import Testing

/// `quire new`, `quire import` and `quire rename` name a new file by one rule (`FreeFileName`):
/// the vault's `fileNames` style, numbered `-2`, `-3`, … past taken names, within 255 bytes.
@Suite("free file names agree")
struct FreeFileNameAgreementTests {
    @Test func newImportAndRenameNameFilesAlike() throws {
        let vault = try TestVault()
        try vault.write("version: 1\nfileNames: title\n", to: ".quire/config.yml")
        let long = String(repeating: "Wörter ", count: 50) + "end"
        #expect(try vault.run(["new", long, "--body", "From new."]).code == 0)
        let entries = "[{\"title\": \"\(long)\", \"body\": \"From import.\"}, {\"title\": \"Q: what now?\"}]"
        try vault.write(entries, to: "../entries.json")
        let imported = try vault.run(["import", vault.url("../entries.json").path])
        #expect(imported.code == 0, "\(imported.stderr)")
        try vault.write(noteText("title: Other"), to: "other.md")
        let renamed = try vault.run(["rename", "other.md", long, "--force"])
        #expect(renamed.code == 0, "\(renamed.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: vault.root.path).filter { $0.hasSuffix(".md") }.sorted()
        #expect(names.count == 4)
        #expect(names.allSatisfy { $0.utf8.count <= 255 }, "\(names.map(\.utf8.count))")
        #expect(names.contains("Q what now.md"))  // the title style, as `quire new` names it
        let longNames = names.filter { $0.hasPrefix("Wörter") }
        #expect(longNames.count == 3)
        #expect(longNames.contains { $0.hasSuffix("-2.md") } && longNames.contains { $0.hasSuffix("-3.md") }, "\(longNames)")
    }
}
