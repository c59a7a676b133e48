import Foundation
import QuireCore

/// Moves files inside a vault without ever replacing an existing file.
public enum FileMover {
    /// `folder/fileName`, or numbered `-2`, `-3`, … when taken on disk or in `avoiding` (paths
    /// already promised to other notes): `Vault.freePath`, the one rule.
    public static func freePath(in vault: Vault, folder: String, fileName: String, avoiding: Set<String> = []) throws -> String {
        try vault.freePath(folder: folder, fileName: fileName, avoiding: avoiding)
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
