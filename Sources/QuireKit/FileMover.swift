import Foundation
import QuireCore

/// Moves files inside a vault without ever replacing an existing file.
public enum FileMover {
    /// `folder/fileName`, or with `-2`, `-3`, … before `.md` when taken (on disk, or in `avoiding`:
    /// paths already promised to other notes).
    public static func freePath(in vault: Vault, folder: String, fileName: String, avoiding: Set<String> = []) throws -> String {
        let stem = fileName.hasSuffix(".md") ? String(fileName.dropLast(3)) : fileName
        let ext = fileName.hasSuffix(".md") ? ".md" : ""
        let prefix = folder.isEmpty ? "" : folder + "/"
        var candidate = prefix + fileName
        var counter = 2
        let promised = Set(avoiding.map { $0.lowercased() })
        while FileManager.default.fileExists(atPath: vault.root.appendingPathComponent(candidate).path)
                || promised.contains(candidate.lowercased()) {
            candidate = "\(prefix)\(stem)-\(counter)\(ext)"
            counter += 1
        }
        return try vault.resolveSafePath(candidate)
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
