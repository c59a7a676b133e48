import Foundation
import QuireCore
import QuireGit

/// `quire init`: makes a folder a vault — a git repository (branch `main` when new) with
/// `.quire/` and quire's merge driver — adopting the notes already there untouched. A folder
/// that is a git repository keeps its history; one inside another repository is refused.
public enum VaultSetup {
    /// What `initialize` did.
    public struct Report: Equatable, Sendable {
        /// The vault made.
        public var root: URL
        /// Whether the folder was a git repository already (its history is kept).
        public var adoptedRepository: Bool
        /// How many notes were there (adopted as they are).
        public var notes: Int
    }

    /// Makes `root` (created when missing) a vault. `driverProgram` is the absolute path of the
    /// `quire` binary git runs as the merge driver; nil: the running program.
    public static func initialize(at root: URL, driverProgram: String? = nil) throws -> Report {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: root.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw CoreError.notADirectory(path: root.path) }
        } else {
            do {
                try manager.createDirectory(at: root, withIntermediateDirectories: true)
            } catch {
                throw KitError.cannotCreateFolder(path: root.path, reason: error.localizedDescription)
            }
        }
        let hasOwnGit = manager.fileExists(atPath: root.appendingPathComponent(".git").path)
        let hasConfig = manager.fileExists(atPath: root.appendingPathComponent(".quire/config.yml").path)
        if hasConfig && hasOwnGit { throw KitError.alreadyVault(path: root.path) }
        if !hasOwnGit, let enclosing = try? Repository.discover(from: root) {
            let workTree = enclosing.deletingLastPathComponent().path
            throw CoreError.vaultNotAtWorkTreeRoot(vault: root.path, workTreeRoot: workTree)
        }
        let repository = hasOwnGit ? try Repository.open(at: root) : try Repository.create(at: root, initialBranch: "main")
        let vault = try Vault.create(at: root)
        try MergeDriverRegistration.register(repository: repository, vault: vault, binary: driverProgram)
        return Report(root: root, adoptedRepository: hasOwnGit, notes: try vault.notePaths().count)
    }
}
