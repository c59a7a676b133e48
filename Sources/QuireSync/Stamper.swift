import Foundation
import QuireCore
import QuireGit

/// Step 2 of the cycle: notes edited outside quire get `updatedAt` = the file's modification
/// time, and notes the user edited while the last sync updated them are merged three ways
/// against the version the edit was based on.
struct Stamper {
    let repository: Repository
    let vault: Vault
    let headTree: OID?
    let headTime: Date
    let device: String
    let now: Date
    /// Copies written for user edits that lost a collision (see `keptCopy`).
    private(set) var keptCopies: [String] = []

    /// Stamps the notes among `changes` (the work tree's status); returns the stamped paths;
    /// merges and clears `state.pendingBases`.
    mutating func run(changes: [StatusEntry], state: inout SyncState, selector: MergeStrategySelector) throws -> [String] {
        var stamped: [String] = []
        var writes: [(path: String, data: Data)] = []
        for entry in changes where entry.inWorkTree && entry.path.hasSuffix(".md") {
            guard entry.kind == .modified || entry.kind == .renamed, let headTree else { continue }
            let oldPath = entry.oldPath ?? entry.path
            guard let committed = try repository.entry(atPath: oldPath, inTree: headTree),
                  let current = try? Data(contentsOf: vault.url(for: entry.path)) else { continue }
            let headData = try repository.blobData(committed.id)
            var data = current
            if let baseHex = state.pendingBases[entry.path], let baseID = OID(hex: baseHex),
               let base = try? repository.blobData(baseID) {
                let mtime = modificationTime(entry.path) ?? headTime
                let merged = try MergeResolver(strategy: selector.strategy(for: entry.path))
                    .merge(path: entry.path, base: base, ours: MergeSide(data: current, commitTime: mtime),
                           theirs: MergeSide(data: headData, commitTime: headTime))
                data = merged.merged
                if merged.decisions.contains(where: { $0.winner == .theirs }) {
                    // The user's own text lost a collision and was never committed: keep it
                    // beside the note so it reaches history instead of vanishing.
                    let copy = keptCopy(of: current, path: entry.path, device: device, now: now)
                    writes.append(copy)
                    keptCopies.append(copy.path)
                }
            }
            if let stampedData = try stamp(data, committed: headData, path: entry.path) {
                data = stampedData
                stamped.append(entry.path)
            }
            if data != current { writes.append((entry.path, data)) }
        }
        try vault.writeAll(writes)
        state.pendingBases = [:]
        return stamped
    }

    /// `data` with `updatedAt` set to the file's mtime, when the content really changed against
    /// the committed version, `updatedAt` did not change with it, and the front matter is
    /// readable YAML; nil otherwise.
    private func stamp(_ data: Data, committed: Data, path: String) throws -> Data? {
        guard data != committed else { return nil }
        let now = NoteParser.parse(data, path: path)
        guard now.format == .yaml, now.problems.isEmpty,
              now.updatedAt == NoteParser.parse(committed, path: path).updatedAt else { return nil }
        var document = NoteDocument(data: data)
        guard document.isEditable else { return nil }
        try document.setUpdatedAt(modificationTime(path) ?? headTime)
        return document.serialized()
    }

    /// `<name>.conflict-<device>-<YYYYMMDDTHHMMSSZ>.md` holding `data` with a new `id` and
    /// `conflictOf: <old id>` (as the keep-both strategy writes its copies).
    private func keptCopy(of data: Data, path: String, device: String, now: Date) -> (path: String, data: Data) {
        let (stem, ext) = TreeMerger.split(path)
        var copyPath = "\(stem).conflict-\(TreeMerger.safeName(device))-\(BackupRefs.stamp(now))\(ext)"
        var counter = 2
        while FileManager.default.fileExists(atPath: vault.url(for: copyPath).path) {
            copyPath = "\(stem).conflict-\(TreeMerger.safeName(device))-\(BackupRefs.stamp(now))-\(counter)\(ext)"
            counter += 1
        }
        var document = NoteDocument(data: data)
        if document.format == .yaml, document.isEditable {
            let oldID = document.value(forKey: "id")?.stringValue
            try? document.set("id", .string(UUID().uuidString.lowercased()))
            if let oldID { try? document.set("conflictOf", .string(oldID)) }
        }
        return (copyPath, document.serialized())
    }

    private func modificationTime(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: vault.url(for: path).path))?[.modificationDate] as? Date
    }
}
