import Foundation
import Testing

/// `quire new` puts the note in the folder it runs in, as `git add` is relative to it.
@Suite("quire new in a folder")
struct NewFolderTests {
    @Test func newInASubfolderCreatesTheNoteThere() throws {
        let vault = try TestVault()
        try FileManager.default.createDirectory(at: vault.url("Journal/2026"), withIntermediateDirectories: true)
        let here = try vault.run(["new", "Rain"], subfolder: "Journal")
        #expect(here.code == 0)
        #expect(here.stdout == "rain.md\n")
        #expect(vault.exists("Journal/rain.md"))
        #expect(try vault.run(["new", "Snow"], subfolder: "Journal/2026").stdout == "snow.md\n")
        #expect(vault.exists("Journal/2026/snow.md"))
        // --folder is from the vault root, wherever quire runs; the path printed says where.
        #expect(try vault.run(["new", "Sun", "--folder", "/"], subfolder: "Journal/2026").stdout == "../../sun.md\n")
        #expect(vault.exists("sun.md"))
        #expect(try vault.run(["new", "Wind", "--folder", "Ideas"], subfolder: "Journal").stdout == "../Ideas/wind.md\n")
        // No note goes into quire's or git's own folders: from there, the vault root.
        #expect(try vault.run(["new", "Fog"], subfolder: ".quire").stdout == "../fog.md\n")
        #expect(vault.exists("fog.md"))
    }

    @Test func newOutsideTheVaultUsesItsRoot() throws {
        let vault = try TestVault()
        let run = try Harness.run(["new", "Hail", "--vault", vault.root.path], in: vault.root.deletingLastPathComponent())
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout == "vault/hail.md\n")
        #expect(vault.exists("hail.md"))
    }
}
