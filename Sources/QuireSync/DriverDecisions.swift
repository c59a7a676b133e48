import Foundation
import QuireGit

/// Decisions that dropped text, taken by `quire merge-driver` while the git CLI merged (a plain
/// `git pull`). git makes the merge commit only after the driver has run, so the driver keeps
/// them in `.quire/local/merge-driver-decisions.json` with the blob ids of both sides; they are
/// paired with the merge commit that holds those two sides as its parents. `quire conflicts`
/// lists them from there at once, and the next `quire sync` records them on a commit of its own
/// (`Quire-Conflict: winner=… merge=<commit> path=… reason=…`), so every device lists them, with
/// the same id as a decision of `quire sync` would have: that merge commit and the path.
public enum DriverDecisions {
    /// One decision as the driver saw it.
    struct Entry: Codable, Equatable {
        var path: String
        /// `ours` or `theirs` (`MergeWinner`).
        var winner: String
        var reason: String
        /// Blob ids (hex) of the current branch's version (`%A`) and the incoming one (`%B`).
        var ours: String
        var theirs: String
        /// The device whose git CLI merged.
        var device: String
        /// The text the decision dropped (`MergeDecision.lost`).
        var lost: String? = nil
    }

    /// The file, relative to the vault root (local to the device, never tracked).
    public static let relativePath = ".quire/local/merge-driver-decisions.json"

    /// Adds the decisions the driver took for one file merged between `ours` and `theirs`.
    public static func record(_ decisions: [MergeDecision], ours: Data, theirs: Data, device: String, vaultRoot: URL) throws {
        guard !decisions.isEmpty else { return }
        let added = decisions.map { Entry(path: $0.path, winner: $0.winner.rawValue, reason: $0.reason,
                                          ours: BlobHash.hex(ours), theirs: BlobHash.hex(theirs), device: device, lost: $0.lost) }
        try save(try load(vaultRoot: vaultRoot) + added, vaultRoot: vaultRoot)
    }

    /// The decisions of merges that are in HEAD's history, each with its merge commit, and those
    /// not paired yet (git has not committed the merge, or it was abandoned).
    static func paired(_ repository: Repository, vaultRoot: URL) throws -> (pairs: [(entry: Entry, merge: CommitInfo)], unpaired: [Entry]) {
        let entries = try load(vaultRoot: vaultRoot)
        guard !entries.isEmpty, let head = try repository.headCommitID() else { return ([], entries) }
        var pairs: [(entry: Entry, merge: CommitInfo)] = []
        var unpaired = entries
        for commit in try repository.log(from: head) where commit.parents.count > 1 && !unpaired.isEmpty {
            let ours = try repository.treeID(ofCommit: commit.parents[0])
            let theirs = try repository.treeID(ofCommit: commit.parents[1])
            unpaired = try unpaired.filter { entry in
                guard try repository.entry(atPath: entry.path, inTree: ours)?.id.hex == entry.ours,
                      try repository.entry(atPath: entry.path, inTree: theirs)?.id.hex == entry.theirs else { return true }
                pairs.append((entry, commit))
                return false
            }
        }
        return (pairs, unpaired)
    }

    /// Trailer lines for the decisions whose merge commit is in HEAD's history, and `forget`,
    /// which takes those decisions out of the file: call it once the lines are kept elsewhere
    /// (in the sync state, until a commit carries them).
    static func pairedTrailers(_ repository: Repository, vaultRoot: URL) throws -> (lines: [String], forget: () throws -> Void) {
        guard FileManager.default.fileExists(atPath: vaultRoot.appendingPathComponent(relativePath).path) else { return ([], {}) }
        let (pairs, unpaired) = try paired(repository, vaultRoot: vaultRoot)
        guard !pairs.isEmpty else { return ([], {}) }
        let lines = pairs.compactMap { pair in
            MergeWinner(rawValue: pair.entry.winner).map {
                ConflictTrailer.line(for: MergeDecision(path: pair.entry.path, winner: $0, reason: pair.entry.reason, lost: pair.entry.lost),
                                     merge: pair.merge.id)
            }
        }
        return (lines, { try save(unpaired, vaultRoot: vaultRoot) })
    }

    static func load(vaultRoot: URL) throws -> [Entry] {
        let url = vaultRoot.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        do {
            return try JSONDecoder().decode([Entry].self, from: Data(contentsOf: url))
        } catch {
            throw SyncError.file(path: relativePath, reason: "cannot read the merge driver's decisions (\(error.localizedDescription))")
        }
    }

    private static func save(_ entries: [Entry], vaultRoot: URL) throws {
        let url = vaultRoot.appendingPathComponent(relativePath)
        do {
            if entries.isEmpty {
                if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
                return
            }
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(entries).write(to: url, options: .atomic)
        } catch {
            throw SyncError.file(path: relativePath, reason: error.localizedDescription)
        }
    }
}
