import Foundation
import QuireCore

/// Moves files inside a vault without ever replacing an existing file.
public enum FileMover {
    /// `folder/fileName`, or numbered `-2`, `-3`, … when taken on disk or in `avoiding` (paths
    /// already promised to other notes): `Vault.freePath`, the one rule.
    public static func freePath(in vault: Vault, folder: String, fileName: String, avoiding: Set<String> = []) throws -> String {
        try vault.freePath(folder: folder, fileName: fileName, avoiding: avoiding)
    }

    /// Refuses a move's destination `folder` that does not exist and is named as a note file
    /// is (`b.md`): what `mv a.md b.md` means in a shell or in git is a new file name, not a
    /// folder `b.md/` to create. A folder of that name that exists is a destination like any.
    public static func checkDestination(folder: String, in vault: Vault) throws {
        guard (folder as NSString).lastPathComponent.lowercased().hasSuffix(".md"),
              !VaultFolders.isFolder(folder, in: vault) else { return }
        throw KitError.folderNamedAsNote(folder)
    }

    /// Renames `from` to `to` (both vault-relative), creating folders; refuses to replace a file.
    public static func move(in vault: Vault, from: String, to: String) throws {
        let source = vault.root.appendingPathComponent(from)
        let destination = vault.root.appendingPathComponent(to)
        let manager = FileManager.default
        guard !manager.fileExists(atPath: destination.path) else {
            throw KitError.moveTargetExists(from: from, to: to)
        }
        do {
            try manager.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.moveItem(at: source, to: destination)
        } catch {
            throw KitError.moveFailed(from: from, to: to, reason: error.localizedDescription)
        }
    }
}
