import Foundation
import QuireCore
import QuireGit
import QuireSync

/// The commit of a `quire migrate`: the migration of the committed version of each file it
/// changed, and nothing else. The user's staged changes stay staged (their staged version is
/// migrated too) and unfinished edits stay unstaged; a note git does not track yet is migrated
/// in the work tree only and left for the user (or the next sync) to commit.
struct MigrationCommit {
    let repository: Repository
    let steps: [Migration]
    let seed: String
    let timeZone: TimeZone

    /// Commits the migration of `paths` (the notes and the configuration file it rewrote in the
    /// work tree) as one commit listing the steps; returns its id (hex).
    func commit(_ paths: [String], report: MigrateReport, vault: Vault, options: MigrateOptions) throws -> String {
        let head = try repository.headCommitID()
        let headTree = try head.map { try repository.treeID(ofCommit: $0) }
        var entries: [String: TreeEntry] = [:]
        for entry in try headTree.map({ try repository.treeEntries($0) }) ?? [] { entries[entry.path] = entry }
        let headEntries = try headTree.map { try repository.entries(atPaths: paths, inTree: $0) } ?? [:]
        let index = try repository.index()
        var committedPaths: [String] = []
        for path in paths {
            let headEntry = headEntries[path]
            let committed: TreeEntry
            if let headEntry {
                let old = try repository.blobData(headEntry.id)
                let new = try migrated(old, path: path)
                guard new != old else { continue }
                committed = TreeEntry(path: path, id: try repository.writeBlob(new), kind: headEntry.kind)
            } else if path == VaultConfig.relativePath {
                // A vault without a committed configuration: the file the migration wrote.
                committed = TreeEntry(path: path, id: try repository.writeBlob(try vault.readData(path)))
            } else {
                // Not committed yet: migrated in the work tree; a staged version is migrated too.
                if let staged = index.entry(atPath: path) { try restage(staged, path: path, index: index) }
                continue
            }
            entries[path] = committed
            committedPaths.append(path)
            if let staged = index.entry(atPath: path) {
                if staged.id == headEntry?.id {
                    try index.add(entry: committed)
                } else {
                    try restage(staged, path: path, index: index)
                }
            } else if headEntry == nil {
                try index.add(entry: committed)
            }
        }
        let tree = try repository.writeTree(entries: entries.values.sorted { $0.path < $1.path })
        let message = Self.message(report: report, paths: committedPaths, device: options.device)
        let environment = SyncEnvironment(device: options.device, now: options.now, variables: options.environment)
        let signature = environment.signature(repository: repository, vault: vault)
        let id = try repository.createCommit(tree: tree, parents: head.map { [$0] } ?? [], message: message,
                                             author: signature, committer: signature, updateReference: "HEAD").hex
        try index.write()
        return id
    }

    /// `data` (a version of the file at `path`) migrated: the configuration file gets the
    /// current version; a note gets the steps, and stays as it is when they cannot apply.
    private func migrated(_ data: Data, path: String) throws -> Data {
        if path == VaultConfig.relativePath {
            var config = try VaultConfig(data: data, timeZone: timeZone)
            try config.setVersion(VaultConfig.currentVersion)
            return config.serialized()
        }
        var document = NoteDocument(data: data, timeZone: timeZone)
        // A version the steps cannot edit is committed as it is (the work tree's is reported).
        guard document.format == .yaml || document.format == .toml, document.isEditable,
              (try? Migration.apply(steps, to: &document, path: path, seed: seed)) != nil else { return data }
        return document.serialized()
    }

    /// Replaces the staged version of `path` by its migration (a staged change stays staged).
    private func restage(_ staged: TreeEntry, path: String, index: Index) throws {
        let old = try repository.blobData(staged.id)
        let new = try migrated(old, path: path)
        guard new != old else { return }
        try index.add(entry: TreeEntry(path: path, id: try repository.writeBlob(new), kind: staged.kind))
    }

    /// The commit message: the steps, the files, the device.
    static func message(report: MigrateReport, paths: [String], device: String) -> String {
        var message = "quire migrate on \(device): vault format \(report.fromVersion) → \(report.toVersion)\n\n"
        for step in report.steps {
            message += "\(step.name) (version \(step.version)): \(step.notes == 1 ? "1 note" : "\(step.notes) notes") — \(step.summary)\n"
        }
        message += "\n" + paths.prefix(100).map { "M \($0)" }.joined(separator: "\n") + "\n"
        if paths.count > 100 { message += "… and \(paths.count - 100) more\n" }
        message += "\nQuire-Device: \(device)\n"
        return message
    }
}
