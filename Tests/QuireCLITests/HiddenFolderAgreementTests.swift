import Foundation
import Testing

/// `quire new --folder`, `quire import --folder` and a JSON entry's `path` refuse the same folders
/// by one rule (`Vault.hiddenComponent`): any component starting with `.`.
@Suite("hidden folders agree")
struct HiddenFolderAgreementTests {
    @Test func newAndImportRefuseTheSameFolders() throws {
        let vault = try TestVault()
        try vault.write("[{\"title\": \"Entry\"}]", to: "../entries.json")
        for (folder, hidden) in [("notes/.drafts", true), (".obsidian", true), ("a/..b", true), ("v1.2/notes", false)] {
            let created = try vault.run(["new", "Note in \(folder)", "--folder", folder, "--body", "x"])
            #expect((created.code != 0) == hidden, "new --folder \(folder): \(created.stderr)")
            let imported = try vault.run(["import", vault.url("../entries.json").path, "--folder", folder])
            #expect((imported.code != 0) == hidden, "import --folder \(folder): \(imported.stderr)")
            try vault.write("[{\"path\": \"\(folder)/given.md\", \"title\": \"Given\"}]", to: "../given.json")
            let given = try vault.run(["import", vault.url("../given.json").path])
            #expect(given.stderr.contains("hidden folder") == hidden, "path \(folder): \(given.stderr)")
        }
    }
}
