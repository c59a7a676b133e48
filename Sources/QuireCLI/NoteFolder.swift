import Foundation
import QuireCore

/// Folder arguments of the commands that put notes somewhere (`new --folder`, `mv`, `folder …`).
enum NoteFolder {
    /// The vault-relative folder named by `path` (`""`, `/` and `.` are the root). Refuses paths
    /// leaving the vault and hidden folders (`.git`, `.quire`, `.anything`): a note there would
    /// no longer be a note (DESIGN.md §1), and `.git`/`.quire` belong to git and quire.
    static func resolve(_ path: String, in vault: Vault) throws -> String {
        if path.isEmpty || path == "/" || path == "." { return "" }
        let folder = try vault.resolveSafePath(path)
        if Vault.hiddenComponent(of: folder) != nil {
            throw CLIError("notes cannot live in a hidden folder (\(folder))",
                           hint: "quire ignores .git/, .quire/ and folders whose name starts with '.'; choose another folder")
        }
        return folder
    }
}
